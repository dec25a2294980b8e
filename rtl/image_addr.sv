// Copyright gcn-vmem contributors.
//
// image_addr: per-lane group finder of the multi-texel image loads BY2/BY4/PCK2/PCK4 (and their
// _MIP forms): mip level, level dimensions, aligned group, bounds verdict and texel address.
//
// Parameters: none.
// Test hook: `VMEM_TEST_HOOK(image_addr_brk), nothing in the design (rtl/vmem_prim_pkg.sv); the
//   break-asserts build puts rtl/test/image_addr_brk.svh there, which makes each assertion below
//   fail on some input (tests/image_addr.rs proves each one fires).
//
// Behaviour (docs/spec.md §1.2, §4.2-§4.4 and docs/decisions.md "image_addr"). The address VGPRs are
// decoded by the executor: x_i, y_i, mipid_i arrive as unsigned integers (A16 zero-extended).
// op_i: 0 BY2, 1 BY4, 2 PCK2, 3 PCK4, so n = 2, 4, 2, 4.
//   bound    = T# dfmt != 0 and T# type >= 8.
//   illegal  = bound and not (type == 9 (2D), d16 = tfe = da = 0, and (op, dmask, dfmt, nfmt) a
//              row of §4.3's table):
//                BY2  dmask 0x3  R8 (dfmt 1), R16 (2)  unorm, snorm, uint, sint; R16 also float
//                BY2  dmask 0xF  RG8 (3)               unorm, snorm, uint, sint
//                BY4  dmask 0xF  R8                    unorm, snorm, uint, sint
//                PCK2 dmask 0x1  R8, R16, RG8          unorm, uint, sint
//                PCK4 dmask 0x1  R8                    unorm, uint, sint
//              dfmt (6 bits) and nfmt (4 bits) are compared at the T#'s full field widths.
//   L        = base_level + (mip_i ? mipid_i : 0), exact (33 bits).
//   level_ok = L <= last_level and (r128_i or L <= max_mip); level_o = level_ok ? L : 0.
//   width_o  = max(1, (width_field + 1) >> L), height_o likewise, pitch_o = max(1,
//              (pitch_field + 1) >> L) for a 256-bit T#, width_o for a 128-bit one (r128_i = 1,
//              tsharp_hi_i unused); all three 0 when not level_ok.
//   xa_o     = x_i & ~(n - 1), always.
//   group_valid = bound and not illegal and level_ok and x + n <= width_L (exact, 33 bits) and
//              y < height_L.
//   address_o = (base * 256 + mip_offset(L) + (y * pitch_L + xa) * bpp) mod 2^48, 0 when not
//              level_ok; mip_offset(L) = sum over l < L of pitch_l * height_l * bpp (2D: one
//              layer), bpp = §1.4 element bytes of the T# dfmt (0 outside 1..14). Computed
//              whatever bound, illegal and the bounds verdict say.
//   T# fields not named above (min_lod, dst_sel, tiling_index, depth, reserved) are ignored.
//
// mip_offset in hardware: every level's pitch and height are the level-0 ones shifted right by a
//   constant, so the 15 terms pitch_l * height_l (l = 0..14) need no shifter, only wiring, and
//   shrink with l: term l is a (17 - l) x (15 - l) bit product, exact in 31 - 2l bits. The terms
//   with l < L are summed in texels (at most (2^32 - 4) / 3 < 2^31: exact in 31 bits), and bpp is
//   applied once, to mip_offset + y * pitch_L + xa together, as a shift (or 8 + 4 for 12 bytes).
//
// Latency: 2 cycles. Inputs sampled with valid_i = 1 at rising edge j reach the outputs at edge
//   j+1, with valid_o. A new input is accepted every cycle. Stage 1 (edge j) registers the
//   decode, level, dimensions, xa, group_valid, illegal and the mip sum in texels; stage 2
//   (edge j+1) registers the 48-bit address (row product, bpp scaling, base). Valid flops load
//   every cycle; data flops of a stage load only when that stage's incoming valid is 1, else
//   hold. rst_ni (asynchronous, active low) clears every valid and data flop, outputs included.
//
// Model: rust/image_addr.rs  Tests: tests/image_addr.rs  Spec: docs/spec.md §4

module image_addr
  import vmem_pkg::*;
(
  input  logic         clk_i,
  input  logic         rst_ni,          // async, active low
  input  logic         valid_i,
  input  logic [127:0] tsharp_lo_i,     // T# bits 127:0 (SPEC §1.2)
  input  logic [127:0] tsharp_hi_i,     // T# bits 255:128; read only when r128_i = 0
  input  logic         r128_i,          // 1: 128-bit T#
  input  logic [1:0]   op_i,            // 0 BY2, 1 BY4, 2 PCK2, 3 PCK4
  input  logic         mip_i,           // 1: _MIP form (mipid_i is used)
  input  logic [3:0]   dmask_i,
  input  logic         d16_i,
  input  logic         tfe_i,
  input  logic         da_i,
  input  logic [31:0]  x_i,
  input  logic [31:0]  y_i,
  input  logic [31:0]  mipid_i,
  output logic         valid_o,
  output logic         level_ok_o,
  output logic [3:0]   level_o,
  output logic [14:0]  width_o,
  output logic [14:0]  height_o,
  output logic [16:0]  pitch_o,
  output logic [31:0]  xa_o,
  output logic         group_valid_o,
  output logic [47:0]  address_o,
  output logic         illegal_o
);

  // Widths local to this unit.
  localparam int unsigned CoordW     = 32;              // x, y, mipid
  localparam int unsigned LevelW     = 4;               // an existing level is <= last_level
  localparam int unsigned NumLevels  = 1 << LevelW;     // levels 0..15
  localparam int unsigned LevelExW   = CoordW + 1;      // base_level + mipid, exact
  localparam int unsigned DimW       = TsWidthW + 1;    // width, height: 1..16384
  localparam int unsigned PitchW     = TsPitchW + 1;    // pitch: 1..65536
  localparam int unsigned MipSumW    = 31;              // mip_offset in texels, exact (below)
  localparam int unsigned BppW       = 5;               // element bytes 0..16

  // Codes of §1.2, §1.4 and docs/decisions.md this unit decides on.
  localparam logic [TsDfmtW-1:0] DfmtInvalid6 = 6'd0;   // unbound T#
  localparam logic [TsTypeW-1:0] TypeFirst    = 4'd8;   // 1D; types below are unbound
  localparam logic [TsTypeW-1:0] Type2d       = 4'd9;

  // The outputs final after stage 1 (level_ok_o .. group_valid_o, in port order); stage 2 passes
  // them on.
  typedef struct packed {
    logic               level_ok;
    logic [LevelW-1:0]  level;
    logic [DimW-1:0]    width;
    logic [DimW-1:0]    height;
    logic [PitchW-1:0]  pitch;
    logic [CoordW-1:0]  xa;
    logic               group_valid;
  } level_t;

  // Stage 1 register: the final flags and dimensions, and the address terms stage 2 needs.
  typedef struct packed {
    level_t             lvl;
    logic               illegal;
    logic [MipSumW-1:0] mip_sum;      // mip_offset(L) / bpp: sum of pitch_l * height_l, l < L
    logic [BppW-1:0]    bpp;
    logic [TsBaseW-1:0] base;         // units of 256 bytes
    logic [CoordW-1:0]  y;
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
  logic [TsTypeW-1:0]      ts_type;
  logic [TsPitchW-1:0]     ts_pitch;        // pitch - 1, 256-bit form
  logic [TsMaxMipW-1:0]    ts_max_mip;      // 256-bit form

  assign ts_base       = tsharp_lo_i[TsBaseLsb      +: TsBaseW];
  assign ts_dfmt       = tsharp_lo_i[TsDfmtLsb      +: TsDfmtW];
  assign ts_nfmt       = tsharp_lo_i[TsNfmtLsb      +: TsNfmtW];
  assign ts_width      = tsharp_lo_i[TsWidthLsb     +: TsWidthW];
  assign ts_height     = tsharp_lo_i[TsHeightLsb    +: TsHeightW];
  assign ts_base_level = tsharp_lo_i[TsBaseLevelLsb +: TsBaseLevelW];
  assign ts_last_level = tsharp_lo_i[TsLastLevelLsb +: TsLastLevelW];
  assign ts_type       = tsharp_lo_i[TsTypeLsb      +: TsTypeW];
  assign ts_pitch      = tsharp_hi_i[TsPitchLsb  - TsHiLsb +: TsPitchW];
  assign ts_max_mip    = tsharp_hi_i[TsMaxMipLsb - TsHiLsb +: TsMaxMipW];

  // T# fields with no effect on a linear 2D integer-coordinate load (§1.2, §4.3: no sampler, so
  // no min_lod; dst_sel ignored; linear only, so no tiling_index; 2D, so no depth), and the
  // T#'s unassigned bits.
  logic unused_inputs;
  assign unused_inputs = ^{tsharp_lo_i[TsMinLodLsb +: TsMinLodW],
                           tsharp_lo_i[63:62],                          // reserved
                           tsharp_lo_i[95:92],                          // reserved
                           tsharp_lo_i[TsDstSelLsb +: TsDstSelW],
                           tsharp_lo_i[TsTilingIndexLsb +: TsTilingIndexW],
                           tsharp_lo_i[123:121],                        // reserved
                           tsharp_hi_i[TsDepthLsb - TsHiLsb +: TsDepthW],
                           tsharp_hi_i[187-128:157-128],                // T# 187:157, reserved
                           tsharp_hi_i[255-128:192-128]};               // T# 255:192, reserved

  //////////////////////////////////////////////////////
  // Stage 1: binding and the combination table (§4.3) //
  //////////////////////////////////////////////////////

  mt_op_e      op;
  logic [2:0]  group_n;      // n
  logic        bound;
  logic        row_ok;       // (op, dmask, dfmt, nfmt) is a row of the table
  logic        illegal;
  logic [BppW-1:0] bpp;

  always_comb begin
    op       = mt_op_e'(op_i);
    bound    = (ts_dfmt != DfmtInvalid6) && (ts_type >= TypeFirst);

    unique case (op)
      MtOpBy4, MtOpPck4: group_n = 3'd4;
      default:           group_n = 3'd2;
    endcase
    row_ok = mt_row_ok(op, dmask_i, ts_dfmt, ts_nfmt);

    illegal = bound && !((ts_type == Type2d) && row_ok && !d16_i && !tfe_i && !da_i);

    // Element bytes of §1.4; 0 for a dfmt outside 1..14.
    bpp = '0;
    unique case (ts_dfmt)
      6'd1:                                       bpp = 5'd1;
      6'd2, 6'd3:                                 bpp = 5'd2;
      6'd4, 6'd5, 6'd6, 6'd7, 6'd8, 6'd9, 6'd10:  bpp = 5'd4;
      6'd11, 6'd12:                               bpp = 5'd8;
      6'd13:                                      bpp = 5'd12;
      6'd14:                                      bpp = 5'd16;
      default:                                    bpp = 5'd0;
    endcase
  end

  //////////////////////////////////////////////////
  // Stage 1: level, dimensions and group (§4.2/3) //
  //////////////////////////////////////////////////

  logic [LevelExW-1:0] level_ex;   // L, exact
  logic                level_ok;
  logic [LevelW-1:0]   level;      // L when level_ok, else 0
  logic [DimW-1:0]     width0;     // level-0 dimensions
  logic [DimW-1:0]     height0;
  logic [PitchW-1:0]   pitch0;     // 128-bit T#: width0
  logic [DimW-1:0]     width;      // level-L dimensions, 0 when not level_ok
  logic [DimW-1:0]     height;
  logic [PitchW-1:0]   pitch;
  logic [CoordW-1:0]   xa;
  logic [CoordW:0]     x_end;      // x + n, exact
  logic                group_valid;

  always_comb begin
    level_ex = {{(LevelExW-TsBaseLevelW){1'b0}}, ts_base_level} +
               (mip_i ? {1'b0, mipid_i} : '0);
    level_ok = (level_ex <= {{(LevelExW-TsLastLevelW){1'b0}}, ts_last_level}) &&
               (r128_i || (level_ex <= {{(LevelExW-TsMaxMipW){1'b0}}, ts_max_mip}));
    level    = level_ok ? level_ex[LevelW-1:0] : '0;

    width0  = {1'b0, ts_width} + DimW'(1);
    height0 = {1'b0, ts_height} + DimW'(1);
    pitch0  = r128_i ? {{(PitchW-DimW){1'b0}}, width0} : {1'b0, ts_pitch} + PitchW'(1);

    // max(1, dimension >> L) (§4.2).
    width  = ((width0 >> level) == '0) ? DimW'(1) : (width0 >> level);
    height = ((height0 >> level) == '0) ? DimW'(1) : (height0 >> level);
    pitch  = ((pitch0 >> level) == '0) ? PitchW'(1) : (pitch0 >> level);
    if (!level_ok) begin
      width  = '0;
      height = '0;
      pitch  = '0;
    end

    xa    = x_i & ~{{(CoordW-3){1'b0}}, group_n - 3'd1};
    x_end = {1'b0, x_i} + {{(CoordW-2){1'b0}}, group_n};
    group_valid = bound && !illegal && level_ok &&
                  (x_end <= {{(CoordW+1-DimW){1'b0}}, width}) &&
                  (y_i < {{(CoordW-DimW){1'b0}}, height});
  end

  /////////////////////////////////////////////
  // Stage 1: mip_offset in texels (§4.4)    //
  /////////////////////////////////////////////

  // Term l = max(1, pitch0 >> l) * max(1, height0 >> l) when l < level, else 0. Levels 0..14
  // can lie below an existing L (<= 15). The operands are constant shifts (wiring) of the
  // level-0 dimensions; the product is at most 2^(16-l) * 2^(14-l), exact in 31 - 2l bits.
  logic [NumLevels-2:0][MipSumW-1:0] mip_term;
  logic [MipSumW-1:0]                mip_sum;

  for (genvar l = 0; l < NumLevels - 1; l++) begin : g_mip_term
    localparam int unsigned PW = PitchW - l;  // bits of pitch0 >> l
    localparam int unsigned HW = DimW - l;    // bits of height0 >> l
    localparam int unsigned ProdW = PW + HW - 1;  // product <= 2^(PW-1) * 2^(HW-1)

    logic [PW-1:0]    pitch_l;
    logic [HW-1:0]    height_l;
    logic [ProdW-1:0] product;

    always_comb begin
      pitch_l  = (pitch0[PitchW-1:l] == '0) ? PW'(1) : pitch0[PitchW-1:l];
      height_l = (height0[DimW-1:l] == '0) ? HW'(1) : height0[DimW-1:l];
      product  = ProdW'(pitch_l) * ProdW'(height_l);
    end

    assign mip_term[l] = (LevelW'(l) < level) ? MipSumW'(product) : '0;
  end

  // The sum is largest for pitch 65536, height 16384, L = 15: sum of 2^(30-2l), l < 15, which is
  // (2^32 - 4) / 3 < 2^31 (elaboration check below).
  always_comb begin
    mip_sum = '0;
    for (int l = 0; l < NumLevels - 1; l++) begin
      mip_sum = mip_sum + mip_term[l];
    end
  end

  // Stage 1 register input (VMEM_STAGE_FF loads it when valid_i is 1).
  always_comb begin
    s1_d.lvl         = '{level_ok: level_ok, level: level, width: width, height: height,
                         pitch: pitch, xa: xa, group_valid: group_valid};
    s1_d.illegal     = illegal;
    s1_d.mip_sum     = mip_sum;
    s1_d.bpp         = bpp;
    s1_d.base        = ts_base;
    s1_d.y           = y_i;
  end

  ////////////////////////////////////
  // Stage 2: texel address (§4.4)  //
  ////////////////////////////////////

  logic [AddrW-1:0] row_texels;    // y * pitch_L mod 2^48 (exact: 49 bits)
  logic [AddrW-1:0] texel_index;   // mip_sum + y * pitch_L + xa, mod 2^48
  logic [AddrW-1:0] byte_offset;   // texel_index * bpp, mod 2^48
  logic [AddrW-1:0] address;

  always_comb begin
    row_texels  = {{(AddrW-CoordW){1'b0}}, s1_q.y} * {{(AddrW-PitchW){1'b0}}, s1_q.lvl.pitch};
    texel_index = {{(AddrW-MipSumW){1'b0}}, s1_q.mip_sum} + row_texels +
                  {{(AddrW-CoordW){1'b0}}, s1_q.lvl.xa};

    byte_offset = '0;
    unique case (s1_q.bpp)
      5'd1:    byte_offset = texel_index;
      5'd2:    byte_offset = texel_index << 1;
      5'd4:    byte_offset = texel_index << 2;
      5'd8:    byte_offset = texel_index << 3;
      5'd12:   byte_offset = (texel_index << 3) + (texel_index << 2);
      5'd16:   byte_offset = texel_index << 4;
      default: byte_offset = '0;  // 0: dfmt outside 1..14
    endcase

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
                    {level_ok_o, level_o, width_o, height_o, pitch_o, xa_o, group_valid_o,
                     address_o, illegal_o})

  ////////////////
  // Assertions //
  ////////////////

  // Elaboration check: the mip sum width holds the largest sum of texels (see mip_offset above).
  function automatic longint unsigned mip_sum_max();
    longint unsigned sum = 0;
    for (int l = 0; l < NumLevels - 1; l++) begin
      sum += (longint'(1) << (PitchW - 1 - l)) * (longint'(1) << (DimW - 1 - l));
    end
    return sum;
  endfunction

  if (mip_sum_max() >= (longint'(1) << MipSumW)) begin : g_mip_sum_w_check
    $error("image_addr: MipSumW = %0d cannot hold the mip sum bound %0d", MipSumW,
           mip_sum_max());
  end

// Reset drives every output to a value these properties accept; they are disabled while rst_ni
// is low anyway (vmem_prim_pkg.sv).

// A missing level has no dimensions, no address and no group (decisions "image_addr").
`VMEM_ASSERT(LevelMissingZero_A,
    !level_ok_o |-> ({level_o, width_o, height_o, pitch_o, address_o, group_valid_o} == '0))
// An existing level has dimensions of at least 1 (§4.2's max(1, ..)).
`VMEM_ASSERT(LevelOkDims_A,
    level_ok_o |-> ((width_o != '0) && (height_o != '0) && (pitch_o != '0)))
// A valid group is legal and on an existing level.
`VMEM_ASSERT(GroupValidLegal_A, group_valid_o |-> (level_ok_o && !illegal_o))
// A valid group starts inside the row (xa <= x < width).
`VMEM_ASSERT(GroupInRow_A, group_valid_o |-> ({{(CoordW-DimW){1'b0}}, width_o} > xa_o))
// xa is aligned to n >= 2.
`VMEM_ASSERT(XaAligned_A, xa_o[0] == 1'b0)

endmodule : image_addr
