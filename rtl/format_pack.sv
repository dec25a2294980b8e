`ifndef VMEM_FORMAT_PACK_SV  // included by the blocks that instantiate it (see rtl/vmem_pipe.sv)
`define VMEM_FORMAT_PACK_SV
// Copyright gcn-vmem contributors.
//
// format_pack: four 32-bit components -> element (format conversion for stores).
//
// Parameters: none.
// Test hook: `VMEM_TEST_HOOK(format_pack_brk), nothing in the design (rtl/vmem_prim_pkg.sv); the
//   break-asserts build puts rtl/test/format_pack_brk.svh there, which makes each assertion below
//   fail on some input (tests/format_pack.rs proves each one fires).
//
// Behaviour (docs/spec.md §1.4, §5 "Pack", and docs/decisions.md "format_unpack and format_pack"):
//   Component k (components_i[32k+31:32k], X, Y, Z, W) becomes field k of dfmt (§1.4), w bits:
//     w = 32    the raw bits, whatever the nfmt.
//     unorm     NaN -> 0; clamp to [0, 1]; round_half_even(v * (2^w - 1)), product exact.
//     snorm     NaN -> 0; clamp to [-1, 1]; round_half_even(v * (2^(w-1) - 1)), product exact;
//               two's complement in w bits.
//     uscaled   NaN -> 0; round toward zero; saturate to [0, 2^w - 1] (negatives and -inf -> 0,
//               +inf -> 2^w - 1).
//     sscaled   NaN -> 0; round toward zero; saturate to [-2^(w-1), 2^(w-1) - 1].
//     uint/sint the low w bits.
//     float     f32 -> f16 / f11 / f10 (vmem_fp_pkg: round to nearest even, overflow to infinity,
//               NaN payloads kept; f11/f10: NaN, then negatives -> 0).
//   Components beyond the format's count are ignored; data_o bits above the element are 0.
//   fmt_valid_o = format_valid(dfmt, nfmt) (§1.4); when 0, data_o = 0.
//
//   unorm/snorm exactly: for 0 <= |v| < 1, |v| = sig * 2^(e - 150) (sig the 24-bit significand,
//   e the biased exponent, 1 for a denormal), so |v| * (2^m - 1) = (sig * (2^m - 1)) >> (150 - e)
//   with a product of at most 40 bits: the shifted-out bits give the round and sticky bits of
//   a single round-half-even. snorm rounds |v| * (2^(w-1) - 1) and then negates (round half
//   even is symmetric).
//
// Latency: 2 cycles. Inputs sampled with valid_i = 1 at rising edge j reach the outputs at edge
//   j+1, with valid_o. A new input is accepted every cycle. Stage 1 (edge j) registers each
//   component converted up to the final rounding step: the truncated magnitude, its round-up
//   bit and its sign (raw, integer, scaled and float fields are final there); stage 2 (edge
//   j+1) registers the rounded, negated fields placed at their element bits. Valid flops load
//   every cycle; data flops of a stage load only when that stage's incoming valid is 1, else
//   hold. rst_ni (asynchronous, active low) clears every valid and data flop, outputs included.
//
// Model: rust/format_pack.rs  Tests: tests/format_pack.rs  Spec: docs/spec.md §1.4, §5

module format_pack
  import vmem_fp_pkg::*;
(
  `VMEM_UNIT_CLOCKING,  // clk_i, rst_ni, valid_i
  input  logic [3:0]   dfmt_i,          // data format, SPEC §1.4
  input  logic [2:0]   nfmt_i,          // numeric format, SPEC §1.4
  input  logic [127:0] components_i,    // component k (X, Y, Z, W) at 32k+31:32k
  output logic         valid_o,
  output logic [127:0] data_o,          // the element, bit k = element bit k; above it 0
  output logic         fmt_valid_o
);

  typedef struct packed {
    field_val_t [3:0] fv;
    logic [3:0]       dfmt;        // the field layout, for placing the fields in stage 2
    logic             fmt_valid;
  } stage1_t;

  // Stage 2 (output) register: the outputs after valid_o, in port order.
  typedef struct packed {
    logic [127:0] data;
    logic         fmt_valid;
  } stage2_t;

  logic    valid_q;
  stage1_t s1_d, s1_q;
  stage2_t s2_d, s2_q2;

  ////////////////////////////////////////////////
  // Stage 1: decode and convert up to rounding //
  ////////////////////////////////////////////////

  fields_t          fields;
  logic             valid_fmt;
  field_val_t [3:0] fv;

  always_comb begin
    fields    = fmt_fields(dfmt_i);
    valid_fmt = fmt_valid(dfmt_i, nfmt_i);
    for (int k = 0; k < 4; k++) begin
      fv[k] = valid_fmt ? pack_field(components_i[32*k +: 32], fields[k].width, nfmt_e'(nfmt_i))
                        : '0;
    end

    s1_d.fv        = fv;
    s1_d.dfmt      = dfmt_i;
    s1_d.fmt_valid = valid_fmt;
  end

  /////////////////////////////////////////////
  // Stage 2: round, negate, place the fields //
  /////////////////////////////////////////////

  fields_t      fields_s2;
  logic [31:0]  field_v [4];   // rounded, negated, cut to the field's w bits (pack_finish)
  logic [127:0] data;

  always_comb begin
    fields_s2 = fmt_fields(s1_q.dfmt);
    data     = '0;
    for (int k = 0; k < 4; k++) begin
      field_v[k]  = pack_finish(s1_q.fv[k], fields_s2[k].width);
      data        = data | ({96'd0, field_v[k]} << fields_s2[k].lsb);
    end

    s2_d.data      = data;      // 0 for an invalid pair: every field value is 0
    s2_d.fmt_valid = s1_q.fmt_valid;
    `VMEM_TEST_HOOK(format_pack_brk)  // test builds only (see the contract above)
  end

  ///////////////
  // Registers //
  ///////////////

  `VMEM_UNIT_STAGES(valid_q, s1_q, s1_d, s2_q2, s2_d, {data_o, fmt_valid_o})

  ////////////////
  // Assertions //
  ////////////////

// Reset drives every output to a value these properties accept; they are disabled while rst_ni
// is low anyway (vmem_prim_pkg.sv).

// An invalid pair packs to all-zero data (SPEC §5).
`VMEM_ASSERT(InvalidZero_A, !fmt_valid_o |-> (data_o == '0))
// No field spills above its element: only dfmt 11..14 (8, 12, 16 bytes) reach bit 32.
`VMEM_ASSERT(FieldInElement_A,
    valid_q |-> ((s1_q.dfmt inside {4'd11, 4'd12, 4'd13, 4'd14}) || (data[127:32] == '0)))

endmodule : format_pack

`endif  // VMEM_FORMAT_PACK_SV
