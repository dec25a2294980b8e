`ifndef VMEM_VMEM_PIPE_RF_SV  // included by the blocks that instantiate it (see rtl/vmem_pipe.sv)
`define VMEM_VMEM_PIPE_RF_SV
// Copyright gcn-vmem contributors.
//
// vmem_pipe_rf: a model of a 1R1W register-file macro (docs/decisions.md "vmem_pipe": the MSHRs'
// data, `Mshrs` x 512 bits per TCP bank), one write port and one registered read port.
//
// Parameters:
//   Depth  rows.
//   Width  bits of a row.
//
// Behaviour, per cycle:
//   we_i:  row waddr_i takes wdata_i at the edge.
//   re_i:  row raddr_i is read at the edge (its value before a write at the same edge); rdata_o
//          shows it from the next cycle and holds it until the next read.
// No reset: a row is read only after it was written (an MSHR's row after its response).
//
// Synthesis leaves this module as a black box (cosim/tools/synth.rs MACROS), declared from this
// file for each instance's parameters (`synth::macro_declarations`), so its parameter list holds
// no localparam: the address width is written out in the ports.
//
// Spec: docs/spec.md §14 "Hardware, not only behaviour"  Contract: docs/decisions.md "vmem_pipe"

module vmem_pipe_rf #(
  parameter int unsigned Depth = 16,
  parameter int unsigned Width = 512
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [$clog2((Depth > 1) ? Depth : 2)-1:0] waddr_i,
  input  logic [Width-1:0] wdata_i,
  input  logic             re_i,
  input  logic [$clog2((Depth > 1) ? Depth : 2)-1:0] raddr_i,
  output logic [Width-1:0] rdata_o
);

  logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (we_i) begin
      mem_q[waddr_i] <= wdata_i;
    end
    if (re_i) begin
      rdata_q <= mem_q[raddr_i];
    end
  end

  assign rdata_o = rdata_q;

endmodule : vmem_pipe_rf

`endif  // VMEM_VMEM_PIPE_RF_SV
