`ifndef VMEM_VMEM_PIPE_TCP_RAM_SV  // included by the blocks that instantiate it (see rtl/vmem_pipe.sv)
`define VMEM_VMEM_PIPE_TCP_RAM_SV
// Copyright gcn-vmem contributors.
//
// vmem_pipe_tcp_ram: the data array of one TCP bank (docs/decisions.md "vmem_pipe", "TCP data
// arrays"): Entries lines of 64 bytes, no reset. Sub-block of rtl/vmem_pipe_tcp.sv.
//
// Ports:
//   st_en_i, st_entry_i, st_mask_i, st_data_i  a store hit's bytes: byte y of the line takes
//                 st_data_i[8y +: 8] where st_mask_i[y] is 1, at the edge.
//   fill_en_i, fill_entry_i, fill_data_i       a fill: the whole line, at the edge. Where a
//                 store and a fill write the same entry at the same edge, the fill's bytes are
//                 the ones kept (the TCP never does: a store waits while its line is pending,
//                 and a fill writes a pending entry).
//   rd_entry_i, rd_data_o                      the line of an entry, combinationally (the TCP
//                 reads a hit's line in the cycle of its lookup).
//
// The array is coded as an inferable memory (one byte-masked and one whole-line write port, one
// asynchronous read port) so that synthesis can see it as a register file or leave it to a
// macro: `make synth` counts it as a black box of Entries x 512 bits (docs/formal-and-synthesis.md
// "The pipeline").
//
// Spec: docs/spec.md §14 "TCP (L1)"  Contract: docs/decisions.md "vmem_pipe"

module vmem_pipe_tcp_ram #(
  parameter int unsigned Entries = 64
) (
  input  logic                       clk_i,
  input  logic                       st_en_i,
  input  logic [$clog2(Entries)-1:0] st_entry_i,
  input  logic [63:0]                st_mask_i,
  input  logic [511:0]               st_data_i,
  input  logic                       fill_en_i,
  input  logic [$clog2(Entries)-1:0] fill_entry_i,
  input  logic [511:0]               fill_data_i,
  input  logic [$clog2(Entries)-1:0] rd_entry_i,
  output logic [511:0]               rd_data_o
);

  logic [511:0] mem_q [Entries];

  always_ff @(posedge clk_i) begin
    if (st_en_i) begin
      for (int y = 0; y < 64; y++) begin
        if (st_mask_i[y]) begin
          mem_q[st_entry_i][8*y +: 8] <= st_data_i[8*y +: 8];
        end
      end
    end
    if (fill_en_i) begin
      mem_q[fill_entry_i] <= fill_data_i;
    end
  end

  assign rd_data_o = mem_q[rd_entry_i];

endmodule : vmem_pipe_tcp_ram

`endif  // VMEM_VMEM_PIPE_TCP_RAM_SV
