// TEST ONLY: break-asserts corruptions of vmem_pipe's address stage (TA). The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_ta_adr) at the end of rtl/vmem_pipe_ta.sv's address-stage
// always_comb, in the unit's one test build (never in the design). Off unless +TestBreakAsserts;
// then with the program's key (its V#'s base address bits 11:6):
//  10: the last beat of an instruction, while the instruction taken last is in flight, steps the
//      id count back to that instruction's id                 -> TakeFree_A (the take of the
//      one received names an id in flight; asserted in the TD. Holding the count at a take
//      instead can reach a next take after that instruction's done: a legal reuse, whose done
//      then differs at the port)
//  18: a group fed to buffer_addr loses its result tag          -> AddrResultTag_A (two edges on:
//      buffer_addr's valid is 1, the tag's 0)
if (vmem_pipe.u_brk_switch.test_break_asserts) begin
  unique case (ib_hdr_q[0].vsharp[11:6])
    6'd10: if (iss_i.valid && iss_ready_o && iss_i.last && !take &&
               vmem_pipe.u_td.inf_q[take_cnt_q - PipeIdW'(1)]) begin
      take_cnt_d = take_cnt_q - PipeIdW'(1);
    end
    6'd18: if (fd_valid) rp1_d.valid = 1'b0;
    default: ;
  endcase
end
