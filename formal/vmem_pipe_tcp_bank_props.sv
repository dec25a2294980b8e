// Formal-only (make formal UNIT=vmem_pipe_tcp_bank; docs/formal-and-synthesis.md "Property
// proofs"): the environment of one TCP bank as assumptions, and properties of its L2 channel that
// the bank's own assertions do not state. Bound into every vmem_pipe_tcp_bank by the `bind` at the
// end, so the design's files stay as simulated; read only by `gcn-vmem formal`.
//
// The environment (docs/decisions.md "vmem_pipe", "TCP (L1)", "L2 requests", "Responses"):
//   Push_M       the TCP pushes at most lk_free_o accesses (it accepts a bundle only when they fit);
//   AccWf_M      each pushed access is well formed: 1 .. 4 requests, an instruction id below
//                InFlight, as many valid request slots as requests;
//   Quiet_M      quiet_i, once 1, stays 1 until a reset;
//   RspTag_M     while quiet_i, a response on the channel answers a request of this bank that the L2
//                accepted and has not answered: tag {0, m} an outstanding request of MSHR m, tag
//                {1, id} an outstanding posted request of id (before quiet_i, the L2 may still
//                answer requests from before a reset: the bank ignores those, so they are free);
//   Posted_M     posted_zero_i[id] is 0 while this bank has a posted request of id outstanding;
//   Take_M       the TD takes only a return register that holds an access.
// The properties (the L2 side of the channel's valid/ready protocol):
//   L2ReqStable_A  a request presented and not accepted is presented unchanged in the next cycle
//                  (while quiet_i);
//   L2TagFree_A    a request tagged {0, m} names an MSHR with no outstanding request.

module vmem_pipe_tcp_bank_props
  import vmem_pkg::*;
#(
  // The bank's parameters as one value (the bind's); the bank's state has the widths of
  // vmem_pkg::pipe_idx_w and pipe_cnt_w, as the bank declares it.
  parameter pipe_cfg_t Cfg = PipeCfgDefault
) (
  input logic                  clk_i,
  input logic                  rst_ni,
  input logic                  quiet_i,
  input logic [3:0]            push_i,
  input pipe_acc_t [3:0]       acc_i,
  input logic [2:0]            lk_free_o,
  input logic [PipeMaxIds-1:0] posted_zero_i,
  input logic                  l2_req_ready_i,
  input pipe_l2_rsp_t          l2_rsp_i,
  input pipe_l2_req_t          l2_req_o,
  input pipe_rr_t              rr_o,
  input logic                  rr_take_i,
  // The bank's state, for the helper invariants (same names: bound with .*).
  input logic [Cfg.lines-1:0]                                   ent_valid_q,
  input logic [Cfg.lines-1:0]                                   ent_pend_q,
  input logic [Cfg.lines-1:0][PipeLineW-1:0]                    ent_line_q,
  input logic [Cfg.lines-1:0][pipe_cnt_w(Cfg.return_depth)-1:0] ent_pins_q,
  input logic [Cfg.lines-1:0][pipe_idx_w(Cfg.mshrs)-1:0]        ent_mshr_q,
  input logic [Cfg.mshrs-1:0]                                   m_busy_q,
  input logic [Cfg.mshrs-1:0]                                   m_lined_q,
  input logic [Cfg.mshrs-1:0]                                   m_arr_q,
  input logic [Cfg.mshrs-1:0][pipe_cnt_w(Cfg.targets)-1:0]      m_tgt_q,
  input logic [Cfg.mshrs-1:0][pipe_idx_w(Cfg.lines)-1:0]        m_ent_q,
  input logic [Cfg.mshrs-1:0]                                   m_sent_q,
  input pipe_acc_t [Cfg.lookup_depth-1:0]                       lq_q,
  input logic [pipe_idx_w(Cfg.lookup_depth)-1:0]                lq_head_q,
  input logic [pipe_cnt_w(Cfg.lookup_depth)-1:0]                lq_cnt_q,
  input logic [Cfg.lookup_depth-1:0]                            lq_sv_q,
  input pipe_ret_t [Cfg.return_depth-1:0]                       rq_q,
  input logic [pipe_idx_w(Cfg.return_depth)-1:0]                rq_head_q,
  input logic [pipe_cnt_w(Cfg.return_depth)-1:0]                rq_cnt_q,
  input logic [Cfg.return_depth-1:0]                            rq_sv_q,
  input pipe_l2e_t [Cfg.l2_depth-1:0]                           l2q_q,
  input logic [pipe_idx_w(Cfg.l2_depth)-1:0]                    l2q_head_q,
  input logic [pipe_cnt_w(Cfg.l2_depth)-1:0]                    l2q_cnt_q,
  input logic [Cfg.l2_depth-1:0]                                l2q_sv_q,
  input logic [(Cfg.lines * (Cfg.lines - 1)) / 2 - 1:0]        ord_q
);
  localparam int unsigned PostW = 4;

  // Outstanding requests of this bank at the L2: accepted (valid, ready, quiet) and not answered.
  logic [15:0]                       m_out_q, m_out_d;
  logic [PipeMaxIds-1:0][PostW-1:0]  post_q, post_d;
  logic                              accept, answer;

  assign accept = quiet_i && l2_req_o.valid && l2_req_ready_i;
  assign answer = quiet_i && l2_rsp_i.valid;
  always_comb begin
    m_out_d = m_out_q;
    post_d  = post_q;
    if (answer && !l2_rsp_i.tag[4]) m_out_d[l2_rsp_i.tag[3:0]] = 1'b0;
    if (answer && l2_rsp_i.tag[4]) post_d[l2_rsp_i.tag[3:0]] = post_q[l2_rsp_i.tag[3:0]] - 1'b1;
    if (accept && !l2_req_o.tag[4]) m_out_d[l2_req_o.tag[3:0]] = 1'b1;
    if (accept && l2_req_o.tag[4]) post_d[l2_req_o.tag[3:0]] = post_d[l2_req_o.tag[3:0]] + 1'b1;
  end
  `VMEM_FF(m_out_q, m_out_d, '0)
  `VMEM_FF(post_q, post_d, '0)

  logic push_ok, acc_ok, rsp_ok, posted_ok;
  always_comb begin
    push_ok = 32'($countones(push_i)) <= 32'(lk_free_o);
    acc_ok  = 1'b1;
    for (int r = 0; r < 4; r++) begin
      if (push_i[r]) begin
        if (acc_i[r].nreq == '0 || acc_i[r].nreq > 3'd4 || 32'(acc_i[r].id) >= Cfg.inflight) acc_ok = 1'b0;
        // req[k]: request k of the bundle when it is one of this access (not packed).
        if (32'($countones({acc_i[r].req[3].valid, acc_i[r].req[2].valid, acc_i[r].req[1].valid,
                            acc_i[r].req[0].valid})) != 32'(acc_i[r].nreq)) acc_ok = 1'b0;
      end
    end
    rsp_ok = !answer || (l2_rsp_i.tag[4] ? (post_q[l2_rsp_i.tag[3:0]] != '0)
                                         : (32'(l2_rsp_i.tag[3:0]) < Cfg.mshrs && m_out_q[l2_rsp_i.tag[3:0]]));
    posted_ok = 1'b1;
    for (int i = 0; i < PipeMaxIds; i++) begin
      if (post_q[i] != '0 && posted_zero_i[i]) posted_ok = 1'b0;
    end
  end

  // What the TCP around the bank guarantees (Push_M, AccWf_M, Posted_M) is assumed when the bank
  // is the proof's top, and checked when the TCP is (gcn-vmem formal defines FORMAL_TOP_<top>);
  // the L2 (RspTag_M), the TD (Take_M) and the pipe's quiet (Quiet_M) are outside both.
`ifdef FORMAL_TOP_vmem_pipe_tcp_bank
  Push_M: assume property (@(posedge clk_i) disable iff (!rst_ni) push_ok);
  AccWf_M: assume property (@(posedge clk_i) disable iff (!rst_ni) acc_ok);
  Posted_M: assume property (@(posedge clk_i) disable iff (!rst_ni) posted_ok);
`else
  `VMEM_ASSERT(Push_M, push_ok)
  `VMEM_ASSERT(AccWf_M, acc_ok)
  `VMEM_ASSERT(Posted_M, posted_ok)
`endif
  Quiet_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
                            !($past(rst_ni) && $past(quiet_i)) || quiet_i);
  RspTag_M: assume property (@(posedge clk_i) disable iff (!rst_ni) rsp_ok);
  Take_M: assume property (@(posedge clk_i) disable iff (!rst_ni) !rr_take_i || rr_o.valid);

  `VMEM_ASSERT(L2ReqStable_A, !($past(rst_ni) && $past(quiet_i) && $past(l2_req_o.valid) &&
                                !$past(l2_req_ready_i)) || (l2_req_o == $past(l2_req_o)))
  `VMEM_ASSERT(L2TagFree_A, !(quiet_i && l2_req_o.valid && !l2_req_o.tag[4]) || !m_out_q[l2_req_o.tag[3:0]])
  // Helper invariants (proven like the rest; they make the bank's assertions inductive: each
  // rules out states no run from reset reaches).
  //   Counts_H      the queues' counts at most their depths, heads inside;
  //   Shadow_H      the assertions' shadow occupancy is exactly the queues' windows;
  //   Sent_H        the props' outstanding MSHR requests are the bank's m_sent_q, each of a busy,
  //                 not yet arrived MSHR, not also waiting in the L2 queue;
  //   L2qMshr_H     an L2-queue entry tagged {0, m} is a read or an atomic of a busy MSHR that
  //                 has not arrived and has no request at the L2;
  //   Targets_H     an MSHR's targets are its return-queue entries, at most Cfg.targets; free MSHRs
  //                 are clear;
  //   Pins_H        an entry's pins are its hit entries in the return queue;
  //   Pending_H     a pending entry belongs to a busy, lined, not arrived MSHR that names it, and
  //                 such an MSHR's entry is pending with it; no entry is valid and pending;
  //   LineOnce_H    no line is in two entries;
  //   LruOrder_H    the age matrix is an order (transitive; one bit per pair makes it total and
  //                 antisymmetric), so that one candidate is older than every other.
  function automatic logic in_win(int unsigned s, int unsigned head, int unsigned cnt, int unsigned n);
    return ((s + n - head) % n) < cnt;
  endfunction

  // Entry e is older than f in the bank's age matrix (bit (e, f) for e < f).
  function automatic logic older(int unsigned e, int unsigned f);
    int unsigned lo, hi;
    lo = (e < f) ? e : f;
    hi = (e < f) ? f : e;
    return (e < f) ? ord_q[lo * Cfg.lines - (lo * (lo + 1)) / 2 + (hi - lo - 1)]
                   : !ord_q[lo * Cfg.lines - (lo * (lo + 1)) / 2 + (hi - lo - 1)];
  endfunction

  logic h_counts, h_shadow, h_sent, h_l2q, h_tgt, h_pins, h_pend, h_line, h_lru;
  always_comb begin
    int unsigned c;
    h_counts = 32'(lq_cnt_q) <= Cfg.lookup_depth && 32'(lq_head_q) < Cfg.lookup_depth &&
               32'(rq_cnt_q) <= Cfg.return_depth && 32'(rq_head_q) < Cfg.return_depth &&
               32'(l2q_cnt_q) <= Cfg.l2_depth && 32'(l2q_head_q) < Cfg.l2_depth;
    h_shadow = 1'b1;
    for (int s = 0; s < Cfg.lookup_depth; s++)
      if (lq_sv_q[s] != in_win(s, lq_head_q, lq_cnt_q, Cfg.lookup_depth)) h_shadow = 1'b0;
    for (int s = 0; s < Cfg.return_depth; s++)
      if (rq_sv_q[s] != in_win(s, rq_head_q, rq_cnt_q, Cfg.return_depth)) h_shadow = 1'b0;
    for (int s = 0; s < Cfg.l2_depth; s++)
      if (l2q_sv_q[s] != in_win(s, l2q_head_q, l2q_cnt_q, Cfg.l2_depth)) h_shadow = 1'b0;
    h_sent = 1'b1;
    for (int m = 0; m < 16; m++) begin
      if (m < Cfg.mshrs) begin
        if (m_out_q[m] != m_sent_q[m]) h_sent = 1'b0;
        if (m_sent_q[m] && (!m_busy_q[m] || m_arr_q[m])) h_sent = 1'b0;
      end else if (m_out_q[m]) begin
        h_sent = 1'b0;
      end
    end
    h_l2q = 1'b1;
    for (int s = 0; s < Cfg.l2_depth; s++) begin
      if (in_win(s, l2q_head_q, l2q_cnt_q, Cfg.l2_depth) && !l2q_q[s].tag[4]) begin
        if (32'(l2q_q[s].tag[3:0]) >= Cfg.mshrs || l2q_q[s].kind == L2Write) h_l2q = 1'b0;
        else if (!m_busy_q[l2q_q[s].tag[3:0]] || m_arr_q[l2q_q[s].tag[3:0]] ||
                 m_sent_q[l2q_q[s].tag[3:0]]) h_l2q = 1'b0;
      end
    end
    h_tgt = 1'b1;
    for (int m = 0; m < Cfg.mshrs; m++) begin
      c = 0;
      for (int s = 0; s < Cfg.return_depth; s++)
        if (in_win(s, rq_head_q, rq_cnt_q, Cfg.return_depth) && !rq_q[s].hit && 32'(rq_q[s].idx) == m) c++;
      if (32'(m_tgt_q[m]) != c || 32'(m_tgt_q[m]) > Cfg.targets) h_tgt = 1'b0;
      if (m_busy_q[m] && m_tgt_q[m] == '0) h_tgt = 1'b0;
      if (!m_busy_q[m] && (m_arr_q[m] || m_lined_q[m] || m_tgt_q[m] != '0)) h_tgt = 1'b0;
    end
    for (int s = 0; s < Cfg.return_depth; s++)
      if (in_win(s, rq_head_q, rq_cnt_q, Cfg.return_depth) &&
          (rq_q[s].hit ? 32'(rq_q[s].idx) >= Cfg.lines : 32'(rq_q[s].idx) >= Cfg.mshrs)) h_tgt = 1'b0;
    h_pins = 1'b1;
    for (int e = 0; e < Cfg.lines; e++) begin
      c = 0;
      for (int s = 0; s < Cfg.return_depth; s++)
        if (in_win(s, rq_head_q, rq_cnt_q, Cfg.return_depth) && rq_q[s].hit && 32'(rq_q[s].idx) == e) c++;
      if (32'(ent_pins_q[e]) != c) h_pins = 1'b0;
    end
    h_pend = 1'b1;
    for (int e = 0; e < Cfg.lines; e++) begin
      if (ent_valid_q[e] && ent_pend_q[e]) h_pend = 1'b0;
      if (ent_pend_q[e]) begin
        if (32'(ent_mshr_q[e]) >= Cfg.mshrs) h_pend = 1'b0;
        else if (!m_busy_q[ent_mshr_q[e]] || !m_lined_q[ent_mshr_q[e]] || m_arr_q[ent_mshr_q[e]] ||
                 32'(m_ent_q[ent_mshr_q[e]]) != e) h_pend = 1'b0;
      end
    end
    for (int m = 0; m < Cfg.mshrs; m++) begin
      if (m_busy_q[m] && m_lined_q[m] && !m_arr_q[m]) begin
        if (32'(m_ent_q[m]) >= Cfg.lines) h_pend = 1'b0;
        else if (!ent_pend_q[m_ent_q[m]] || 32'(ent_mshr_q[m_ent_q[m]]) != m) h_pend = 1'b0;
      end
    end
    h_line = 1'b1;
    for (int e = 0; e < Cfg.lines; e++)
      for (int f = e + 1; f < Cfg.lines; f++)
        if ((ent_valid_q[e] || ent_pend_q[e]) && (ent_valid_q[f] || ent_pend_q[f]) &&
            ent_line_q[e] == ent_line_q[f]) h_line = 1'b0;
    h_lru = 1'b1;
    for (int e = 0; e < Cfg.lines; e++)
      for (int f = 0; f < Cfg.lines; f++)
        for (int g = 0; g < Cfg.lines; g++)
          if (e != f && f != g && e != g && older(e, f) && older(f, g) && !older(e, g)) h_lru = 1'b0;
  end

  `VMEM_ASSERT(Counts_H, h_counts)
  `VMEM_ASSERT(Shadow_H, h_shadow)
  `VMEM_ASSERT(Sent_H, h_sent)
  `VMEM_ASSERT(L2qMshr_H, h_l2q)
  `VMEM_ASSERT(Targets_H, h_tgt)
  `VMEM_ASSERT(Pins_H, h_pins)
  `VMEM_ASSERT(Pending_H, h_pend)
  `VMEM_ASSERT(LineOnce_H, h_line)
  `VMEM_ASSERT(LruOrder_H, h_lru)
endmodule

// The bank's parameters as one value (banks: 1, the bank itself).
bind vmem_pipe_tcp_bank vmem_pipe_tcp_bank_props #(
  .Cfg(vmem_pkg::pipe_cfg(1, Lines, Mshrs, Targets, InFlight, LookupDepth, ReturnDepth, L2Depth))
) u_props (.*);
