// Formal-only (make formal UNIT=vmem_pipe_tcp_bank; docs/formal-and-synthesis.md "Property
// proofs"): the environment of one TCP bank as assumptions, and properties of its L2 channel that
// the bank's own assertions do not state. Bound into every vmem_pipe_tcp_bank by the `bind` at the
// end, so the design's files stay as simulated; read only by `gcn-vmem formal`.
//
// The environment (docs/decisions.md "vmem_pipe", "TCP (L1)", "L2 requests", "Responses"):
//   Push_M       the TCP pushes at most lk_free_o accesses (it accepts a bundle only when they fit);
//   AccWf_M      each pushed access is well formed: 1 .. 4 requests, an instruction id below
//                InFlight, the request slots of its nreq requests valid;
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
  parameter int unsigned Mshrs    = 16,
  parameter int unsigned InFlight = 16
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
  input logic                  rr_take_i
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
        for (int k = 0; k < 4; k++) begin
          if ((k < 32'(acc_i[r].nreq)) != acc_i[r].req[k].valid) acc_ok = 1'b0;
        end
      end
    end
    rsp_ok = !answer || (l2_rsp_i.tag[4] ? (post_q[l2_rsp_i.tag[3:0]] != '0)
                                         : (32'(l2_rsp_i.tag[3:0]) < Mshrs && m_out_q[l2_rsp_i.tag[3:0]]));
    posted_ok = 1'b1;
    for (int i = 0; i < PipeMaxIds; i++) begin
      if (post_q[i] != '0 && posted_zero_i[i]) posted_ok = 1'b0;
    end
  end

  Push_M: assume property (@(posedge clk_i) disable iff (!rst_ni) push_ok);
  AccWf_M: assume property (@(posedge clk_i) disable iff (!rst_ni) acc_ok);
  Quiet_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
                            !($past(rst_ni) && $past(quiet_i)) || quiet_i);
  RspTag_M: assume property (@(posedge clk_i) disable iff (!rst_ni) rsp_ok);
  Posted_M: assume property (@(posedge clk_i) disable iff (!rst_ni) posted_ok);
  Take_M: assume property (@(posedge clk_i) disable iff (!rst_ni) !rr_take_i || rr_valid_o);

  `VMEM_ASSERT(L2ReqStable_A, !($past(rst_ni) && $past(quiet_i) && $past(l2_req_o.valid) &&
                                !$past(l2_req_ready_i)) || (l2_req_o == $past(l2_req_o)))
  `VMEM_ASSERT(L2TagFree_A, !(quiet_i && l2_req_o.valid && !l2_req_o.tag[4]) || !m_out_q[l2_req_o.tag[3:0]])
endmodule

bind vmem_pipe_tcp_bank vmem_pipe_tcp_bank_props #(.Mshrs(Mshrs), .InFlight(InFlight)) u_props (.*);
