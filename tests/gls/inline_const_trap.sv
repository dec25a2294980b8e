// Copyright gcn-vmem contributors.
//
// inline_const_trap: TEST ONLY (tests/gls.rs, docs/integrations/gls.md). The unit inline_const
// with a construct planted that simulates differently from what synthesis builds: a read past
// the end of an array.
//
// Behaviour: as inline_const (same ports, same latency), except that bit 31 of bits_o is
//   bits_o[31] = (m >= 6) & seen_q[m],  m = bits_o[22:20] of the unit (the constant's mantissa
//                                       bits 22:20), seen_q[k] = 1 once a valid constant with
//                                       m = k has left the unit (k = 0..5).
//   seen_q has entries 0..5, so the read seen_q[m] is in range only where the guard m >= 6 is
//   false. For m = 6 or 7 it is out of range: SystemVerilog gives X, and the simulator here
//   gives 0 (with --x-assign unique and no X seed), so in simulation bits_o[31] is always 0, the
//   sign the model gives, and the RTL run passes. Synthesis may build any value for that X, and
//   Yosys 0.70 (`make gls`) folds the read, memory and all, into 1 where the guard holds: the
//   netlist's bit 31 is m >= 6 (target/gls/netlist/inline_const_trap.v: `assign trap = bits_o[22] &
//   bits_o[21];`), set for every constant with mantissa bits 22:20 of 6 or 7 (codes with e > 0
//   and m = 6, 7, and the denormal code 7, 1.75 * 2^-7): the gate-level run fails.
//
// Model: rust/inline_const.rs (the unit's)  Tests: tests/gls.rs

// The unit's assertions sample rst_ni (`disable iff`), as rtl/lint/verilator.vlt explains for the
// files under rtl/; its waiver is scoped to those files, so this one repeats it for its port.
/* verilator lint_off SYNCASYNCNET */
module inline_const_trap (
  input  logic        clk_i,
  input  logic        rst_ni,    // async, active low
  input  logic        valid_i,
  input  logic [6:0]  code_i,
  output logic        valid_o,
  output logic [31:0] bits_o
);

  logic [31:0] bits;

  inline_const u_unit (
    .clk_i,
    .rst_ni,
    .valid_i,
    .code_i,
    .valid_o,
    .bits_o (bits)
  );

  logic       seen_q [6];
  logic [2:0] m;
  logic       trap;

  // A six-entry memory (no reset, as memories have none): entry m is set once a valid constant
  // with mantissa bits m (0..5) has left the unit; a write at m = 6, 7 is out of range and
  // dropped, by the simulator and by the netlist alike.
  always_ff @(posedge clk_i) begin
    if (valid_o) begin
      seen_q[m] <= 1'b1;
    end
  end

  assign m    = bits[22:20];
  assign trap = (m >= 3'd6) & seen_q[m];  // out of range for m = 6, 7

  assign bits_o = {bits[31] ^ trap, bits[30:0]};

endmodule
/* verilator lint_on SYNCASYNCNET */
