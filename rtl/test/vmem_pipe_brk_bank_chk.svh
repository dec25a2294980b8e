// TEST ONLY: break-asserts corruption of vmem_pipe's TCP bank checks. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_bank_chk) at the end of rtl/vmem_pipe_tcp_bank.sv's assertions'
// always_comb, in the unit's one test build (never in the design). Off unless +TestBreakAsserts;
// then with the program's key (its V#'s base address bits 11:6). RspMshrBusy_A is a property of
// the L2 (an input: it answers only an MSHR waiting for it), so the check reads a corrupted copy
// of the response's tag. (A register corruption, an MSHR left free at its GLC read, lets the
// next allocation retake it, whose L2 tag at the port differs before the response comes.)
//   6: the check's copy of an MSHR response's tag names the next MSHR
//                                                               -> RspMshrBusy_A (a response
//      whose next MSHR is not waiting)
if (vmem_pipe.u_brk_switch.test_break_asserts && (vmem_pipe.u_ta.ib_hdr_q[0].vsharp[11:6] == 6'd6) &&
    quiet_i && l2_rsp_i.valid && !l2_rsp_i.tag[4]) begin
  a_rsp_ok = m_busy_q[rm + MW'(1)] && !m_arr_q[rm + MW'(1)];
end
