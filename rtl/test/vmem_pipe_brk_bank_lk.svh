// TEST ONLY: break-asserts corruption of vmem_pipe's TCP bank lookup. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_bank_lk) at the end of rtl/vmem_pipe_tcp_bank.sv's lookup
// always_comb (entries, MSHR and victim choice), in the unit's one test build (never in the
// design). Off unless +TestBreakAsserts; then with the program's key (its V#'s base address bits
// 11:6). The choices corrupted here are read only where an allocation uses them (a miss's
// victim, an allocation's MSHR), and there the assertion fails in that cycle. The victim trees
// choose among exactly the entries VictimFree_A accepts (and Lines > Mshrs + ReturnDepth leaves
// one), and the free MSHR is one that is not busy, so the choices themselves are corrupted:
//   5: while an MSHR's L2 request is accepted and unanswered (the assertions' m_sent_q), an
//      allocation takes the lowest such MSHR                    -> MshrRealloc_A (a register
//      corruption, a miss leaving its MSHR free, lets the next miss retake it before its
//      request reaches the L2: the L2 tag at the port differs first)
//   7: while an entry of the bank is pending, the victim is the lowest pending entry
//                                                               -> VictimFree_A (the next miss)
if (vmem_pipe.u_brk_switch.test_break_asserts) begin
  unique case (vmem_pipe.u_ta.ib_hdr_q[0].vsharp[11:6])
    6'd5: for (int m = Mshrs - 1; m >= 0; m--) begin
      if (m_sent_q[m]) begin
        free_m = MW'(m);
      end
    end
    6'd7: for (int e = Lines - 1; e >= 0; e--) begin
      if (ent_pend_q[e]) begin
        victim = EntW'(e);
      end
    end
    default: ;
  endcase
end
