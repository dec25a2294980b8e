// TEST ONLY: break-asserts corruptions of vmem_pipe's address stage (TA). The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_ta_adr) at the end of rtl/vmem_pipe_ta.sv's address-stage
// always_comb, in the unit's one test build (never in the design). Off unless +TestBreakAsserts;
// then with the program's key (its V#'s base address bits 11:6):
//  10: a take does not advance the id count                    -> TakeFree_A (the next take
//      names the id still in flight; asserted in the TD)
//  18: a group fed to buffer_addr loses its result tag          -> AddrResultTag_A (two edges on:
//      buffer_addr's valid is 1, the tag's 0)
if (vmem_pipe.test_break_asserts) begin
  unique case (ib_hdr_q[0].vsharp[11:6])
    6'd10: if (take) take_cnt_d = take_cnt_q;
    6'd18: if (fd_valid) rp1_d.valid = 1'b0;
    default: ;
  endcase
end
