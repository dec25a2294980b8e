// Copyright gcn-vmem contributors.
//
// multi_texel: the result dwords of a multi-texel image load BY2/BY4/PCK2/PCK4 (and the _MIP
// forms) from the group's fetched texels.
//
// Parameters: none.
// Test hook: `VMEM_TEST_HOOK(multi_texel_brk), nothing in the design (rtl/vmem_prim_pkg.sv); the
//   break-asserts build puts rtl/test/multi_texel_brk.svh there, which makes each assertion below
//   fail just past its bound (tests/multi_texel.rs proves each one fires).
//
// Behaviour (docs/spec.md §4.3, §5 and docs/decisions.md "multi_texel"). op_i: 0 BY2, 1 BY4,
// 2 PCK2, 3 PCK4, so n = 2, 4, 2, 4. dfmt_i / nfmt_i are the T#'s 6-bit and 4-bit fields,
// compared at those full widths (dfmt 0x21 is not R8, nfmt 8 is not unorm).
//   illegal = (op, dmask, dfmt, nfmt) is not a row of §4.3's table:
//               BY2  dmask 0x3  R8 (dfmt 1), R16 (2)  unorm, snorm, uint, sint; R16 also float
//               BY2  dmask 0xF  RG8 (3)               unorm, snorm, uint, sint
//               BY4  dmask 0xF  R8                    unorm, snorm, uint, sint
//               PCK2 dmask 0x1  R8, R16, RG8          unorm, uint, sint
//               PCK4 dmask 0x1  R8                    unorm, uint, sint
//             Then result_o = 0 and result_count_o = 0.
//   result_count = popcount(dmask) of the row: BY2 R8/R16 2, BY2 RG8 4, BY4 R8 4, PCK 1.
//   texels_i holds the group's n * bpp bytes as fetched, texel t at bit 8 * bpp * t, so every
//   row's group lies in texels_i[31:0] (2 or 4 bytes); the bits above the group are ignored.
//   BY: the group's components in texel order, channels R, G within a texel (RG8 BY2: t0.R,
//     t0.G, t1.R, t1.G), go to result dwords 0 .. result_count - 1, each converted as
//     format_unpack converts a field of w = 8 or 16 bits (§5): unorm v / (2^w - 1) and snorm
//     max(s / (2^(w-1) - 1), -1.0) correctly rounded (vmem_fp_pkg's norm_to_f32), uint
//     zero-extended, sint sign-extended, float (R16) f16 widened exactly.
//   PCK: dword 0 = the group's raw bits, texel 0 in the least significant bits, zero above
//     (PCK2 R8: bits 31:16). §4.3 defines sint as truncated to its storage width and unorm as
//     round_half_even(v * (2^w - 1)) of its f32 v; for w = 8 and 16 both give back the stored
//     bits, so the dword is the texel bytes.
//   Result dwords at and above result_count are 0.
//   group_valid_i = 0 (and legal): result_o = 0, result_count_o as for a valid group.
//
// Latency: 2 cycles. Inputs sampled with valid_i = 1 at rising edge j reach the outputs at edge
//   j+1, with valid_o. A new input is accepted every cycle. Stage 1 (edge j) registers the row
//   decode (illegal, count) and each result dword before its last rounding step: PCK, integer
//   and float dwords final, unorm/snorm ones as the f32 with a truncated mantissa plus a
//   round-up bit; stage 2 (edge j+1) registers the rounded dwords. Valid flops load every
//   cycle; data flops of a stage load only when that stage's incoming valid is 1, else hold.
//   rst_ni (asynchronous, active low) clears every valid and data flop, outputs included.
//
// Model: rust/multi_texel.rs  Tests: tests/multi_texel.rs  Spec: docs/spec.md §4.3, §5

module multi_texel
  import vmem_pkg::*;
  import vmem_fp_pkg::*;
(
  `VMEM_UNIT_CLOCKING,  // clk_i, rst_ni, valid_i
  input  logic [1:0]   op_i,            // 0 BY2, 1 BY4, 2 PCK2, 3 PCK4
  input  logic [3:0]   dmask_i,
  input  logic [5:0]   dfmt_i,          // T# dfmt (SPEC §1.2), full width
  input  logic [3:0]   nfmt_i,          // T# nfmt (SPEC §1.2), full width
  input  logic         group_valid_i,   // from image_addr: the group passed its bounds checks
  input  logic [63:0]  texels_i,        // the group's bytes, texel t at bit 8 * bpp * t
  output logic         valid_o,
  output logic [127:0] result_o,        // dword i at 32i+31:32i
  output logic [2:0]   result_count_o,
  output logic         illegal_o
);

  // Widths local to this unit.
  localparam int unsigned GroupW = 32;   // bits of the largest group, n * bpp * 8 (§4.3 rows)
  localparam int unsigned CompW  = 16;   // widest component (R16)

  // Codes of §1.2, §4.3 and docs/decisions.md this unit decides on.
  localparam logic [TsDfmtW-1:0] DfmtR8  = 6'd1;
  localparam logic [TsDfmtW-1:0] DfmtR16 = 6'd2;

  // One BY component: `f` holds the field's w bits (w = 16 when `wide`, else 8), zero above.
  // The result is the dword before its last rounding step (f32_round, stage 2).
  function automatic f32_pre_t by_component(logic [CompW-1:0] f, logic wide, nfmt_e nfmt);
    logic [4:0] w;
    f32_pre_t   r;
    w = wide ? 5'd16 : 5'd8;
    r = '0;
    unique case (nfmt)
      NfmtUnorm, NfmtSnorm: r = norm_to_f32(f, w, nfmt == NfmtSnorm);
      NfmtUint:  r.trunc = {16'd0, f};
      NfmtSint:  r.trunc = wide ? {{16{f[15]}}, f} : {{24{f[7]}}, f[7:0]};
      NfmtFloat: r.trunc = f16_to_f32(f);  // R16 only (§4.3)
      default:   r = '0;                   // no BY row has this nfmt
    endcase
    return r;
  endfunction

  // Stage 1 register.
  typedef struct packed {
    f32_pre_t [3:0] dword;
    logic [2:0]     count;
    logic           illegal;
  } stage1_t;

  // Stage 2 (output) register: the outputs after valid_o, in port order.
  typedef struct packed {
    dwords_t dwords;    // result, result_count
    logic    illegal;
  } stage2_t;

  logic    valid_q;
  stage1_t s1_d, s1_q;
  stage2_t s2_d, s2_q2;

  // No row's group is wider than 4 bytes (n * bpp = 2 * 2, 2 * 2, 4 * 1, 2 * 1), so the upper
  // half of the port never holds texel bits.
  logic unused_texels;
  assign unused_texels = ^texels_i[63:GroupW];

  ///////////////////////////////////////////
  // Stage 1: the combination table (§4.3) //
  ///////////////////////////////////////////

  mt_op_e     op;
  logic       is_r8;
  logic       is_r16;
  nfmt_e      nfmt;       // nfmt_i[2:0]; only meaningful with nfmt_i[3] = 0
  logic       pck;        // PCK op: one raw dword
  logic       pck_half;   // PCK2 R8: the group is 16 bits
  logic       row_ok;     // (op, dmask, dfmt, nfmt) is a row of the table
  logic [2:0] count;

  always_comb begin
    op     = mt_op_e'(op_i);
    is_r8  = dfmt_i == DfmtR8;
    is_r16 = dfmt_i == DfmtR16;

    nfmt     = nfmt_e'(nfmt_i[2:0]);

    pck    = (op == MtOpPck2) || (op == MtOpPck4);
    row_ok = mt_row_ok(op, dmask_i, dfmt_i, nfmt_i);
    pck_half = (op == MtOpPck2) && is_r8;

    // DMASK is the number of result dwords (§4.3), fixed per row.
    count = row_ok ? 3'($countones(dmask_i)) : 3'd0;
  end

  //////////////////////////////////////////////
  // Stage 1: BY conversion, PCK packing (§5) //
  //////////////////////////////////////////////

  logic [GroupW-1:0] group;       // the group's bits
  logic [CompW-1:0]  comp [4];    // BY component j, zero-extended
  f32_pre_t [3:0]    dword;

  always_comb begin
    group = texels_i[GroupW-1:0];
    for (int j = 0; j < 4; j++) begin
      // The formats of the table have equal-width, adjacent fields, so component j of the
      // group (texel order, channel order within a texel) is bits w*j upward.
      comp[j] = is_r16 ? CompW'(group >> (16 * j)) : {8'd0, 8'(group >> (8 * j))};

      dword[j] = '0;
      if (row_ok && group_valid_i && (j < int'(count))) begin
        if (pck) begin
          dword[j].trunc = pck_half ? {16'd0, group[15:0]} : group;   // j = 0 only
        end else begin
          dword[j] = by_component(comp[j], is_r16, nfmt);
        end
      end
    end

    s1_d.dword   = dword;
    s1_d.count   = count;
    s1_d.illegal = !row_ok;
  end

  ///////////////////////
  // Stage 2: rounding //
  ///////////////////////

  logic [127:0] result;

  always_comb begin
    for (int i = 0; i < 4; i++) begin
      result[32*i +: 32] = f32_round(s1_q.dword[i]);
    end

    s2_d.dwords.result = result;
    s2_d.dwords.count  = s1_q.count;
    s2_d.illegal       = s1_q.illegal;
    `VMEM_TEST_HOOK(multi_texel_brk)  // test builds only (see the contract above)
  end

  ///////////////
  // Registers //
  ///////////////

  `VMEM_UNIT_STAGES(valid_q, s1_q, s1_d, s2_q2, s2_d, {result_o, result_count_o, illegal_o})

  ////////////////
  // Assertions //
  ////////////////

// Reset drives every output to a value these properties accept; they are disabled while rst_ni
// is low anyway (vmem_prim_pkg.sv).

// An illegal combination writes nothing (decisions "multi_texel").
`VMEM_ASSERT(IllegalZero_A, illegal_o |-> ((result_count_o == 3'd0) && (result_o == '0)))
// A legal row has 1, 2 or 4 result dwords (§4.3's DMASKs 0x1, 0x3, 0xF). (After reset and
// before the first result the outputs are 0 with valid_o = 0.)
`VMEM_ASSERT(CountRow_A, (valid_o && !illegal_o) |-> (result_count_o inside {3'd1, 3'd2, 3'd4}))
// Result dwords at and above result_count are 0 (dword 0 at count 0: IllegalZero_A): one
// assertion per dword, so that each is proven to fire at its own edge (result_count = i).
`VMEM_ASSERT(AboveCountZero1_A, (result_count_o <= 3'd1) |-> (result_o[63:32] == '0))
`VMEM_ASSERT(AboveCountZero2_A, (result_count_o <= 3'd2) |-> (result_o[95:64] == '0))
`VMEM_ASSERT(AboveCountZero3_A, (result_count_o <= 3'd3) |-> (result_o[127:96] == '0))

endmodule : multi_texel
