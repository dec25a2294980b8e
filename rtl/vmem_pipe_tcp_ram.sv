`ifndef VMEM_VMEM_PIPE_TCP_RAM_SV  // included by the blocks that instantiate it (see rtl/vmem_pipe.sv)
`define VMEM_VMEM_PIPE_TCP_RAM_SV
// Copyright gcn-vmem contributors.
//
// vmem_pipe_tcp_ram: one TCP bank's line data (docs/decisions.md "vmem_pipe", "TCP"), a model of
// a single-port synchronous SRAM macro: Lines words of 512 bits (64 bytes).
//
// Parameters:
//   Lines  words (lines of the bank).
//
// Behaviour, per cycle (one access at most):
//   req_i & we_i:  the bytes of wdata_i whose wmask_i bit is 1 are written into word addr_i at
//                  the edge (a byte-masked write); rdata_o is left as it was.
//   req_i & !we_i: word addr_i is read; rdata_o shows it from the next cycle and holds it until
//                  the next read (writes and idle cycles leave it).
//   !req_i:        nothing changes.
// No reset: a word is read only after it was written (the TCP reads a line only for a hit).
//
// Synthesis leaves this module as a black box (cosim/tools/synth.rs MACROS), as a flow places a
// memory compiler's SRAM here, declared from this file for each instance's parameters
// (`synth::macro_declarations`), so its parameter list holds no localparam: the address width is
// written out in the port.
//
// Spec: docs/spec.md §14 "TCP (L1)", "Hardware, not only behaviour"  Contract: docs/decisions.md "vmem_pipe"

module vmem_pipe_tcp_ram #(
  parameter int unsigned Lines = 64
) (
  input  logic             clk_i,
  input  logic             req_i,
  input  logic             we_i,
  input  logic [$clog2((Lines > 1) ? Lines : 2)-1:0] addr_i,
  input  logic [63:0]      wmask_i,    // byte i of the word at bits 8i+7:8i
  input  logic [511:0]     wdata_i,
  output logic [511:0]     rdata_o
);

  logic [511:0] mem_q [Lines];
  logic [511:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (req_i) begin
      if (we_i) begin
        for (int i = 0; i < 64; i++) begin
          if (wmask_i[i]) begin
            mem_q[addr_i][8*i +: 8] <= wdata_i[8*i +: 8];
          end
        end
      end else begin
        rdata_q <= mem_q[addr_i];
      end
    end
  end

  assign rdata_o = rdata_q;

endmodule : vmem_pipe_tcp_ram

`endif  // VMEM_VMEM_PIPE_TCP_RAM_SV
