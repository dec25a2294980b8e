// Fixture of `gcn-vmem formal` (tests/formal.rs): a FIFO of Depth entries whose occupancy counter
// and pointers are checked by assertions in the forms Yosys's read_slang reads (docs/
// formal-and-synthesis.md "Property proofs"), with one environment assumption.
//
// Defines:
//   FIFO_BUG      the planted bug: full_o one entry late, so a push into a full FIFO is taken
//                 and the counter passes Depth (CountBound_A and PtrDiff_A fail).
//   FIFO_UNKNOWN  adds Wrap_A, true in every run from reset but not k-inductive below k = 8:
//                 unknown at depth 4, proven at depth 10.
module fifo #(
  parameter int unsigned Depth = 4,
  parameter int unsigned Width = 8
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             push_i,
  input  logic [Width-1:0] data_i,
  output logic             full_o,
  input  logic             pop_i,
  output logic             empty_o,
  output logic [Width-1:0] data_o
);
  localparam int unsigned Aw = $clog2(Depth);

  logic [Width-1:0] mem_q [Depth];
  logic [Aw-1:0]    rd_q, wr_q;
  logic [Aw:0]      count_q;
  logic             do_push;

`ifdef FIFO_BUG
  assign full_o = count_q == (Aw + 1)'(Depth + 1);
`else
  assign full_o = count_q == (Aw + 1)'(Depth);
`endif
  assign empty_o = count_q == '0;
  assign do_push = push_i && !full_o;

  // No underflow guard: the environment never pops an empty FIFO (Env_M).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q    <= '0;
      wr_q    <= '0;
      count_q <= '0;
    end else begin
      if (do_push) wr_q <= wr_q + 1'b1;
      if (pop_i) rd_q <= rd_q + 1'b1;
      count_q <= count_q + (Aw + 1)'(do_push) - (Aw + 1)'(pop_i);
    end
  end
  always_ff @(posedge clk_i) if (do_push) mem_q[wr_q] <= data_i;
  assign data_o = mem_q[rd_q];

  // The environment: no pop while empty.
  Env_M: assume property (@(posedge clk_i) disable iff (!rst_ni) !(pop_i && empty_o));

  `VMEM_ASSERT(CountBound_A, count_q <= (Aw + 1)'(Depth))
  `VMEM_ASSERT(PtrDiff_A, Aw'(wr_q - rd_q) == Aw'(count_q))
  // `a |-> b` written as `!(a) || (b)`; `$past` reaches into the reset cycle, so a property on
  // the previous cycle names $past(rst_ni).
  `VMEM_ASSERT(FullNoPush_A, !(full_o && push_i && !pop_i) || !do_push)
  `VMEM_ASSERT(Grow_A, !($past(rst_ni) && $past(do_push) && !$past(pop_i)) ||
                       (count_q == $past(count_q) + 1'b1))
  `VMEM_ASSERT(Hold_A, !($past(rst_ni) && !$past(push_i) && !$past(pop_i)) || $stable(count_q))

`ifdef FIFO_UNKNOWN
  // Counts 0 .. 7 and wraps; 8 .. 15 are unreachable, and from 8 it takes 7 cycles to reach 15.
  logic [3:0] wrap_q;
  `VMEM_FF(wrap_q, wrap_q == 4'd7 ? 4'd0 : wrap_q + 4'd1, '0)
  `VMEM_ASSERT(Wrap_A, wrap_q != 4'd15)
`endif
endmodule
