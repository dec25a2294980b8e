// TEST ONLY: break-asserts corruption of vmem_pipe's TCP bank return register. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_bank_ret) at the end of rtl/vmem_pipe_tcp_bank.sv's return-stage
// always_comb, in the unit's one test build (never in the design). Off unless +TestBreakAsserts;
// then with the program's key (its V#'s base address bits 11:6). rr_o.ret (rr_ret) is 0 by
// construction while rr_v_q is 0 (ReturnIdleZero_A restates the code), so its gating is
// corrupted; the TD reads rr_o.ret only where rr_o.valid is 1, so nothing else sees it:
//  12: an empty return register shows its last (taken) access  -> ReturnIdleZero_A
if (vmem_pipe.u_brk_switch.test_break_asserts && (vmem_pipe.u_ta.ib_hdr_q[0].vsharp[11:6] == 6'd12) &&
    !rr_v_q) begin
  rr_ret = rr_q;
end
