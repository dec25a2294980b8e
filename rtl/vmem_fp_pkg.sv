// Copyright gcn-vmem contributors.
//
// vmem_fp_pkg: float conversions and the element-format table shared by the VMEM units.
//
// Self-contained (imports nothing), so that it may be compiled before vmem_pkg.
//
// Contents:
//   Float conversions (docs/spec.md §5, used by format_unpack, format_pack, d16 and multi_texel).
//   f16, f11 and f10 share a 5-bit exponent with bias 15; f11 (6-bit mantissa) and f10 (5-bit)
//   have no sign bit.
//     f16_to_f32, and small_float_to_f32 for f16, f11 or f10 by field width: exact widening,
//                  denormals kept, sign kept (f16), exponent 31 gives infinity or NaN with the
//                  payload in the top f32 mantissa bits as it is (no quieting).
//     f32_to_f16   round to nearest even, overflow to infinity, f32 denormals rounded like any
//                  value (no flushing). NaN: sign kept, exponent 31, mantissa = the top 10 f32
//                  mantissa bits, forced to 1 when those are all 0 (numpy's rule).
//     f32_to_small_float   f16 as f32_to_f16 (field width 16); f11 and f10 (widths 11, 10):
//                  NaN first (exponent 31, mantissa = top 6 / 5 f32 mantissa bits,
//                  forced to 1 when 0, sign dropped); then any negative value (-0, negative
//                  denormals, -infinity included) gives 0; then round to nearest even with
//                  overflow to infinity.
//   Normalized integers (docs/spec.md §5, used by format_unpack and multi_texel), correctly rounded
//   without a divider, as an f32_pre_t (truncated f32 and round-up bit) that f32_round finishes,
//   so that a unit may round in a later pipeline stage:
//     norm_to_f32   unorm v / (2^w - 1), or snorm max(s / (2^(w-1) - 1), -1.0).
//   Element formats (docs/spec.md §1.4, used by format_unpack and format_pack):
//     nfmt_e        the numeric-format codes.
//     fmt_valid     SPEC §1.4's format_valid(dfmt, nfmt).
//     fmt_fields    the component fields (width, least significant bit) of a dfmt, X first.
//     fmt_count     the number of components of a dfmt (0 for dfmt 0 and 15).
//   Unpack (docs/spec.md §5, used by format_unpack for each component and by vmem_pipe's TD for
//   each result dword):
//     unpack_component  a field of w bits as an f32_pre_t (int_to_f32 for the scaled formats).
//   Pack (docs/spec.md §5, used by format_pack for each component and by vmem_pipe's TA for each
//   store beat's component):
//     pack_field    stage 1: a component as a field of w bits before rounding (field_val_t).
//     pack_finish   stage 2: rounded, negated, cut to w bits.
//   `make mutants UNIT=u` edits the lines between `// mutants: u` and `// mutants: end` too (the
//   functions a unit delegates here; cosim/tools/mutants.rs).
//
// Spec: docs/spec.md §1.4, §4.3, §5, §6; docs/decisions.md "format_unpack and format_pack", "d16",
//   "multi_texel"

package vmem_fp_pkg;

  // ---------------------------------------------------------------------------------------------
  // Float encodings
  // ---------------------------------------------------------------------------------------------

  localparam int unsigned E5ManW  = 10;   // widest 5-bit-exponent mantissa (f16)
  localparam int unsigned F11ManW = 6;
  localparam int unsigned F10ManW = 5;

  localparam logic [7:0] F32ExpMax = 8'hff;   // infinity / NaN
  localparam logic [4:0] E5ExpMax  = 5'h1f;   // infinity / NaN of f16, f11, f10

  // ---------------------------------------------------------------------------------------------
  // Widening: f16 / f11 / f10 -> f32 (exact)
  // ---------------------------------------------------------------------------------------------

  // Widens a 5-bit-exponent float whose mantissa is left-aligned in 10 bits. f11 and f10 are
  // f16 values whose low mantissa bits are 0 (same bias, same denormal scale), so one routine
  // serves all three.
  function automatic logic [31:0] e5_to_f32(logic sign, logic [4:0] exp, logic [9:0] man);
    logic [31:0] f;
    logic [3:0]  lead;   // position of the leading one of a denormal mantissa
    logic [22:0] man_n;  // denormal mantissa below its leading one, left-aligned
    f     = '0;
    lead  = '0;
    man_n = '0;
    if (exp == E5ExpMax) begin
      // Infinity or NaN: the payload goes to the top f32 mantissa bits unchanged.
      f = {sign, F32ExpMax, man, 13'd0};
    end else if (exp != 5'd0) begin
      // Normal: rebias 15 -> 127.
      f = {sign, {3'd0, exp} + 8'd112, man, 13'd0};
    end else if (man == 10'd0) begin
      f = {sign, 31'd0};
    end else begin
      // Denormal: man * 2^-24 = 1.x * 2^(lead - 24), f32 exponent field 103 + lead. Shifting
      // {man, 13'd0} left by 10 - lead pushes the leading one just out of the 23 bits.
      for (int i = 0; i < 10; i++) begin
        if (man[i]) begin
          lead = 4'(i);
        end
      end
      man_n = {man, 13'd0} << (4'd10 - lead);
      f     = {sign, 8'd103 + {4'd0, lead}, man_n};
    end
    return f;
  endfunction

  function automatic logic [31:0] f16_to_f32(logic [15:0] h);
    return e5_to_f32(h[15], h[14:10], h[9:0]);
  endfunction

  // The float field of width w (16: f16, 11: f11, 10: f10; its bits right-aligned in h) widened
  // to f32, through one e5_to_f32 whatever the width; 0 for any other width.
  function automatic logic [31:0] small_float_to_f32(logic [15:0] h, logic [5:0] w);
    logic [15:0] e;   // {sign, exponent, mantissa left-aligned in 10 bits}
    unique case (w)
      6'd16:   e = h;
      6'd11:   e = {1'b0, h[10:6], h[5:0], 4'd0};
      6'd10:   e = {1'b0, h[9:5], h[4:0], 5'd0};
      default: e = '0;   // +0, which widens to 0
    endcase
    return e5_to_f32(e[15], e[14:10], e[9:0]);
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Narrowing: f32 -> f16 / f11 / f10 (round to nearest even)
  // ---------------------------------------------------------------------------------------------

  // Rounds the magnitude `mag` of a non-NaN f32 (infinity allowed) to a 5-bit-exponent float
  // with `man_w` (5, 6 or 10) mantissa bits, to nearest even, overflow to infinity. Returns
  // {exponent, mantissa} right-aligned: bits man_w+4:0 are the result, the bits above are 0.
  //
  // With E the f32's unbiased exponent (E = -126 for an f32 denormal, whose hidden bit is 0)
  // and sig its 24-bit significand, the result counted in units of its last place is
  //   E >= -14 (normal): ((E + 14) << man_w) + round(sig >> (23 - man_w))
  //   E <  -14 (denormal): round(sig >> (23 - man_w + (-14 - E)))
  // since (E + 14) << man_w plus the hidden one (1 << man_w) is the biased exponent E + 15. A
  // rounding carry out of the mantissa moves into the exponent, which is the correct result
  // (the largest denormal rounds up to the smallest normal, the largest finite to infinity).
  // E >= 16 (infinity included) is infinity; for E <= 15 the sum is at most infinity's code.
  function automatic logic [14:0] f32_mag_to_e5(logic [30:0] mag, logic [3:0] man_w);
    logic [7:0]  exp;        // f32 biased exponent
    logic [23:0] sig;        // f32 significand, hidden bit included
    logic [4:0]  base_exp;   // E + 14 for a normal result, else 0
    logic [7:0]  shift;      // right shift of sig to the result's last place (capped)
    logic [54:0] aligned;    // {sig, 40'b0} >> shift: integer part (< 2^11) in 54:40
    logic        round_bit;
    logic        sticky;
    logic [14:0] res;
    exp = mag[30:23];
    sig = {exp != 8'd0, mag[22:0]};
    base_exp  = '0;
    shift     = '0;
    aligned   = '0;
    round_bit = 1'b0;
    sticky    = 1'b0;
    res       = '0;
    if (exp >= 8'd143) begin
      // E >= 16: overflow (and infinity itself).
      res = {10'd0, E5ExpMax} << man_w;
    end else begin
      if (exp >= 8'd113) begin
        base_exp = 5'(exp - 8'd113);
        shift    = 8'd23 - {4'd0, man_w};
      end else begin
        // -14 - E = 113 - exp (exp = 0 counts as 1). Shifts of 25 and more leave nothing, so
        // 40 is as good as any larger value and keeps every dropped bit inside `aligned`.
        shift = 8'd23 - {4'd0, man_w} + 8'd113 - ((exp == 8'd0) ? 8'd1 : exp);
        if (shift > 8'd40) begin
          shift = 8'd40;
        end
      end
      aligned   = 55'({sig, 40'd0} >> shift);
      round_bit = aligned[39];
      sticky    = |aligned[38:0];
      res       = ({10'd0, base_exp} << man_w) + aligned[54:40] +
                  {14'd0, round_bit & (sticky | aligned[40])};
    end
    return res;
  endfunction

  // The magnitude bits of an f32 (its sign dropped) encode a NaN.
  function automatic logic is_nan_mag(logic [30:0] mag);
    return (mag[30:23] == F32ExpMax) && (mag[22:0] != '0);
  endfunction

  // f32 -> a float of a 5-bit exponent and `man_w` (5, 6 or 10) mantissa bits, {exponent,
  // mantissa} right-aligned in bits man_w+4:0 (the bits above are 0): a NaN keeps the top man_w
  // bits of its payload (1 when those are 0); an unsigned format (signed_fmt = 0: f11, f10) takes
  // a negative value as 0; any other value rounds as f32_mag_to_e5 does. A signed format's sign
  // bit (f16) is the caller's.
  function automatic logic [14:0] f32_to_e5(logic [31:0] f, logic [3:0] man_w, logic signed_fmt);
    logic [9:0]  payload;   // the payload's top man_w bits, right-aligned
    logic [14:0] h;
    payload = f[22:13] >> (4'd10 - man_w);
    if (is_nan_mag(f[30:0])) begin
      h = ({10'd0, E5ExpMax} << man_w) | {5'd0, (payload == '0) ? 10'd1 : payload};
    end else if (f[31] && !signed_fmt) begin
      h = '0;
    end else begin
      h = f32_mag_to_e5(f[30:0], man_w);
    end
    return h;
  endfunction

  function automatic logic [15:0] f32_to_f16(logic [31:0] f);
    return {f[31], f32_to_e5(f, 4'(E5ManW), 1'b1)};
  endfunction

  // f32 narrowed to the float field of width w (16: f16, 11: f11, 10: f10), right-aligned in 16
  // bits, through one f32_to_e5 whatever the width; 0 for any other width.
  function automatic logic [15:0] f32_to_small_float(logic [31:0] f, logic [5:0] w);
    logic [14:0] h;
    logic [3:0]  man_w;
    unique case (w)
      6'd16:   man_w = 4'(E5ManW);
      6'd11:   man_w = 4'(F11ManW);
      default: man_w = 4'(F10ManW);
    endcase
    h = f32_to_e5(f, man_w, w == 6'd16);
    unique case (w)
      6'd16:   return {f[31], h};
      6'd11:   return {5'd0, h[10:0]};
      6'd10:   return {6'd0, h[9:0]};
      default: return '0;
    endcase
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Normalized integers: unorm / snorm -> f32 (correctly rounded, docs/spec.md §5)
  // ---------------------------------------------------------------------------------------------

  // An f32 before its last rounding step. `trunc` is the result with its mantissa truncated and
  // `up` is 1 when rounding to nearest adds one unit in its last place; f32_round adds it. The
  // split lets a unit convert in one pipeline stage and round in the next.
  typedef struct packed {
    logic [31:0] trunc;
    logic        up;
  } f32_pre_t;

  localparam logic [31:0] F32One = 32'h3f80_0000;

  // A carry out of the mantissa moves into the exponent: the correctly rounded f32.
  function automatic logic [31:0] f32_round(f32_pre_t p);
    return p.trunc + {31'd0, p.up};
  endfunction

  // v / (2^w - 1) for w in {1, 2, 7, 8, 9, 10, 11, 15, 16}; v >= 2^w - 1 gives 1.0 (snorm passes
  // |s|, which may be 2^w).
  //
  // No divider: for 0 < v < 2^w - 1 the binary expansion of v / (2^w - 1) is the w-bit pattern
  // of v repeated for ever (0.vvvv...). Its leading one sits at 2^-(1 + lz), lz = v's leading
  // zeros in w bits; the 24 significant bits and the round bit are read from that stream. The
  // bits after the round bit are never all 0 (the pattern repeats and v != 0), so the value is
  // never a tie and never exact: round up exactly when the round bit is 1.
  function automatic f32_pre_t norm_quotient(logic [16:0] v, logic [4:0] w);
    logic [16:0] ones;     // 2^w - 1
    logic [63:0] stream;   // 0.vvvv... : bit 63 is the 2^-1 digit
    logic [3:0]  lz;       // leading zeros of v in w bits (the stream's, as v != 0)
    logic [23:0] top;      // bits 62:39 of stream << lz (whose leading one is at bit 63)
    f32_pre_t    r;
    ones   = (17'd1 << w) - 17'd1;
    stream = '0;
    lz     = '0;
    top    = '0;
    r      = '0;
    if (v == '0) begin
      r.trunc = '0;
    end else if (v >= ones) begin
      r.trunc = F32One;
    end else begin
      // At least lz + 25 <= 40 stream bits are needed.
      unique case (w)
        5'd2:    stream = {32{v[1:0]}};
        5'd7:    stream = 64'({10{v[6:0]}} >> 6);
        5'd8:    stream = {8{v[7:0]}};
        5'd9:    stream = 64'({8{v[8:0]}} >> 8);
        5'd10:   stream = 64'({7{v[9:0]}} >> 6);
        5'd11:   stream = 64'({6{v[10:0]}} >> 2);
        5'd15:   stream = 64'({5{v[14:0]}} >> 11);
        5'd16:   stream = {4{v[15:0]}};
        default: stream = '0;  // w = 1: v is 0 or >= ones, handled above
      endcase
      for (int i = 0; i < 16; i++) begin
        if (stream[48 + i]) begin
          lz = 4'(15 - i);
        end
      end
      top = 24'((stream << lz) >> 39);
      // Value 1.top[23:1] * 2^-(1 + lz): biased exponent 126 - lz; top[0] is the round bit.
      r.trunc = {1'b0, 8'd126 - {4'd0, lz}, top[23:1]};
      r.up    = top[0];
    end
    return r;
  endfunction

  // unorm (snorm = 0): the f32 nearest (ties to even) to v / (2^w - 1), v the field.
  // snorm (snorm = 1): max(s / (2^(w-1) - 1), -1.0) correctly rounded, s the field read as a
  // w-bit two's complement integer: the magnitude's quotient with w - 1 bits, then the sign
  // (|s| >= 2^(w-1) - 1 gives 1.0, so the most negative code gives -1.0).
  // `f` holds the field's w bits, zero above; w in {2, 8, 10, 11, 16}. One quotient serves both.
  function automatic f32_pre_t norm_to_f32(logic [15:0] f, logic [4:0] w, logic snorm);
    logic [16:0] mask;     // w low ones
    logic        sign;     // the field's top bit, for snorm
    logic [16:0] sext;     // the field sign-extended to 17 bits
    logic [16:0] mag;      // |s| <= 2^15
    f32_pre_t    r;
    mask = (17'd1 << w) - 17'd1;
    sign = snorm && |({1'b0, f} & ((17'd1 << w) >> 1));
    sext = sign ? ({1'b0, f} | ~mask) : {1'b0, f};
    mag  = sign ? -sext : sext;
    r    = norm_quotient(mag, snorm ? w - 5'd1 : w);
    r.trunc[31] = sign;  // mag != 0 whenever sign is 1
    return r;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Element formats (docs/spec.md §1.4)
  // ---------------------------------------------------------------------------------------------

  typedef enum logic [2:0] {
    NfmtUnorm    = 3'd0,
    NfmtSnorm    = 3'd1,
    NfmtUscaled  = 3'd2,
    NfmtSscaled  = 3'd3,
    NfmtUint     = 3'd4,
    NfmtSint     = 3'd5,
    NfmtReserved = 3'd6,   // never format_valid
    NfmtFloat    = 3'd7
  } nfmt_e;

  // One component field of an element.
  typedef struct packed {
    logic [5:0] width;     // bits: 0 (the format lacks the component), 2, 8, 10, 11, 16, 32
    logic [6:0] lsb;       // element bit that holds the field's bit 0
  } field_t;

  typedef field_t [3:0] fields_t;   // index k = component X, Y, Z, W

  // The fields of widths wx, wy, wz, ww (components X, Y, Z, W; 0: the format lacks it), each
  // next to the one before, X at element bit 0. An absent field is all 0 (lsb 0 too).
  function automatic fields_t adjacent_fields(logic [5:0] wx, logic [5:0] wy, logic [5:0] wz,
                                              logic [5:0] ww);
    logic [3:0][5:0] w;
    fields_t         f;
    logic [6:0]      lsb;
    w   = {ww, wz, wy, wx};
    f   = '0;
    lsb = '0;
    for (int k = 0; k < 4; k++) begin
      if (w[k] != '0) begin
        f[k] = '{width: w[k], lsb: lsb};
      end
      lsb = lsb + 7'(w[k]);
    end
    return f;
  endfunction

  // Field layout of each dfmt (SPEC §1.4's table, whose names list the fields from the most
  // significant; here the widths of X, Y, Z, W; docs/decisions.md lists them). dfmt 0 and 15
  // have no fields.
  function automatic fields_t fmt_layout(logic [3:0] dfmt);
    unique case (dfmt)
      4'd1:    return adjacent_fields( 8,  0,  0,  0);  // 8
      4'd2:    return adjacent_fields(16,  0,  0,  0);  // 16
      4'd3:    return adjacent_fields( 8,  8,  0,  0);  // 8_8
      4'd4:    return adjacent_fields(32,  0,  0,  0);  // 32
      4'd5:    return adjacent_fields(16, 16,  0,  0);  // 16_16
      4'd6:    return adjacent_fields(11, 11, 10,  0);  // 10_11_11
      4'd7:    return adjacent_fields(10, 11, 11,  0);  // 11_11_10
      4'd8:    return adjacent_fields( 2, 10, 10, 10);  // 10_10_10_2
      4'd9:    return adjacent_fields(10, 10, 10,  2);  // 2_10_10_10
      4'd10:   return adjacent_fields( 8,  8,  8,  8);  // 8_8_8_8
      4'd11:   return adjacent_fields(32, 32,  0,  0);  // 32_32
      4'd12:   return adjacent_fields(16, 16, 16, 16);  // 16_16_16_16
      4'd13:   return adjacent_fields(32, 32, 32,  0);  // 32_32_32
      4'd14:   return adjacent_fields(32, 32, 32, 32);  // 32_32_32_32
      default: return '0;                               // 0, 15
    endcase
  endfunction

  // The layouts of all sixteen dfmts, computed once at elaboration: a lookup by dfmt is a
  // constant table, not the layout's arithmetic at each use.
  function automatic fields_t [15:0] fmt_layouts();
    fields_t [15:0] t;
    for (int d = 0; d < 16; d++) begin
      t[d] = fmt_layout(4'(d));
    end
    return t;
  endfunction
  localparam fields_t [15:0] FmtLayouts = fmt_layouts();

  function automatic fields_t fmt_fields(logic [3:0] dfmt);
    return FmtLayouts[dfmt];
  endfunction

  function automatic logic [2:0] fmt_count(logic [3:0] dfmt);
    fields_t     f;
    logic [2:0]  n;
    f = fmt_fields(dfmt);
    n = '0;
    for (int k = 0; k < 4; k++) begin
      if (f[k].width != '0) begin
        n = n + 3'd1;
      end
    end
    return n;
  endfunction

  // SPEC §1.4: false for dfmt 0 and 15, for nfmt 6, and for float on a format with a field
  // that is not 32, 16, 11 or 10 bits wide (dfmt 1, 3, 8, 9, 10).
  function automatic logic fmt_valid(logic [3:0] dfmt, logic [2:0] nfmt);
    logic ok;
    ok = 1'b1;
    if ((dfmt == 4'd0) || (dfmt == 4'd15) || (nfmt_e'(nfmt) == NfmtReserved)) begin
      ok = 1'b0;
    end else if ((nfmt_e'(nfmt) == NfmtFloat) &&
                 ((dfmt == 4'd1) || (dfmt == 4'd3) || (dfmt == 4'd8) || (dfmt == 4'd9) ||
                  (dfmt == 4'd10))) begin
      ok = 1'b0;
    end
    return ok;
  endfunction

  // ---------------------------------------------------------------------------------------------
  // Unpack: a field as a component (docs/spec.md §5; format_unpack per component, the TD per
  // result dword)
  // ---------------------------------------------------------------------------------------------

// mutants: format_unpack
  // An integer magnitude below 2^17 as f32 (exact: at most 17 significant bits).
  function automatic logic [31:0] int_to_f32(logic sign, logic [16:0] mag);
    logic [4:0]  lead;
    logic [22:0] man;
    logic [31:0] f;
    lead = '0;
    man  = '0;
    f    = '0;
    if (mag != '0) begin
      for (int i = 0; i < 17; i++) begin
        if (mag[i]) begin
          lead = 5'(i);
        end
      end
      // Shifting the leading one to bit 23 drops it from the 23-bit mantissa.
      man = {6'd0, mag} << (5'd23 - lead);
      f   = {sign, 8'd127 + {3'd0, lead}, man};
    end
    return f;
  endfunction

  // One field of w bits as a component (docs/spec.md §5 "Unpack"): `f` holds the field's w bits,
  // zero above; w = 0 is an absent component (0). The result is the component before its last
  // rounding step (f32_round): raw, integer and float components are already final (`up` = 0).
  function automatic f32_pre_t unpack_component(logic [31:0] f, logic [5:0] w, nfmt_e nfmt);
    logic [31:0] mask;     // w low ones (w < 32)
    logic        sign;     // the field's top bit
    logic [31:0] sext;     // the field sign-extended
    logic [16:0] mag;      // |sext| for w <= 16 (at most 2^15)
    f32_pre_t    r;
    mask = (32'd1 << w) - 32'd1;
    sign = |(f & ((32'd1 << w) >> 1));
    sext = sign ? (f | ~mask) : f;
    mag  = 17'(sign ? -sext : sext);
    r    = '0;
    if (w == 6'd0) begin
      r = '0;
    end else if (w == 6'd32) begin
      r.trunc = f;
    end else begin
      // w <= 16 from here on: f[31:16] are 0. One quotient (norm_to_f32) and one integer
      // conversion serve both signednesses: sscaled converts |s| with the sign, uscaled f.
      unique case (nfmt)
        NfmtUnorm, NfmtSnorm: r = norm_to_f32(f[15:0], w[4:0], nfmt == NfmtSnorm);
        NfmtUscaled, NfmtSscaled: begin
          r.trunc = int_to_f32((nfmt == NfmtSscaled) && sign,
                               (nfmt == NfmtSscaled) ? mag : f[16:0]);
        end
        NfmtUint:    r.trunc = f;
        NfmtSint:    r.trunc = sext;
        NfmtFloat:   r.trunc = small_float_to_f32(f[15:0], w);  // 0 unless 16, 11, 10
        default:     r = '0;      // NfmtReserved: not format_valid
      endcase
    end
    return r;
  endfunction
// mutants: end

  // ---------------------------------------------------------------------------------------------
  // Pack: a component as a field (docs/spec.md §5; format_pack per component, the TA per store
  // beat)
  // ---------------------------------------------------------------------------------------------

// mutants: format_pack
  // One field after stage 1: field = neg ? -(pre + inc) : pre + inc, in its w low bits.
  typedef struct packed {
    logic [31:0] pre;
    logic        inc;
    logic        neg;
  } field_val_t;

  localparam logic [30:0] F32OneMag = 31'h3f80_0000;   // |1.0|
  localparam logic [7:0]  F32Exp16  = 8'd143;          // biased exponent of 2^16

  // round_half_even(|v| * (2^m - 1)) for 0 <= |v| < 1 (magnitude bits of an f32, exponent
  // <= 126) and m <= 16, as field_val_t (neg = 0). format_pack's header describes the method.
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

  // Stage 2 of one field of w bits: rounded (pre + inc), negated for negative snorm and sscaled
  // values, cut to its w bits (zero above).
  function automatic logic [31:0] pack_finish(field_val_t fv, logic [5:0] w);
    logic [31:0] rounded;
    rounded = fv.pre + {31'd0, fv.inc};
    return (fv.neg ? -rounded : rounded) & 32'((33'd1 << w) - 33'd1);
  endfunction
// mutants: end

endpackage : vmem_fp_pkg
