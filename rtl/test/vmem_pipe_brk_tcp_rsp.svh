// TEST ONLY: break-asserts corruption of the TCP's check of the L2's response channels. The text
// of `VMEM_TEST_HOOK(vmem_pipe_brk_tcp_rsp) at the end of rtl/vmem_pipe_tcp.sv's RspChannel_A
// always_comb, in the unit's one test build (never in the design). Off unless +TestBreakAsserts;
// then with the program's key (its V#'s base address bits 11:6). RspChannel_A is a property of
// the L2 (an input) that only binds with Banks = 2: at the default Banks = 4, the only build with
// these corruptions, it is vacuous (no response is ever out of range), so the corruption
// evaluates the check as for Banks = 2:
//  25: the check of the L2's response channels takes Banks as 2 -> RspChannel_A (the first
//      response on channel 2 or 3 after quiet)
if (vmem_pipe.u_brk_switch.test_break_asserts &&
    (vmem_pipe.u_ta.ib_hdr_q[0].vsharp[11:6] == 6'd25)) begin
  a_rsp_channel_ok = !quiet_i || !(l2_rsp_i[2].valid || l2_rsp_i[3].valid);
end
