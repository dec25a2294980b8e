// TEST ONLY: break-asserts corruptions of the address rows' read-ahead (TA). The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_ta_ia) at the end of rtl/vmem_pipe_ta.sv's read-ahead always_comb
// of the address dwords' register files, in the unit's one test build (never in the design). Off
// unless +TestBreakAsserts; then with the program's key (its V#'s base address bits 11:6):
//  38: the address stage's next group, past group 1, is read from the group before
//                                                               -> AddrRowRead_A (next cycle)
if (vmem_pipe.u_brk_switch.test_break_asserts) begin
  unique case (ib_hdr_q[0].vsharp[11:6])
    6'd38: if (adr_busy_d && (adr_g_d > 2'd1)) ia_raddr[1:0] = adr_g_d - 2'd1;
    default: ;
  endcase
end
