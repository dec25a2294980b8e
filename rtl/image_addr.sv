`ifndef VMEM_IMAGE_ADDR_SV  // included by the blocks that instantiate it (see rtl/vmem_pipe.sv)
`define VMEM_IMAGE_ADDR_SV
// Copyright gcn-vmem contributors.
//
// image_addr: one lane of an image access without a sampler: the multi-texel loads BY2/BY4/PCK2/
// PCK4 (and their _MIP forms) and every access of one element (IMAGE_LOAD and its PCK forms,
// IMAGE_STORE, IMAGE_ATOMIC_*, and their _MIP forms), on linear and tiled surfaces: mip level,
// level dimensions, aligned group, bounds verdict and texel address.
//
// Parameters: none.
// Test hook: `VMEM_TEST_HOOK(image_addr_brk_s1) and `VMEM_TEST_HOOK(image_addr_brk), nothing in
//   the design (rtl/vmem_prim_pkg.sv); the break-asserts build puts rtl/test/image_addr_brk_s1.svh
//   (the stage-1 register input) and rtl/test/image_addr_brk.svh (the stage-2 register input)
//   there, which make each assertion below fail on some input (tests/image_addr.rs proves each
//   one fires).
//
// Behaviour (docs/spec.md §1.2, §4.1-§4.5 and docs/decisions.md "image_addr"). The address VGPRs
// are decoded by the executor: x_i, y_i, slice_i, mipid_i arrive as unsigned integers (A16
// zero-extended; slice_i = 0 when DA = 0).
// op_i: 0 BY2, 1 BY4, 2 PCK2, 3 PCK4, 4 element, 5-7 reserved; n = 2, 4, 2, 4, then 1.
//   bound    = T# dfmt != 0 and T# type >= 8. bpp = §1.4 element bytes of dfmt (0 outside 1..14).
//   tiled    = sw_mode (T# 120:116) is 1, 5 or 9 (256B_S, 4KB_S, 64KB_S; K = 8, 12, 16).
//   mode_ok  = sw_mode is 0, or tiled with type 9 (2D) or 13 (2D array) and bpp 1, 2, 4, 8 or 16.
//   illegal  = bound and (op >= 5, or not mode_ok, or op <= 3 and not (type == 9, d16 = tfe =
//              da = 0, and (op, dmask, dfmt, nfmt) a row of §4.3's table)):
//                BY2  dmask 0x3  R8 (dfmt 1), R16 (2)  unorm, snorm, uint, sint; R16 also float
//                BY2  dmask 0xF  RG8 (3)               unorm, snorm, uint, sint
//                BY4  dmask 0xF  R8                    unorm, snorm, uint, sint
//                PCK2 dmask 0x1  R8, R16, RG8          unorm, uint, sint
//                PCK4 dmask 0x1  R8                    unorm, uint, sint
//              dfmt (6 bits) and nfmt (4 bits) are compared at the T#'s full field widths. For
//              op 4, dmask_i, d16_i, tfe_i and da_i are not read (the executor checks them).
//   L        = base_level + (mip_i ? mipid_i : 0), exact (33 bits).
//   level_ok = L <= last_level and (r128_i or L <= max_mip); level_o = level_ok ? L : 0.
//   Level l's dimensions (every type): width_l = max(1, (width_field + 1) >> l); height_l = 1
//              for types 8, 12 (1D, 1D array), else max(1, (height_field + 1) >> l); pitch_l =
//              max(1, (pitch_field + 1) >> l), or width_l for a 128-bit T# (r128_i = 1,
//              tsharp_hi_i unused); layers_l with d = depth_field + 1 (1 for a 128-bit T#): 3D
//              max(1, d >> l), arrays (12, 13, 15) d, cube 6d, any other type 1. width_o ..
//              pitch_o are level L's, all 0 when not level_ok.
//   xa_o     = x_i & ~(n - 1) (op >= 4: x_i).
//   s        = slice_i for op >= 4, 0 for ops 0-3.
//   group_valid = bound and not illegal and level_ok and x + n <= width_L (exact) and
//              y < height_L and s < layers_L (op 4: x < width_L, as n = 1).
//   address_o = texel (xa, y, s) of level L, mod 2^48, 0 when not level_ok; computed whatever
//              bound, illegal and the bounds verdict say.
//     linear (sw_mode 0, or not mode_ok): base*256 + mip_offset(L) + ((s*height_L + y)*pitch_L
//              + xa)*bpp, mip_offset(L) = sum over l < L of pitch_l*height_l*layers_l*bpp.
//     tiled (tiled and mode_ok): blocks of 2^K bytes, bw x bh texels (§4.5); P_l = ceil(pitch_l /
//              bw), R_l = ceil(height_l / bh): base*256 + (mip_offset(L) + (s*R_L + y/bh)*P_L +
//              xa/bw)*2^K + within(xa mod bw, y mod bh), mip_offset(L) = sum over l < L of
//              P_l*R_l*layers_l (in blocks).
//   T# fields not named above (min_lod, dst_sel, reserved) are ignored.
//
// One datapath for both layouts: the linear layout is the tiled one with 1 x 1 blocks of bpp
//   bytes. cols_l = ceil(pitch_l / 2^bw_log) and rows_l = ceil(height_l / 2^bh_log) (bw_log =
//   bh_log = 0 when linear, so cols_l = pitch_l, rows_l = height_l) are elements or blocks,
//   and the byte scale of the index is a shift (bpp: 0..4, or x12 = x8 + x4; tiled: K).
//   ceil((v >> l) / 2^b) needs no shifter per level: (v >> b) is shifted once and then by the
//   constant l (wiring); the round-up is the OR of the b bits v[l+b-1:l] (an AND with one mask),
//   and max(1, ..) joins the same increment (a zero quotient with no round-up bit becomes 1).
//
// mip_offset in hardware: every level's operands are the level-0 ones shifted by a constant l,
//   so the products shrink with l. area_l = cols_l * rows_l is a (17 - l) x (15 - l) bit product,
//   exact in 31 - 2l bits (15 of them, levels 0..14; the mask l < L is applied to each).
//   Not 3D, every level has layers_L layers: stage 1 sums area_l (below 2^31) and stage 2
//   multiplies by layers_L (16 bits) once. 3D (linear only) has max(1, d >> l) layers at level l:
//   sum of area_l * (d >> l) = sum over k of d[k] * G_k with G_k = 2 G_(k-1) + area_k, a Horner
//   chain over the levels in carry-save form (one full adder deep a level, 13 levels) whose 14
//   values the depth's bits select (28 operands), plus area_l once for the levels where
//   d >> l = 0. This replaces 13 per-level (31 - 2l) x (14 - l) products (about 2,300 partial
//   product bits) by about 500 full adders and 500 selected bits in the same adder tree as the
//   2D sum. The whole mip sum is exact in 44 bits.
// Latency: 2 cycles. Inputs sampled with valid_i = 1 at rising edge j reach the outputs at edge
//   j+1, with valid_o. A new input is accepted every cycle. Stage 1 (edge j) registers the
//   decode, level, dimensions, xa, group_valid, illegal, the mip sum, the row index s*rows_L +
//   (y >> bh_log), cols_L, xa >> bw_log and the within-block offset; stage 2 (edge j+1)
//   registers the 48-bit address (layers times the mip sum, row times cols_L, the byte scale,
//   base). Valid flops load every cycle; data flops of a stage load only when that stage's
//   incoming valid is 1, else hold. rst_ni (asynchronous, active low) clears every valid and data
//   flop, outputs included.
//
// Model: rust/image_addr.rs  Tests: tests/image_addr.rs  Spec: docs/spec.md §4

module image_addr
  import vmem_pkg::*;
(
  `VMEM_UNIT_CLOCKING,  // clk_i, rst_ni, valid_i
  input  logic [127:0] tsharp_lo_i,     // T# bits 127:0 (SPEC §1.2)
  input  logic [127:0] tsharp_hi_i,     // T# bits 255:128; read only when r128_i = 0
  input  logic         r128_i,          // 1: 128-bit T#
  input  logic [2:0]   op_i,            // 0 BY2, 1 BY4, 2 PCK2, 3 PCK4, 4 element, 5-7 reserved
  input  logic         mip_i,           // 1: _MIP form (mipid_i is used)
  input  logic [3:0]   dmask_i,         // ops 0-3 only
  input  logic         d16_i,           // ops 0-3 only
  input  logic         tfe_i,           // ops 0-3 only
  input  logic         da_i,            // ops 0-3 only
  input  logic [31:0]  x_i,
  input  logic [31:0]  y_i,
  input  logic [31:0]  slice_i,         // op >= 4 only (layer, 3D z, cube face_id)
  input  logic [31:0]  mipid_i,
  output logic         valid_o,
  output logic         level_ok_o,
  output logic [3:0]   level_o,
  output logic [14:0]  width_o,
  output logic [14:0]  height_o,
  output logic [15:0]  layers_o,
  output logic [16:0]  pitch_o,
  output logic [31:0]  xa_o,
  output logic         group_valid_o,
  output logic [47:0]  address_o,
  output logic         illegal_o
);

  // Widths local to this unit.
  localparam int unsigned CoordW    = 32;               // x, y, slice, mipid
  localparam int unsigned LevelW    = 4;                // an existing level is <= last_level
  localparam int unsigned NumLevels = 1 << LevelW;      // levels 0..15
  localparam int unsigned DimW      = TsWidthW + 1;     // width, height: 1..16384
  localparam int unsigned PitchW    = TsPitchW + 1;     // pitch: 1..65536
  localparam int unsigned DepthW    = TsDepthW + 1;     // d = depth + 1: 1..8192
  localparam int unsigned LayersW   = 16;               // layers: 1..6 * 8192 = 49152
  localparam int unsigned MipSumW   = 44;               // mip_offset in elements/blocks (below)
  localparam int unsigned MipSum2dW = 31;               // the same sum when not 3D (below)
  localparam int unsigned MipW      = MipSum2dW + LayersW;  // layers_L * a 2D sum: 47 bits
  localparam int unsigned RowW      = CoordW + DimW;    // s * rows_L + (y >> bh_log) < 2^47
  localparam int unsigned LogW      = 4;                // log2 of bw, bh: 0 (linear), 2..8
  localparam int unsigned MicroW    = 8;                // the 256-byte micro-block's bits
  localparam int unsigned BlockW    = 16;               // within-block offset: K <= 16 bits
  localparam int unsigned RoundW    = 8;                // round-up window: b <= 8 bits

  // Codes of §1.2, §1.4, §4.5 and docs/decisions.md this unit decides on.
  localparam logic [TsDfmtW-1:0]   DfmtInvalid6  = 6'd0;   // unbound T#
  localparam logic [TsTypeW-1:0]   TypeFirst     = 4'd8;   // 1D; types below are unbound
  localparam logic [TsTypeW-1:0]   Type1d        = 4'd8;
  localparam logic [TsTypeW-1:0]   Type2d        = 4'd9;
  localparam logic [TsTypeW-1:0]   Type3d        = 4'd10;
  localparam logic [TsTypeW-1:0]   TypeCube      = 4'd11;
  localparam logic [TsTypeW-1:0]   Type1dArray   = 4'd12;
  localparam logic [TsTypeW-1:0]   Type2dArray   = 4'd13;
  localparam logic [TsTypeW-1:0]   Type2dMsaaArr = 4'd15;
  localparam logic [TsSwModeW-1:0] SwLinear      = 5'd0;
  localparam logic [TsSwModeW-1:0] Sw256B        = 5'd1;   // 256B_S, K = 8
  localparam logic [TsSwModeW-1:0] Sw4K          = 5'd5;   // 4KB_S, K = 12
  localparam logic [TsSwModeW-1:0] Sw64K         = 5'd9;   // 64KB_S, K = 16
  localparam logic [2:0]           OpElement     = 3'd4;   // ops 0-3: mt_op_e

  // The byte scale of the element/block index (stage 2): linear << log2(bpp), x12, 0; tiled << K.
  typedef enum logic [3:0] {
    ScaleB1, ScaleB2, ScaleB4, ScaleB8, ScaleB16,  // linear, bpp 1..16: << 0..4 (codes 0..4)
    ScaleB12,                                      // linear, bpp 12: << 3 plus << 2
    ScaleZero,                                     // linear, bpp 0 (dfmt outside 1..14)
    ScaleK8, ScaleK12, ScaleK16                    // tiled: << K
  } scale_e;

  // The outputs final after stage 1 (level_ok_o .. group_valid_o, in port order); stage 2 passes
  // them on.
  typedef struct packed {
    logic               level_ok;
    logic [LevelW-1:0]  level;
    logic [DimW-1:0]    width;
    logic [DimW-1:0]    height;
    logic [LayersW-1:0] layers;
    logic [PitchW-1:0]  pitch;
    logic [CoordW-1:0]  xa;
    logic               group_valid;
  } level_t;

  // Stage 1 register: the final flags and dimensions, and the address terms stage 2 needs.
  typedef struct packed {
    level_t             lvl;
    logic               illegal;
    logic               is3d;         // mip_sum already counts layers (and can reach 2^31)
    logic [MipSumW-1:0] mip_sum;      // sum of vol_l, l < L (elements or blocks, see above)
    logic [RowW-1:0]    row;          // s * rows_L + (y >> bh_log)
    logic [PitchW-1:0]  cols;         // cols_L: pitch_L, or P_L blocks
    logic [CoordW-1:0]  col;          // xa >> bw_log
    logic [BlockW-1:0]  in_block;       // byte offset in the block (tiled), else 0
    scale_e             scale;
    logic [TsBaseW-1:0] base;         // units of 256 bytes
  } stage1_t;

  // Stage 2 (output) register: the outputs after valid_o, in port order.
  typedef struct packed {
    level_t             lvl;
    logic [AddrW-1:0]   address;
    logic               illegal;
  } stage2_t;

  logic    valid_q;
  stage1_t s1_d, s1_q;
  stage2_t s2_d, s2_q2;

  ///////////////////////////////
  // Stage 1: T# decode (§1.2) //
  ///////////////////////////////

  logic [TsBaseW-1:0]      ts_base;
  logic [TsDfmtW-1:0]      ts_dfmt;
  logic [TsNfmtW-1:0]      ts_nfmt;
  logic [TsWidthW-1:0]     ts_width;        // width - 1
  logic [TsHeightW-1:0]    ts_height;       // height - 1
  logic [TsBaseLevelW-1:0] ts_base_level;
  logic [TsLastLevelW-1:0] ts_last_level;
  logic [TsSwModeW-1:0]    ts_sw_mode;
  logic [TsTypeW-1:0]      ts_type;
  logic [TsDepthW-1:0]     ts_depth;        // depth - 1, 256-bit form
  logic [TsPitchW-1:0]     ts_pitch;        // pitch - 1, 256-bit form
  logic [TsMaxMipW-1:0]    ts_max_mip;      // 256-bit form

  assign ts_base       = tsharp_lo_i[TsBaseLsb      +: TsBaseW];
  assign ts_dfmt       = tsharp_lo_i[TsDfmtLsb      +: TsDfmtW];
  assign ts_nfmt       = tsharp_lo_i[TsNfmtLsb      +: TsNfmtW];
  assign ts_width      = tsharp_lo_i[TsWidthLsb     +: TsWidthW];
  assign ts_height     = tsharp_lo_i[TsHeightLsb    +: TsHeightW];
  assign ts_base_level = tsharp_lo_i[TsBaseLevelLsb +: TsBaseLevelW];
  assign ts_last_level = tsharp_lo_i[TsLastLevelLsb +: TsLastLevelW];
  assign ts_sw_mode    = tsharp_lo_i[TsSwModeLsb    +: TsSwModeW];
  assign ts_type       = tsharp_lo_i[TsTypeLsb      +: TsTypeW];
  assign ts_depth      = tsharp_hi_i[TsDepthLsb  - TsHiLsb +: TsDepthW];
  assign ts_pitch      = tsharp_hi_i[TsPitchLsb  - TsHiLsb +: TsPitchW];
  assign ts_max_mip    = tsharp_hi_i[TsMaxMipLsb - TsHiLsb +: TsMaxMipW];

  // T# fields with no effect on an integer-coordinate access (§1.2, §4.3: no sampler, so no
  // min_lod; dst_sel is the swizzle unit's), and the T#'s unassigned bits.
  logic unused_inputs;
  assign unused_inputs = ^{tsharp_lo_i[TsMinLodLsb +: TsMinLodW],
                           tsharp_lo_i[63:62],                          // reserved
                           tsharp_lo_i[95:92],                          // reserved
                           tsharp_lo_i[TsDstSelLsb +: TsDstSelW],
                           tsharp_lo_i[123:121],                        // reserved
                           tsharp_hi_i[187-128:157-128],                // T# 187:157, reserved
                           tsharp_hi_i[255-128:192-128]};               // T# 255:192, reserved

  ///////////////////////////////////////////////////////////////////
  // Stage 1: binding, layout and the combination table (§4.3-§4.5) //
  ///////////////////////////////////////////////////////////////////

  logic            element;      // op >= 4: one element (op 4), or reserved (5-7)
  logic [2:0]      group_n;      // n: 2, 4 (ops 0-3) or 1
  logic            bound;
  logic            row_ok;       // (op, dmask, dfmt, nfmt) is a row of the table
  logic            mode_ok;
  logic            tiled;        // the tiled layout: a tiled sw_mode and mode_ok
  logic            is1d;
  logic            is3d;
  logic            illegal;
  logic            bpp_zero;     // dfmt outside 1..14
  logic            bpp12;        // 12 bytes (dfmt 13): linear only
  logic [2:0]      bpp_log;      // log2(bpp) for bpp 1, 2, 4, 8, 16; 3 for 12
  logic [2:0]      micro_w;      // log2 of the micro-block's width, height (§4.5's table)
  logic [2:0]      micro_h;
  logic [2:0]      macro_bits;   // (K - 8) / 2: x and y bits above the micro-block
  logic [LogW-1:0] bw_log;       // log2(bw), log2(bh); 0 when linear
  logic [LogW-1:0] bh_log;
  scale_e          scale;

  always_comb begin
    element = op_i[2];
    group_n = 3'd1;
    if (!element) begin
      unique case (mt_op_e'(op_i[1:0]))
        MtOpBy4, MtOpPck4: group_n = 3'd4;
        default:           group_n = 3'd2;
      endcase
    end
    bound  = (ts_dfmt != DfmtInvalid6) && (ts_type >= TypeFirst);
    is1d   = (ts_type == Type1d) || (ts_type == Type1dArray);
    is3d   = ts_type == Type3d;
    row_ok = mt_row_ok(mt_op_e'(op_i[1:0]), dmask_i, ts_dfmt, ts_nfmt);

    // Element bytes of §1.4 as a shift: 0 for a dfmt outside 1..14, 12 = 8 + 4.
    bpp_zero = 1'b0;
    bpp12    = 1'b0;
    bpp_log  = 3'd0;
    unique case (ts_dfmt)
      6'd1:                                       bpp_log = 3'd0;
      6'd2, 6'd3:                                 bpp_log = 3'd1;
      6'd4, 6'd5, 6'd6, 6'd7, 6'd8, 6'd9, 6'd10:  bpp_log = 3'd2;
      6'd11, 6'd12:                               bpp_log = 3'd3;
      6'd13:                                      begin bpp_log = 3'd3; bpp12 = 1'b1; end
      6'd14:                                      bpp_log = 3'd4;
      default:                                    bpp_zero = 1'b1;
    endcase

    // §4.5: the tiled modes need 2D or 2D array and a power-of-two element.
    unique case (ts_sw_mode)
      Sw4K:    macro_bits = 3'd2;
      Sw64K:   macro_bits = 3'd4;
      default: macro_bits = 3'd0;  // Sw256B; the others are linear
    endcase
    tiled   = ((ts_sw_mode == Sw256B) || (ts_sw_mode == Sw4K) || (ts_sw_mode == Sw64K)) &&
              ((ts_type == Type2d) || (ts_type == Type2dArray)) && !bpp_zero && !bpp12;
    mode_ok = (ts_sw_mode == SwLinear) || tiled;

    illegal = bound && ((op_i > OpElement) || !mode_ok ||
                        (!element && !((ts_type == Type2d) && row_ok && !d16_i && !tfe_i && !da_i)));

    // The micro-block of §4.5's table, w x h = 2^micro_w x 2^micro_h texels by element size.
    unique case (bpp_log)
      3'd0:    begin micro_w = 3'd4; micro_h = 3'd4; end   // 16 x 16
      3'd1:    begin micro_w = 3'd4; micro_h = 3'd3; end   // 16 x 8
      3'd2:    begin micro_w = 3'd3; micro_h = 3'd3; end   // 8 x 8
      3'd3:    begin micro_w = 3'd3; micro_h = 3'd2; end   // 8 x 4
      default: begin micro_w = 3'd2; micro_h = 3'd2; end   // 16 bytes: 4 x 4
    endcase
    bw_log = tiled ? LogW'(micro_w) + LogW'(macro_bits) : '0;
    bh_log = tiled ? LogW'(micro_h) + LogW'(macro_bits) : '0;

    scale = ScaleZero;
    if (tiled) begin
      unique case (macro_bits)
        3'd0:    scale = ScaleK8;
        3'd2:    scale = ScaleK12;
        default: scale = ScaleK16;
      endcase
    end else if (bpp12) begin
      scale = ScaleB12;
    end else if (!bpp_zero) begin
      scale = scale_e'(bpp_log);  // ScaleB1 .. ScaleB16
    end
  end

  //////////////////////////////////////////////////
  // Stage 1: level, dimensions and group (§4.2-4) //
  //////////////////////////////////////////////////

  logic                level_hi;   // mipid >= 16: L > 15 >= last_level
  logic [LevelW:0]     level_lo;   // base_level + mipid[3:0], exact
  logic                level_ok;
  logic [LevelW-1:0]   level;      // L when level_ok, else 0
  logic [DimW-1:0]     width0;     // level-0 dimensions
  logic [DimW-1:0]     height0;    // 1D: 1
  logic [PitchW-1:0]   pitch0;     // 128-bit T#: width0
  logic [DepthW-1:0]   depth0;     // d; 128-bit T#: 1
  logic [LayersW-1:0]  layers0;    // every level's layers, but 3D's
  logic [DepthW-1:0]   depth_lvl;  // d >> L
  logic [DimW-1:0]     width;      // level-L dimensions, 0 when not level_ok
  logic [DimW-1:0]     height;
  logic [LayersW-1:0]  layers;
  logic [PitchW-1:0]   pitch;
  logic [CoordW-1:0]   xa;
  logic [CoordW-1:0]   slice;      // s: 0 for ops 0-3
  logic                in_x, in_y, in_s;
  logic                group_valid;

  always_comb begin
    // L = base_level + mipid compared with 4-bit fields: mipid[31:4] != 0 puts L above them.
    level_hi = mip_i && (mipid_i[CoordW-1:LevelW] != '0);
    level_lo = {1'b0, ts_base_level} + (mip_i ? {1'b0, mipid_i[LevelW-1:0]} : '0);
    level_ok = !level_hi && (level_lo <= {1'b0, ts_last_level}) &&
               (r128_i || (level_lo <= {1'b0, ts_max_mip}));
    level    = level_ok ? level_lo[LevelW-1:0] : '0;

    width0  = {1'b0, ts_width} + DimW'(1);
    height0 = is1d ? DimW'(1) : {1'b0, ts_height} + DimW'(1);
    pitch0  = r128_i ? {{(PitchW-DimW){1'b0}}, width0} : {1'b0, ts_pitch} + PitchW'(1);
    depth0  = r128_i ? DepthW'(1) : {1'b0, ts_depth} + DepthW'(1);
    unique case (ts_type)
      TypeCube:                                layers0 = LayersW'({depth0, 2'b0}) +
                                                         LayersW'({depth0, 1'b0});  // 6d
      Type1dArray, Type2dArray, Type2dMsaaArr: layers0 = LayersW'(depth0);
      default:                                 layers0 = LayersW'(1);
    endcase

    // max(1, dimension >> L) (§4.2).
    depth_lvl = depth0 >> level;
    width  = ((width0 >> level) == '0) ? DimW'(1) : (width0 >> level);
    height = ((height0 >> level) == '0) ? DimW'(1) : (height0 >> level);
    pitch  = ((pitch0 >> level) == '0) ? PitchW'(1) : (pitch0 >> level);
    layers = layers0;
    if (is3d) begin
      layers = (depth_lvl == '0) ? LayersW'(1) : LayersW'(depth_lvl);
    end
    if (!level_ok) begin
      width  = '0;
      height = '0;
      layers = '0;
      pitch  = '0;
    end

    xa    = x_i & ~{{(CoordW-3){1'b0}}, group_n - 3'd1};
    slice = element ? slice_i : '0;

    // x + n <= width, y < height, s < layers, exact: the dimensions are below 2^15 (2^16 for
    // layers), so a coordinate with a bit at or above that is out.
    in_x = (x_i[CoordW-1:DimW] == '0) &&
           (({1'b0, x_i[DimW-1:0]} + (DimW+1)'(group_n)) <= {1'b0, width});
    in_y = (y_i[CoordW-1:DimW] == '0) && (y_i[DimW-1:0] < height);
    in_s = (slice[CoordW-1:LayersW] == '0) && (slice[LayersW-1:0] < layers);
    group_valid = bound && !illegal && level_ok && in_x && in_y && in_s;
  end

  ///////////////////////////////////////////////////////////////
  // Stage 1: columns, rows and the within-block offset (§4.5) //
  ///////////////////////////////////////////////////////////////

  // cols_l = ceil(max(1, pitch0 >> l) / 2^bw_log) = q + (round-up or q == 0), q = (pitch0 >>
  // bw_log) >> l, round-up = OR of pitch0[l + bw_log - 1 : l]; rows_l likewise (see the top).
  logic [PitchW-1:0]          pitch_blk;   // pitch0 >> bw_log
  logic [DimW-1:0]            height_blk;  // height0 >> bh_log
  logic [RoundW-1:0]          round_w;     // the low bw_log bits
  logic [RoundW-1:0]          round_h;
  logic [PitchW+RoundW-1:0]   pitch0_ext;  // pitch0, zeros above: the round-up windows
  logic [DimW+RoundW-1:0]     height0_ext;
  logic [DepthW:0]            depth0_ext;  // d, a zero above: level 14's d >> l

  always_comb begin
    pitch_blk   = pitch0 >> bw_log;
    height_blk  = height0 >> bh_log;
    round_w     = ~(RoundW'('1) << bw_log);
    round_h     = ~(RoundW'('1) << bh_log);
    pitch0_ext  = {{RoundW{1'b0}}, pitch0};
    height0_ext = {{RoundW{1'b0}}, height0};
    depth0_ext  = {1'b0, depth0};
  end

  // Level L's cols and rows, the row index and the block column.
  logic [PitchW-1:0] cols_quot;
  logic [DimW-1:0]   rows_quot;
  logic [RoundW-1:0] cols_rest;     // (pitch0 >> L) bits a round-up looks at
  logic [RoundW-1:0] rows_rest;
  logic [PitchW-1:0] cols_lvl;      // cols_L
  logic [DimW-1:0]   rows_lvl;      // rows_L
  logic [RowW-1:0]   row;
  logic [CoordW-1:0] col;

  always_comb begin
    cols_quot = pitch_blk >> level;
    rows_quot = height_blk >> level;
    cols_rest = RoundW'(pitch0_ext >> level);
    rows_rest = RoundW'(height0_ext >> level);
    cols_lvl  = cols_quot + PitchW'(((cols_rest & round_w) != '0) || (cols_quot == '0));
    rows_lvl  = rows_quot + DimW'(((rows_rest & round_h) != '0) || (rows_quot == '0));
    // s * rows_L + (y >> bh_log) < (2^32 - 1) * 2^14 + 2^32 < 2^47.
    row = RowW'(slice) * RowW'(rows_lvl) + (RowW'(y_i) >> bh_log);
    col = xa >> bw_log;
  end

  // within(xa mod bw, y mod bh) (§4.5): bits e..7 from the micro-block table by element size,
  // then bits 8..K-1 alternating y (even bit) and x (odd bit), from the bits the micro-block
  // left; bits below e (the byte in the element) are 0.
  logic [MicroW-1:0] xw, yw;        // the coordinates' low bits (a block is at most 256 wide)
  logic [MicroW-1:0] micro;         // address bits 7:0
  logic [MicroW-1:0] macro;         // address bits 15:8, before the mask to K
  logic [MicroW-1:0] macro_mask;
  logic [BlockW-1:0] in_block;

  always_comb begin
    xw = xa[MicroW-1:0];
    yw = y_i[MicroW-1:0];
    unique case (bpp_log)
      3'd0:    micro = {yw[3:0], xw[3:0]};                      // x0 x1 x2 x3 y0 y1 y2 y3
      3'd1:    micro = {xw[3], yw[2:0], xw[2:0], 1'b0};         // x0 x1 x2 y0 y1 y2 x3
      3'd2:    micro = {xw[2], yw[2:0], xw[1:0], 2'b0};         // x0 x1 y0 y1 y2 x2
      3'd3:    micro = {xw[2:1], yw[1:0], xw[0], 3'b0};         // x0 y0 y1 x1 x2
      default: micro = {xw[1:0], yw[1:0], 4'b0};                // y0 y1 x0 x1
    endcase
    unique case (bpp_log)
      3'd0:    macro = {xw[7], yw[7], xw[6], yw[6], xw[5], yw[5], xw[4], yw[4]};
      3'd1:    macro = {xw[7], yw[6], xw[6], yw[5], xw[5], yw[4], xw[4], yw[3]};
      3'd2:    macro = {xw[6], yw[6], xw[5], yw[5], xw[4], yw[4], xw[3], yw[3]};
      3'd3:    macro = {xw[6], yw[5], xw[5], yw[4], xw[4], yw[3], xw[3], yw[2]};
      default: macro = {xw[5], yw[5], xw[4], yw[4], xw[3], yw[3], xw[2], yw[2]};
    endcase
    macro_mask = ~(MicroW'('1) << {macro_bits, 1'b0});          // K - 8 bits
    in_block = tiled ? {macro & macro_mask, micro} : '0;
  end

  /////////////////////////////////////////////////
  // Stage 1: mip_offset in elements/blocks (§4.4) //
  /////////////////////////////////////////////////

  // area_l = cols_l * rows_l, masked to 0 at and above L (levels 0..14 can lie below an
  // existing L <= 15).
  logic [NumLevels-2:0][MipSum2dW-1:0] area_term;
  logic [NumLevels-2:0]                area_once;   // counts once: not 3D, or d >> l == 0

  for (genvar l = 0; l < NumLevels - 1; l++) begin : g_area
    localparam int unsigned PW = PitchW - l;                     // bits of cols_l
    localparam int unsigned HW = DimW - l;                       // bits of rows_l
    localparam int unsigned AW = PW + HW - 1;                    // area <= 2^(PW-1) * 2^(HW-1)
    localparam int unsigned EW = (l < DepthW) ? DepthW - l : 1;  // d >> l < 2^(14-l)

    logic [PW-1:0] cols_quot_l;
    logic [HW-1:0] rows_quot_l;
    logic [PW-1:0] cols_l;
    logic [HW-1:0] rows_l;
    logic [AW-1:0] area;

    always_comb begin
      cols_quot_l = pitch_blk[PitchW-1:l];
      rows_quot_l = height_blk[DimW-1:l];
      cols_l = cols_quot_l +
               PW'(((pitch0_ext[l +: RoundW] & round_w) != '0) || (cols_quot_l == '0));
      rows_l = rows_quot_l +
               HW'(((height0_ext[l +: RoundW] & round_h) != '0) || (rows_quot_l == '0));
      area   = AW'(cols_l) * AW'(rows_l);
    end

    assign area_term[l] = (LevelW'(l) < level) ? MipSum2dW'(area) : '0;
    assign area_once[l] = !is3d || (depth0_ext[l +: EW] == '0);
  end

  // 3D: sum over l < L of area_l * max(1, d >> l) = sum over k of d[k] * G_k, plus area_l for
  // the levels where d >> l = 0 (max(1, 0) = 1), with G_k = sum over l <= k of area_l * 2^(k-l)
  // (d >> l = sum over k >= l of d[k] * 2^(k-l)). G_k = 2 * G_(k-1) + area_k: a Horner chain over
  // the levels instead of one (31 - 2l) x (14 - l) product per level, kept in carry-save form
  // (hs + hc = G_k), one full adder deep a level. G_k < 2^(30+k) * 8/7 < 2^(31+k): exact in
  // 31 + k bits (elaboration check below), so the carry out of the top bit is always 0.
  logic [DepthW-1:0][MipSumW-1:0] g_sum;      // d[k] * G_k in carry-save form, 0 when not 3D
  logic [DepthW-1:0][MipSumW-1:0] g_carry;

  for (genvar k = 0; k < DepthW; k++) begin : g_horner
    localparam int unsigned GW = MipSum2dW + k;  // bits of G_k

    logic [GW-1:0] hs, hc;                       // hs + hc = G_k

    if (k == 0) begin : g_first
      assign hs = area_term[0];
      assign hc = '0;
    end else begin : g_next
      logic [GW-1:0] hx, hy, hz;                 // 2 * G_(k-1) (two parts) and area_k
      always_comb begin
        hx = {g_horner[k-1].hs, 1'b0};
        hy = {g_horner[k-1].hc, 1'b0};
        hz = GW'(area_term[k]);
      end
      // One full adder a bit; the carry out of bit GW-1 would make G_k >= 2^GW, so it is 0.
      assign hs = hx ^ hy ^ hz;
      assign hc = {((hx[GW-2:0] & hy[GW-2:0]) | (hx[GW-2:0] & hz[GW-2:0]) |
                    (hy[GW-2:0] & hz[GW-2:0])), 1'b0};
    end

    assign g_sum[k]   = (is3d && depth0[k]) ? MipSumW'(hs) : '0;
    assign g_carry[k] = (is3d && depth0[k]) ? MipSumW'(hc) : '0;
  end

  // The sum is largest for pitch 65536, height 16384, 3D depth 8192, L = 15: below 2^44; not 3D,
  // below (2^32 - 4) / 3 < 2^31 (elaboration checks below).
  logic [MipSumW-1:0] mip_sum;

  always_comb begin
    mip_sum = '0;
    for (int l = 0; l < NumLevels - 1; l++) begin
      mip_sum = mip_sum + (area_once[l] ? MipSumW'(area_term[l]) : '0);
    end
    for (int k = 0; k < DepthW; k++) begin
      mip_sum = mip_sum + g_sum[k] + g_carry[k];
    end
  end

  // Stage 1 register input (VMEM_STAGE_FF loads it when valid_i is 1).
  always_comb begin
    s1_d.lvl     = '{level_ok: level_ok, level: level, width: width, height: height,
                     layers: layers, pitch: pitch, xa: xa, group_valid: group_valid};
    s1_d.illegal = illegal;
    s1_d.is3d    = is3d;
    s1_d.mip_sum = mip_sum;
    s1_d.row     = row;
    s1_d.cols    = cols_lvl;
    s1_d.col     = col;
    s1_d.in_block = in_block;
    s1_d.scale   = scale;
    s1_d.base    = ts_base;
    `VMEM_TEST_HOOK(image_addr_brk_s1)  // test builds only (see the contract above)
  end

  ////////////////////////////////////////
  // Stage 2: texel address (§4.4, §4.5) //
  ////////////////////////////////////////

  logic [AddrW-1:0] mip_offset;    // mip_offset(L) in elements/blocks
  logic [AddrW-1:0] index;         // mip_offset + row * cols_L + col, mod 2^48
  logic [AddrW-1:0] byte_offset;   // index scaled to bytes, plus the within-block offset, mod 2^48
  logic [AddrW-1:0] address;

  always_comb begin
    mip_offset = s1_q.is3d ? AddrW'(s1_q.mip_sum) :
                 AddrW'(MipW'(s1_q.lvl.layers) * MipW'(s1_q.mip_sum[MipSum2dW-1:0]));
    index = mip_offset + AddrW'(s1_q.row) * AddrW'(s1_q.cols) + AddrW'(s1_q.col);

    byte_offset = '0;
    unique case (s1_q.scale)
      ScaleB1:   byte_offset = index;
      ScaleB2:   byte_offset = index << 1;
      ScaleB4:   byte_offset = index << 2;
      ScaleB8:   byte_offset = index << 3;
      ScaleB16:  byte_offset = index << 4;
      ScaleB12:  byte_offset = (index << 3) + (index << 2);
      ScaleK8:   byte_offset = index << 8;
      ScaleK12:  byte_offset = index << 12;
      ScaleK16:  byte_offset = index << 16;
      default:   byte_offset = '0;  // ScaleZero: dfmt outside 1..14
    endcase
    // The block's bits below K are 0 in index << K: in_block, the within-block offset, joins them (WithinBlock_A).
    byte_offset[BlockW-1:0] = byte_offset[BlockW-1:0] | s1_q.in_block;

    address = {s1_q.base, 8'd0} + byte_offset;
    if (!s1_q.lvl.level_ok) begin
      address = '0;
    end

    s2_d.lvl     = s1_q.lvl;
    s2_d.address = address;
    s2_d.illegal = s1_q.illegal;
    `VMEM_TEST_HOOK(image_addr_brk)  // test builds only (see the contract above)
  end

  ///////////////
  // Registers //
  ///////////////

  `VMEM_UNIT_STAGES(valid_q, s1_q, s1_d, s2_q2, s2_d,
                    {level_ok_o, level_o, width_o, height_o, layers_o, pitch_o, xa_o,
                     group_valid_o, address_o, illegal_o})

  ////////////////
  // Assertions //
  ////////////////

  // Elaboration checks: the mip sum widths hold the largest sums (see mip_offset above).
  function automatic longint unsigned mip_sum_max(bit with_depth);
    longint unsigned sum = 0;
    for (int l = 0; l < NumLevels - 1; l++) begin
      longint unsigned d = (longint'(1) << (DepthW - 1)) >> l;
      sum += (longint'(1) << (PitchW - 1 - l)) * (longint'(1) << (DimW - 1 - l)) *
             ((with_depth && d > 1) ? d : 1);
    end
    return sum;
  endfunction

  if (mip_sum_max(1'b1) >= (longint'(1) << MipSumW)) begin : g_mip_sum_w_check
    $error("image_addr: MipSumW = %0d cannot hold the mip sum bound %0d", MipSumW,
           mip_sum_max(1'b1));
  end
  // G_k <= sum over l <= k of 2^(30-2l) * 2^(k-l) < 2^(31+k): the chain's widths.
  function automatic bit horner_fits();
    for (int k = 0; k < DepthW; k++) begin
      longint unsigned g = 0;
      for (int l = 0; l <= k; l++) begin
        g += ((longint'(1) << (PitchW - 1 - l)) * (longint'(1) << (DimW - 1 - l))) << (k - l);
      end
      if (g >= (longint'(1) << (MipSum2dW + k))) return 1'b0;
    end
    return 1'b1;
  endfunction

  if (!horner_fits()) begin : g_horner_w_check
    $error("image_addr: the Horner chain's G_k does not fit 31 + k bits");
  end
  if (mip_sum_max(1'b0) >= (longint'(1) << MipSum2dW)) begin : g_mip_sum_2d_w_check
    $error("image_addr: MipSum2dW = %0d cannot hold the 2D mip sum bound %0d", MipSum2dW,
           mip_sum_max(1'b0));
  end

// Reset drives every output to a value these properties accept; they are disabled while rst_ni
// is low anyway (vmem_prim_pkg.sv).

// A missing level has no dimensions, no address and no group (decisions "image_addr").
`VMEM_ASSERT(LevelMissingZero_A,
    !level_ok_o |-> ({level_o, width_o, height_o, layers_o, pitch_o, address_o, group_valid_o} ==
                     '0))
// An existing level has dimensions of at least 1 (§4.2's max(1, ..), layers >= 1).
`VMEM_ASSERT(LevelOkDims_A,
    level_ok_o |-> ((width_o != '0) && (height_o != '0) && (layers_o != '0) && (pitch_o != '0)))
// A valid group is legal and on an existing level.
`VMEM_ASSERT(GroupValidLegal_A, group_valid_o |-> (level_ok_o && !illegal_o))
// A valid group starts inside the row (xa <= x < width).
`VMEM_ASSERT(GroupInRow_A, group_valid_o |-> ({{(CoordW-DimW){1'b0}}, width_o} > xa_o))

// The stage-1 register input, at the edge that loads it:
// a valid group is on a row of the level (y < height) ...
`VMEM_ASSERT(GroupInColumn_A,
    (valid_i && s1_d.lvl.group_valid) |-> ({{(CoordW-DimW){1'b0}}, s1_d.lvl.height} > y_i))
// ... and on one of its layers (s < layers; ops 0-3: s = 0).
`VMEM_ASSERT(GroupInLayers_A,
    (valid_i && s1_d.lvl.group_valid) |-> ({{(CoordW-LayersW){1'b0}}, s1_d.lvl.layers} > slice))
// A mip sum without 3D's per-level layers fits the 31 bits stage 2 multiplies by layers.
`VMEM_ASSERT(MipSumNarrow_A,
    (valid_i && !s1_d.is3d) |-> (s1_d.mip_sum[MipSumW-1:MipSum2dW] == '0))
// The within-block offset lies inside the block (below bit K; linear: 0), so stage 2 can OR it
// under index << K.
`VMEM_ASSERT(WithinBlock_A,
    valid_i |-> ((s1_d.in_block & ~((s1_d.scale == ScaleK8)  ? BlockW'(16'h00ff) :
                                   (s1_d.scale == ScaleK12) ? BlockW'(16'h0fff) :
                                   (s1_d.scale == ScaleK16) ? BlockW'(16'hffff) : '0)) == '0))

endmodule : image_addr

`endif  // VMEM_IMAGE_ADDR_SV
