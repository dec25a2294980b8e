// TEST ONLY: break-asserts corruptions of vmem_pipe's TCP banks. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_bank) at the end of rtl/vmem_pipe_tcp_bank.sv's next-state
// always_comb, in the unit's one test build (builds=one; never in the design:
// rtl/vmem_prim_pkg.sv). Off unless +TestBreakAsserts; then the program's key, its V#'s base
// address bits 11:6 (read from the TA's first instruction buffer: the pipe suite draws one V# a
// program), picks one corruption of a register's next value, just past the assertion's bound:
//   1: a lookup queue becoming full counts one entry less      -> LookupQueue_A (the next push
//      lands on the head's slot)
//   2: the same for a return queue                             -> ReturnQueue_A
//   3: the same for an L2 request queue                        -> L2Queue_A
//   4: a merge that fills an MSHR to Targets counts Targets+1  -> MshrTargets_A
//   5: a miss leaves its MSHR free                             -> MshrRealloc_A (the next miss
//      takes it again while its line read is at the L2)
//   6: a GLC load leaves its MSHR free                         -> RspMshrBusy_A (its response
//      names a free MSHR)
if (vmem_pipe.test_break_asserts) begin
  unique case (vmem_pipe.u_ta.ib_hdr_q[0].vsharp[11:6])
    6'd1: if (lq_cnt_d == LkW'(LookupDepth)) lq_cnt_d = lq_cnt_d - LkW'(1);
    6'd2: if (rq_cnt_d == RqW'(ReturnDepth)) rq_cnt_d = rq_cnt_d - RqW'(1);
    6'd3: if (l2q_cnt_d == L2W'(L2Depth)) l2q_cnt_d = l2q_cnt_d - L2W'(1);
    6'd4: if (lk_merge && (m_tgt_q[e_m] == TgtW'(Targets - 1))) m_tgt_d[e_m] = TgtW'(Targets + 1);
    6'd5: if (lk_miss) m_busy_d[free_m] = 1'b0;
    6'd6: if (lk_glcrd) m_busy_d[free_m] = 1'b0;
    default: ;
  endcase
end
