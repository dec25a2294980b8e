// TEST ONLY: break-asserts corruption of vmem_pipe's TCP bank lookup. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_bank_lk) at the end of rtl/vmem_pipe_tcp_bank.sv's lookup
// always_comb (entries, MSHR and victim choice), in the unit's one test build (never in the
// design). Off unless +TestBreakAsserts; then with the program's key (its V#'s base address bits
// 11:6). The victim trees choose among exactly the entries VictimFree_A accepts (and Lines >
// Mshrs + ReturnDepth leaves one), so the choice itself is corrupted:
//   7: while an entry of the bank is pending, the victim is the lowest pending entry
//                                                               -> VictimFree_A (the next miss)
if (vmem_pipe.test_break_asserts && (vmem_pipe.u_ta.ib_hdr_q[0].vsharp[11:6] == 6'd7)) begin
  for (int e = Lines - 1; e >= 0; e--) begin
    if (ent_pend_q[e]) begin
      victim = EntW'(e);
    end
  end
end
