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
  parameter int unsigned Lines       = 64,
  parameter int unsigned Mshrs       = 16,
  parameter int unsigned Targets     = 8,
  parameter int unsigned InFlight    = 16,
  parameter int unsigned LookupDepth = 4,
  parameter int unsigned ReturnDepth = 8,
  parameter int unsigned L2Depth     = 2,
  // The bank's own widths (rtl/vmem_pipe_tcp_bank.sv), passed by the bind.
  parameter int unsigned EntW = 6,
  parameter int unsigned MW   = 4,
  parameter int unsigned TgtW = 4,
  parameter int unsigned PinW = 4,
  parameter int unsigned LkW  = 3,
  parameter int unsigned LkPW = 2,
  parameter int unsigned RqW  = 4,
  parameter int unsigned RqPW = 3,
  parameter int unsigned L2W  = 2,
  parameter int unsigned L2PW = 1
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
  input logic                  rr_valid_o,
  input logic                  rr_take_i,
  // The bank's state, for the helper invariants (same names: bound with .*).
  input logic [Lines-1:0]                ent_valid_q,
  input logic [Lines-1:0]                ent_pend_q,
  input logic [Lines-1:0][PipeLineW-1:0] ent_line_q,
  input logic [Lines-1:0][PinW-1:0]      ent_pins_q,
  input logic [Lines-1:0][MW-1:0]        ent_mshr_q,
  input logic [Mshrs-1:0]                m_busy_q,
  input logic [Mshrs-1:0]                m_lined_q,
  input logic [Mshrs-1:0]                m_arr_q,
  input logic [Mshrs-1:0][TgtW-1:0]      m_tgt_q,
  input logic [Mshrs-1:0][EntW-1:0]      m_ent_q,
  input logic [Mshrs-1:0]                m_sent_q,
  input pipe_acc_t [LookupDepth-1:0]     lq_q,
  input logic [LkPW-1:0]                 lq_head_q,
  input logic [LkW-1:0]                  lq_cnt_q,
  input logic [LookupDepth-1:0]          lq_sv_q,
  input pipe_ret_t [ReturnDepth-1:0]     rq_q,
  input logic [RqPW-1:0]                 rq_head_q,
  input logic [RqW-1:0]                  rq_cnt_q,
  input logic [ReturnDepth-1:0]          rq_sv_q,
  input pipe_l2e_t [L2Depth-1:0]         l2q_q,
  input logic [L2PW-1:0]                 l2q_head_q,
  input logic [L2W-1:0]                  l2q_cnt_q,
  input logic [L2Depth-1:0]              l2q_sv_q
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
        if (acc_i[r].nreq == '0 || acc_i[r].nreq > 3'd4 || 32'(acc_i[r].id) >= InFlight) acc_ok = 1'b0;
        // req[k]: request k of the bundle when it is one of this access (not packed).
        if (32'($countones({acc_i[r].req[3].valid, acc_i[r].req[2].valid, acc_i[r].req[1].valid,
                            acc_i[r].req[0].valid})) != 32'(acc_i[r].nreq)) acc_ok = 1'b0;
      end
    end
    rsp_ok = !answer || (l2_rsp_i.tag[4] ? (post_q[l2_rsp_i.tag[3:0]] != '0)
                                         : (32'(l2_rsp_i.tag[3:0]) < Mshrs && m_out_q[l2_rsp_i.tag[3:0]]));
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
  Take_M: assume property (@(posedge clk_i) disable iff (!rst_ni) !rr_take_i || rr_valid_o);

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
  //   Targets_H     an MSHR's targets are its return-queue entries, at most Targets; free MSHRs
  //                 are clear;
  //   Pins_H        an entry's pins are its hit entries in the return queue;
  //   Pending_H     a pending entry belongs to a busy, lined, not arrived MSHR that names it, and
  //                 such an MSHR's entry is pending with it; no entry is valid and pending;
  //   LineOnce_H    no line is in two entries.
  function automatic logic in_win(int unsigned s, int unsigned head, int unsigned cnt, int unsigned n);
    return ((s + n - head) % n) < cnt;
  endfunction

  logic h_counts, h_shadow, h_sent, h_l2q, h_tgt, h_pins, h_pend, h_line;
  always_comb begin
    int unsigned c;
    h_counts = 32'(lq_cnt_q) <= LookupDepth && 32'(lq_head_q) < LookupDepth &&
               32'(rq_cnt_q) <= ReturnDepth && 32'(rq_head_q) < ReturnDepth &&
               32'(l2q_cnt_q) <= L2Depth && 32'(l2q_head_q) < L2Depth;
    h_shadow = 1'b1;
    for (int s = 0; s < LookupDepth; s++)
      if (lq_sv_q[s] != in_win(s, lq_head_q, lq_cnt_q, LookupDepth)) h_shadow = 1'b0;
    for (int s = 0; s < ReturnDepth; s++)
      if (rq_sv_q[s] != in_win(s, rq_head_q, rq_cnt_q, ReturnDepth)) h_shadow = 1'b0;
    for (int s = 0; s < L2Depth; s++)
      if (l2q_sv_q[s] != in_win(s, l2q_head_q, l2q_cnt_q, L2Depth)) h_shadow = 1'b0;
    h_sent = 1'b1;
    for (int m = 0; m < 16; m++) begin
      if (m < Mshrs) begin
        if (m_out_q[m] != m_sent_q[m]) h_sent = 1'b0;
        if (m_sent_q[m] && (!m_busy_q[m] || m_arr_q[m])) h_sent = 1'b0;
      end else if (m_out_q[m]) begin
        h_sent = 1'b0;
      end
    end
    h_l2q = 1'b1;
    for (int s = 0; s < L2Depth; s++) begin
      if (in_win(s, l2q_head_q, l2q_cnt_q, L2Depth) && !l2q_q[s].tag[4]) begin
        if (32'(l2q_q[s].tag[3:0]) >= Mshrs || l2q_q[s].kind == L2Write) h_l2q = 1'b0;
        else if (!m_busy_q[l2q_q[s].tag[3:0]] || m_arr_q[l2q_q[s].tag[3:0]] ||
                 m_sent_q[l2q_q[s].tag[3:0]]) h_l2q = 1'b0;
      end
    end
    h_tgt = 1'b1;
    for (int m = 0; m < Mshrs; m++) begin
      c = 0;
      for (int s = 0; s < ReturnDepth; s++)
        if (in_win(s, rq_head_q, rq_cnt_q, ReturnDepth) && !rq_q[s].hit && 32'(rq_q[s].idx) == m) c++;
      if (32'(m_tgt_q[m]) != c || 32'(m_tgt_q[m]) > Targets) h_tgt = 1'b0;
      if (m_busy_q[m] && m_tgt_q[m] == '0) h_tgt = 1'b0;
      if (!m_busy_q[m] && (m_arr_q[m] || m_lined_q[m] || m_tgt_q[m] != '0)) h_tgt = 1'b0;
    end
    for (int s = 0; s < ReturnDepth; s++)
      if (in_win(s, rq_head_q, rq_cnt_q, ReturnDepth) &&
          (rq_q[s].hit ? 32'(rq_q[s].idx) >= Lines : 32'(rq_q[s].idx) >= Mshrs)) h_tgt = 1'b0;
    h_pins = 1'b1;
    for (int e = 0; e < Lines; e++) begin
      c = 0;
      for (int s = 0; s < ReturnDepth; s++)
        if (in_win(s, rq_head_q, rq_cnt_q, ReturnDepth) && rq_q[s].hit && 32'(rq_q[s].idx) == e) c++;
      if (32'(ent_pins_q[e]) != c) h_pins = 1'b0;
    end
    h_pend = 1'b1;
    for (int e = 0; e < Lines; e++) begin
      if (ent_valid_q[e] && ent_pend_q[e]) h_pend = 1'b0;
      if (ent_pend_q[e]) begin
        if (32'(ent_mshr_q[e]) >= Mshrs) h_pend = 1'b0;
        else if (!m_busy_q[ent_mshr_q[e]] || !m_lined_q[ent_mshr_q[e]] || m_arr_q[ent_mshr_q[e]] ||
                 32'(m_ent_q[ent_mshr_q[e]]) != e) h_pend = 1'b0;
      end
    end
    for (int m = 0; m < Mshrs; m++) begin
      if (m_busy_q[m] && m_lined_q[m] && !m_arr_q[m]) begin
        if (32'(m_ent_q[m]) >= Lines) h_pend = 1'b0;
        else if (!ent_pend_q[m_ent_q[m]] || 32'(ent_mshr_q[m_ent_q[m]]) != m) h_pend = 1'b0;
      end
    end
    h_line = 1'b1;
    for (int e = 0; e < Lines; e++)
      for (int f = e + 1; f < Lines; f++)
        if ((ent_valid_q[e] || ent_pend_q[e]) && (ent_valid_q[f] || ent_pend_q[f]) &&
            ent_line_q[e] == ent_line_q[f]) h_line = 1'b0;
  end

  `VMEM_ASSERT(Counts_H, h_counts)
  `VMEM_ASSERT(Shadow_H, h_shadow)
  `VMEM_ASSERT(Sent_H, h_sent)
  `VMEM_ASSERT(L2qMshr_H, h_l2q)
  `VMEM_ASSERT(Targets_H, h_tgt)
  `VMEM_ASSERT(Pins_H, h_pins)
  `VMEM_ASSERT(Pending_H, h_pend)
  `VMEM_ASSERT(LineOnce_H, h_line)
endmodule

bind vmem_pipe_tcp_bank vmem_pipe_tcp_bank_props #(
  .Lines(Lines), .Mshrs(Mshrs), .Targets(Targets), .InFlight(InFlight), .LookupDepth(LookupDepth),
  .ReturnDepth(ReturnDepth), .L2Depth(L2Depth), .EntW(EntW), .MW(MW), .TgtW(TgtW), .PinW(PinW),
  .LkW(LkW), .LkPW(LkPW), .RqW(RqW), .RqPW(RqPW), .L2W(L2W), .L2PW(L2PW)
) u_props (.*);
