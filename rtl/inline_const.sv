// Copyright gcn-vmem contributors.
//
// inline_const: decodes a CTM 7-bit unsigned-float inline constant into its IEEE-754 binary32
// bit pattern.
//
// Parameters: none.
// Test hook: `VMEM_TEST_HOOK(inline_const_brk), nothing in the design (rtl/vmem_prim_pkg.sv); the
//   break-asserts build puts rtl/test/inline_const_brk.svh there, which makes each property
//   assertion below fail, just past its bound, on a range of codes (tests/inline_const.rs proves
//   each one fires).
//
// Behaviour (docs/spec.md §9): code_i bits 6:3 are the exponent e (bias 7), bits 2:0 the mantissa
//   m. The value is
//     e > 0:          (1 + m/8) * 2^(e-7)   (2^-6 .. 480)
//     e = 0, m > 0:   m/8 * 2^-6 = m * 2^-9 (denormal: 2^-9 .. 7 * 2^-9)
//     code 0:         2^-10
//   bits_o is its f32 pattern, built field by field (every value is exact in f32):
//     sign 0;
//     e > 0:          exponent field e + 120 (= e - 7 + 127), mantissa {m, 20'b0};
//     e = 0, m > 0:   m = 1.f * 2^p with p the position of m's leading one (0..2), so the value
//                     is 1.f * 2^(p-9): exponent field 118 + p, mantissa = the bits of m below
//                     its leading one, left-aligned in the 23 bits;
//     code 0:         exponent field 117, mantissa 0.
//   Hence the exponent field lies in 117..135 and only mantissa bits 22:20 are ever set.
//
// Latency: 2 cycles. A code sampled with valid_i = 1 at rising edge j reaches bits_o at edge j+1,
//   with valid_o. A new code is accepted every cycle. Stage 1 (edge j) registers the code; stage 2
//   (edge j+1) registers the decoded f32. Valid flops load every cycle; the data flop of a stage
//   loads only when that stage's incoming valid is 1, else holds. rst_ni (asynchronous, active
//   low) clears every valid and data flop, outputs included.
//
// Model: rust/inline_const.rs  Tests: tests/inline_const.rs  Spec: docs/spec.md §9

module inline_const (
  `VMEM_UNIT_CLOCKING,  // clk_i, rst_ni, valid_i
  input  logic [6:0]  code_i,    // e at 6:3 (bias 7), m at 2:0 (SPEC §9)
  output logic        valid_o,
  output logic [31:0] bits_o     // the f32 bit pattern of the constant
);

  // Widths and constants local to this unit.
  localparam int unsigned CodeExpW = 4;    // code exponent e
  localparam int unsigned CodeManW = 3;    // code mantissa m
  localparam int unsigned F32ExpW  = 8;
  localparam int unsigned F32ManW  = 23;

  // f32 exponent fields (bias 127).
  localparam logic [F32ExpW-1:0] ExpRebias = 8'd120;  // e > 0: field = e - 7 + 127 = e + 120
  localparam logic [F32ExpW-1:0] ExpDen4   = 8'd120;  // m in 4..7: (m/4) * 2^-7
  localparam logic [F32ExpW-1:0] ExpDen2   = 8'd119;  // m in 2..3: (m/2) * 2^-8
  localparam logic [F32ExpW-1:0] ExpDen1   = 8'd118;  // m = 1:     2^-9
  localparam logic [F32ExpW-1:0] ExpZero   = 8'd117;  // code 0:    2^-10
  localparam logic [F32ExpW-1:0] ExpMin    = ExpZero; // smallest constant, 2^-10
  localparam logic [F32ExpW-1:0] ExpMax    = 8'd135;  // largest constant, 480 = 1.875 * 2^8

  // The 7-bit code (SPEC §9).
  typedef struct packed {
    logic [CodeExpW-1:0] e;
    logic [CodeManW-1:0] m;
  } code_t;

  // IEEE-754 binary32.
  typedef struct packed {
    logic               sign;
    logic [F32ExpW-1:0] exponent;
    logic [F32ManW-1:0] mantissa;
  } f32_t;

  logic  valid_q;
  code_t s1_d, s1_q;
  f32_t  s2_d, s2_q2;

  ////////////////////////////////
  // Stage 1: register the code //
  ////////////////////////////////

  assign s1_d = code_t'(code_i);

  ////////////////////////////////////////
  // Stage 2: decode to the f32 pattern //
  ////////////////////////////////////////

  f32_t value;

  always_comb begin
    value = '0;   // sign 0: every constant is positive
    if (s1_q.e != '0) begin
      // Normal: (1 + m/8) * 2^(e-7); the implicit one is f32's, m its top three fraction bits.
      value.exponent = ExpRebias + F32ExpW'(s1_q.e);
      value.mantissa = {s1_q.m, 20'd0};
    end else if (s1_q.m[2]) begin
      // Denormal m * 2^-9, m = 1.xx * 2^2.
      value.exponent = ExpDen4;
      value.mantissa = {s1_q.m[1:0], 21'd0};
    end else if (s1_q.m[1]) begin
      // Denormal m * 2^-9, m = 1.x * 2^1.
      value.exponent = ExpDen2;
      value.mantissa = {s1_q.m[0], 22'd0};
    end else if (s1_q.m[0]) begin
      // Denormal m = 1: 2^-9.
      value.exponent = ExpDen1;
    end else begin
      // Code 0: 2^-10 (the spec's exception to the denormal formula).
      value.exponent = ExpZero;
    end
  end

  // Stage 2 register input (VMEM_STAGE_FF loads it when valid_q is 1).
  always_comb begin
    s2_d = value;
    `VMEM_TEST_HOOK(inline_const_brk)  // test builds only (see the contract above)
  end

  ///////////////
  // Registers //
  ///////////////

  `VMEM_UNIT_STAGES(valid_q, s1_q, s1_d, s2_q2, s2_d, bits_o)

  ////////////////
  // Assertions //
  ////////////////

// Reset drives bits_o to 0 (sign clear); the valid-gated properties ignore the reset value. All
// are disabled while rst_ni is low anyway (vmem_prim_pkg.sv).

// Every constant is positive.
`VMEM_ASSERT(SignClear_A, bits_o[31] == 1'b0)
// The constants span 2^-10 .. 480: f32 exponent field 117 .. 135, each end its own assertion.
`VMEM_ASSERT(ExponentMin_A, valid_o |-> (bits_o[30:23] >= ExpMin))
`VMEM_ASSERT(ExponentMax_A, valid_o |-> (bits_o[30:23] <= ExpMax))
// At most three mantissa bits are set, the top three of the f32 mantissa.
`VMEM_ASSERT(MantissaLow_A, valid_o |-> (bits_o[19:0] == 20'd0))

endmodule : inline_const
