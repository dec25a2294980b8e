// TEST ONLY: break-asserts corruptions of vmem_pipe's TCP banks. The text of
// `VMEM_TEST_HOOK(vmem_pipe_brk_bank) at the end of rtl/vmem_pipe_tcp_bank.sv's next-state
// always_comb, in the unit's one test build (builds=one; never in the design:
// rtl/vmem_prim_pkg.sv). Off unless +TestBreakAsserts; then the program's key, its V#'s base
// address bits 11:6 (read from the TA's first instruction buffer: the pipe suite draws one V# a
// program), picks one corruption of a register's next value, just past the assertion's bound:
//   1: a lookup queue becoming full counts one entry less      -> LookupQueue_A (the next push
//      lands on the head's slot)
//   2: a push that leaves two entries in a return queue, with a load next in the lookup queue,
//      counts one                                              -> ReturnQueue_A (a later push
//      lands on the second entry's slot; the queue is rarely full: ReturnDepth 32)
//   3: the same for an L2 request queue                        -> L2Queue_A
//   4: a merge that fills an MSHR to Targets counts Targets+1  -> MshrTargets_A
// Keys 5 and 6 are in rtl/test/vmem_pipe_brk_bank_lk.svh and vmem_pipe_brk_bank_chk.svh.
if (vmem_pipe.u_brk_switch.test_break_asserts) begin
  unique case (vmem_pipe.u_ta.ib_hdr_q[0].vsharp[11:6])
    6'd1: if (lq_cnt_d == LkW'(LookupDepth)) lq_cnt_d = lq_cnt_d - LkW'(1);
    6'd2: if (lk_rq && (rq_cnt_d == RqW'(2)) && (lq_cnt_d != '0) &&
              (lq_d[lq_head_d].kind == PipeLoad)) begin
      rq_cnt_d = RqW'(1);
    end
    6'd3: if (l2q_cnt_d == L2W'(L2Depth)) l2q_cnt_d = l2q_cnt_d - L2W'(1);
    6'd4: if (lk_merge && (m_tgt_q[e_m] == TgtW'(Targets - 1))) m_tgt_d[e_m] = TgtW'(Targets + 1);
    default: ;
  endcase
end
