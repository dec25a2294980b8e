// TEST ONLY: break-asserts corruption of vmem_pipe's TCP bank L2 port. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_bank_l2) at the end of rtl/vmem_pipe_tcp_bank.sv's L2-port
// always_comb, in the unit's one test build (never in the design). Off unless +TestBreakAsserts;
// then with the program's key (its V#'s base address bits 11:6). The channel's payload is 0 by
// construction while its valid is 0 (L2IdleZero_A restates the code); it is an output, so the
// corruption shows at the port in the cycle the assertion fails (reported first):
//  11: an idle channel presents its queue head's (stale) payload, valid 0
//                                                               -> L2IdleZero_A
if (vmem_pipe.u_brk_switch.test_break_asserts && (vmem_pipe.u_ta.ib_hdr_q[0].vsharp[11:6] == 6'd11) &&
    !l2_req_o.valid) begin
  l2_req_o = '{valid: 1'b0, kind: l2h.kind, tag: l2h.tag, addr: l2h.addr, mask: l2h.mask,
               data: l2h.data, op: l2h.op, wide: l2h.wide, ret: l2h.ret};
end
