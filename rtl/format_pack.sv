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

  // One field after stage 1: field = neg ? -(pre + inc) : pre + inc, in its w low bits.
  typedef struct packed {
    logic [31:0] pre;
    logic        inc;
    logic        neg;
  } field_val_t;

  localparam logic [30:0] F32OneMag = 31'h3f80_0000;   // |1.0|
  localparam logic [7:0]  F32Exp16  = 8'd143;          // biased exponent of 2^16

  ///////////////////////////////
  // Conversions local to pack //
  ///////////////////////////////

  // round_half_even(|v| * (2^m - 1)) for 0 <= |v| < 1 (magnitude bits of an f32, exponent
  // <= 126) and m <= 16, as field_val_t (neg = 0). See the contract above for the method.
  function automatic field_val_t norm_product(logic [30:0] mag, logic [4:0] m);
    logic [7:0]  exp;
    logic [23:0] sig;
    logic [39:0] prod;     // sig * (2^m - 1), exact
    logic [7:0]  shift;    // 150 - exp, capped: 48 shifts everything below the round bit
    logic [63:0] aligned;  // {prod, 48'b0} >> shift, truncated to bits 63:0: value in 63:48
    field_val_t  r;
    exp   = mag[30:23];
    sig   = {exp != 8'd0, mag[22:0]};
    prod  = ({16'd0, sig} << m) - {16'd0, sig};
    shift = 8'd150 - ((exp == 8'd0) ? 8'd1 : exp);
    if (shift > 8'd48) begin
      shift = 8'd48;
    end
    // shift >= 24 and prod < 2^40: the integer part is below 2^16, so bits 87:64 of the full
    // shifted value are 0 and the truncation to 64 bits loses nothing.
    aligned = 64'({prod, 48'd0} >> shift);
    r       = '0;
    r.pre   = {16'd0, aligned[63:48]};
    r.inc   = aligned[47] & ((|aligned[46:0]) | aligned[48]);
    return r;
  endfunction

  // min(trunc(|v|), 2^16) for the magnitude bits of a non-NaN f32 (infinity allowed).
  function automatic logic [16:0] trunc_mag(logic [30:0] mag);
    logic [7:0]  exp;
    logic [16:0] t;
    exp = mag[30:23];
    t   = '0;
    if (exp >= F32Exp16) begin
      t = 17'h1_0000;              // |v| >= 2^16: saturates every field of w <= 16
    end else if (exp >= 8'd127) begin
      // 1 <= |v| < 2^16: {1, mantissa} >> (150 - exp), a shift of 8..23.
      t = 17'({1'b1, mag[22:0]} >> (8'd150 - exp));
    end
    return t;
  endfunction

  // Stage 1 of one field of w bits (w = 0: absent, gives 0).
  function automatic field_val_t pack_field(logic [31:0] c, logic [5:0] w, nfmt_e nfmt);
    logic        sign;
    logic        nan;
    logic [30:0] mag;
    logic [16:0] ones;      // 2^w - 1           (w <= 16)
    logic [16:0] smax;      // 2^(w-1) - 1       (w <= 16)
    logic [16:0] t;
    field_val_t  r;
    sign = c[31];
    mag  = c[30:0];
    nan  = is_nan_mag(mag);
    ones = (17'd1 << w[4:0]) - 17'd1;
    smax = (17'd1 << (w[4:0] - 5'd1)) - 17'd1;
    t    = '0;
    r    = '0;
    if (w == 6'd0) begin
      r = '0;
    end else if (w == 6'd32) begin
      r.pre = c;
    end else begin
      unique case (nfmt)
        NfmtUnorm: begin
          if (nan || sign) begin
            r = '0;                               // NaN, and every v <= 0 (-0 included)
          end else if (mag >= F32OneMag) begin
            r.pre = {15'd0, ones};                // v >= 1, +inf included
          end else begin
            r = norm_product(mag, w[4:0]);
          end
        end
        NfmtSnorm: begin
          if (nan) begin
            r = '0;
          end else if (mag >= F32OneMag) begin
            r.pre = {15'd0, smax};                // |v| >= 1, infinities included
          end else begin
            r = norm_product(mag, w[4:0] - 5'd1);
          end
          r.neg = sign & ~nan;
        end
        NfmtUscaled: begin
          t = trunc_mag(mag);
          if (nan || sign) begin
            r = '0;                               // negative values truncate or saturate to 0
          end else begin
            r.pre = {15'd0, (t > ones) ? ones : t};
          end
        end
        NfmtSscaled: begin
          t = trunc_mag(mag);
          if (nan) begin
            r = '0;
          end else if (sign) begin
            r.pre = {15'd0, (t > smax + 17'd1) ? smax + 17'd1 : t};   // down to -2^(w-1)
            r.neg = 1'b1;
          end else begin
            r.pre = {15'd0, (t > smax) ? smax : t};
          end
        end
        NfmtUint, NfmtSint: r.pre = c;            // the low w bits, cut in stage 2
        NfmtFloat: r.pre = {16'd0, f32_to_small_float(c, w)};   // 0 unless 16, 11, 10
        default: r = '0;                          // NfmtReserved: not format_valid
      endcase
    end
    return r;
  endfunction

  // Stage 1 register.
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
  logic [31:0]  rounded [4];   // pre + inc
  logic [31:0]  signed_v [4];  // negated for snorm / sscaled negatives
  logic [31:0]  field_v [4];   // cut to the field's w bits
  logic [127:0] data;

  always_comb begin
    fields_s2 = fmt_fields(s1_q.dfmt);
    data     = '0;
    for (int k = 0; k < 4; k++) begin
      rounded[k]  = s1_q.fv[k].pre + {31'd0, s1_q.fv[k].inc};
      signed_v[k] = s1_q.fv[k].neg ? -rounded[k] : rounded[k];
      field_v[k]  = signed_v[k] & 32'((33'd1 << fields_s2[k].width) - 33'd1);
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
