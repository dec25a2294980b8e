`ifndef VMEM_VMEM_PIPE_TD_GATHER_SV  // included by the blocks that instantiate it (see rtl/vmem_pipe.sv)
`define VMEM_VMEM_PIPE_TD_GATHER_SV
// Copyright gcn-vmem contributors.
//
// vmem_pipe_td_gather: the returned blocks of one quad of lanes of one in-flight instruction
// (docs/decisions.md "vmem_pipe", "TD gather"), a row of the TD's gather buffer: the TD holds
// one per id and quad (4 x 16).
// Sub-block of rtl/vmem_pipe_td.sv.
//
// Ports:
//   wr_i   the slots of ret_i that write this row this cycle (the TD decodes each slot's id and
//          quad once for all rows).
//   ret_i  the requests completing this cycle (the TCP's ret_o). A slot s of wr_i writes its block
//          into the first or second block (second) of each lane j of the quad with lanes[j] set,
//          at the edge. Two slots never write the same block at one edge (each block of a lane is
//          one request's, and a request completes once); were they to, the higher slot's is kept.
//   blk_o  per lane of the quad its [first, second] block; no reset (a block is read only once
//          its request completed).
//
// Spec: docs/spec.md §14 "TD"  Contract: docs/decisions.md "vmem_pipe"

module vmem_pipe_td_gather
  import vmem_pkg::*;
(
  input  logic                   clk_i,
  input  logic [31:0]            wr_i,
  input  pipe_ret_t [31:0]       ret_i,
  output logic [3:0][1:0][127:0] blk_o   // [lane of the quad][first, second]
);

  logic [3:0][1:0][127:0] blk_q;

  always_ff @(posedge clk_i) begin
    if (wr_i != '0) begin
      for (int s = 0; s < 32; s++) begin
        for (int j = 0; j < 4; j++) begin
          for (int h = 0; h < 2; h++) begin
            if (wr_i[s] && ret_i[s].lanes[j] && (ret_i[s].second == 1'(h))) begin
              blk_q[j][h] <= ret_i[s].data;
            end
          end
        end
      end
    end
  end

  assign blk_o = blk_q;

endmodule : vmem_pipe_td_gather

`endif  // VMEM_VMEM_PIPE_TD_GATHER_SV
