// Formal-only (make formal UNIT=vmem_pipe_tcp; docs/formal-and-synthesis.md "Property proofs"):
// the environment of the whole TCP, as assumptions. Each bank's own environment (the L2 channel,
// the TD's takes, quiet) and its checks on what the TCP feeds it come with
// formal/vmem_pipe_tcp_bank_props.sv, bound into every bank; with the TCP as the proof's top, the
// latter are assertions (FORMAL_TOP_vmem_pipe_tcp).
//   BndWf_M      a presented bundle is well formed: an id below InFlight, its valid requests first
//                and at least one;
//   BndHold_M    a bundle presented and not accepted is presented unchanged in the next cycle;
//   Take_M       the address stage takes (restarts the counters of) only an id with no posted
//                request outstanding.

module vmem_pipe_tcp_props
  import vmem_pkg::*;
#(
  parameter pipe_cfg_t   Cfg   = PipeCfgDefault,
  parameter int unsigned PostW = 8
) (
  input logic                               clk_i,
  input logic                               rst_ni,
  input logic                               bnd_valid_i,
  input pipe_bundle_t                       bnd_i,
  input logic                               bnd_ready_o,
  input logic                               take_i,
  input logic [PipeIdW-1:0]                 take_id_i,
  input logic [Cfg.inflight-1:0][PostW-1:0] post_q
);
  logic wf;
  always_comb begin
    wf = 32'(bnd_i.id) < Cfg.inflight && bnd_i.req[0].valid;
    for (int r = 1; r < 4; r++) begin
      if (bnd_i.req[r].valid && !bnd_i.req[r - 1].valid) wf = 1'b0;
    end
  end

  BndWf_M: assume property (@(posedge clk_i) disable iff (!rst_ni) !bnd_valid_i || wf);
  BndHold_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
                              !($past(rst_ni) && $past(bnd_valid_i) && !$past(bnd_ready_o)) ||
                              (bnd_valid_i && bnd_i == $past(bnd_i)));
  Take_M: assume property (@(posedge clk_i) disable iff (!rst_ni)
                           !take_i || (32'(take_id_i) < Cfg.inflight && post_q[take_id_i] == '0));
endmodule

bind vmem_pipe_tcp vmem_pipe_tcp_props #(.Cfg(Cfg), .PostW(PostW)) u_tcp_props (.*);
