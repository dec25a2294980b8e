// Copyright gcn-vmem contributors.
//
// vmem_pkg: widths, enums and descriptor field positions shared by the VMEM units.
//
// Contents:
//   access_e    access kind of a buffer unit (docs/spec.md §2): format, non_format, atomic; the fourth
//               encoding is reserved (units raise `illegal` and treat it as non_format).
//   Vs*Lsb/W    V# buffer resource fields (docs/spec.md §1.1): least significant bit and width, for
//               `vsharp[VsFooLsb +: VsFooW]`. Bit k of the 128-bit V# is field bit k (LSB0).
//   Ts*Lsb/W    T# image resource fields (docs/spec.md §1.2), positions over the 256-bit T#.
//   Dfmt*       the data-format codes a unit decides on (docs/spec.md §1.4).
//
// Spec: docs/spec.md §1.1, §1.4, §2

// The package serves every unit, and each unit is also linted alone (-Wall with the packages and
// that one unit, as the Makefile and the pre-stop checks do, the latter without the .vlt file):
// constants another unit uses are then unused. The waiver is scoped to this package's constants.
/* verilator lint_off UNUSEDPARAM */
package vmem_pkg;

  // ---------------------------------------------------------------------------------------------
  // Access kind (docs/spec.md §2)
  // ---------------------------------------------------------------------------------------------

  localparam int unsigned AccessW = 2;

  typedef enum logic [AccessW-1:0] {
    AccessFormat    = 2'd0,  // MUBUF *_FORMAT_* and MTBUF
    AccessNonFormat = 2'd1,  // MUBUF ubyte .. dwordx4
    AccessAtomic    = 2'd2,  // MUBUF atomics (count as non_format for §1.1 / §2.2)
    AccessReserved  = 2'd3   // not an access: `illegal`, otherwise as non_format
  } access_e;

  // ---------------------------------------------------------------------------------------------
  // V# buffer resource, 128 bits (docs/spec.md §1.1)
  // ---------------------------------------------------------------------------------------------

  localparam int unsigned VsBaseLsb        = 0;    // byte address
  localparam int unsigned VsBaseW          = 48;
  localparam int unsigned VsStrideLsb      = 48;   // bytes; §2.2 extends it with dfmt
  localparam int unsigned VsStrideW        = 14;
  localparam int unsigned VsCacheSwzBit    = 62;   // cache-bank hint, no effect
  localparam int unsigned VsSwizzleEnBit   = 63;
  localparam int unsigned VsNumRecordsLsb  = 64;
  localparam int unsigned VsNumRecordsW    = 32;
  localparam int unsigned VsDstSelLsb      = 96;   // dst_sel_x/y/z/w, 3 bits each
  localparam int unsigned VsDstSelW        = 12;
  localparam int unsigned VsNfmtLsb        = 108;
  localparam int unsigned VsNfmtW          = 3;
  localparam int unsigned VsDfmtLsb        = 111;  // holds stride[17:14] under §2.2
  localparam int unsigned VsDfmtW          = 4;
  localparam int unsigned VsElementSizeLsb = 115;  // 0..3 = 2, 4, 8, 16 bytes
  localparam int unsigned VsElementSizeW   = 2;
  localparam int unsigned VsIndexStrideLsb = 117;  // 0..3 = 8, 16, 32, 64
  localparam int unsigned VsIndexStrideW   = 2;
  localparam int unsigned VsAddTidEnBit    = 119;

  // Widths derived from the fields above.
  localparam int unsigned AddrW      = 48;                    // memory addresses, modulo 2^48
  localparam int unsigned StrideExtW = VsStrideW + VsDfmtW;   // §2.2 18-bit stride

  // ---------------------------------------------------------------------------------------------
  // T# image resource, 128 or 256 bits (docs/spec.md §1.2)
  // ---------------------------------------------------------------------------------------------
  // Positions count over the whole 256-bit T# (bit k = field bit k, LSB0). A unit that takes the
  // upper half (bits 255:128) as its own port indexes it with `Ts*Lsb - TsHiLsb`.

  localparam int unsigned TsBaseLsb         = 0;    // in units of 256 bytes
  localparam int unsigned TsBaseW           = 40;
  localparam int unsigned TsMinLodLsb       = 40;   // u4.8
  localparam int unsigned TsMinLodW         = 12;
  localparam int unsigned TsDfmtLsb         = 52;   // image data format (§1.4 codes 1..14)
  localparam int unsigned TsDfmtW           = 6;
  localparam int unsigned TsNfmtLsb         = 58;   // numeric format (§1.4 codes 0..7)
  localparam int unsigned TsNfmtW           = 4;
  localparam int unsigned TsWidthLsb        = 64;   // width - 1, mip 0
  localparam int unsigned TsWidthW          = 14;
  localparam int unsigned TsHeightLsb       = 78;   // height - 1, mip 0
  localparam int unsigned TsHeightW         = 14;
  localparam int unsigned TsDstSelLsb       = 96;   // dst_sel_x/y/z/w, 3 bits each
  localparam int unsigned TsDstSelW         = 12;
  localparam int unsigned TsBaseLevelLsb    = 108;  // most detailed level of the view
  localparam int unsigned TsBaseLevelW      = 4;
  localparam int unsigned TsLastLevelLsb    = 112;  // least detailed level of the view
  localparam int unsigned TsLastLevelW      = 4;
  localparam int unsigned TsTilingIndexLsb  = 116;  // ignored (linear surfaces only)
  localparam int unsigned TsTilingIndexW    = 5;
  localparam int unsigned TsTypeLsb         = 124;  // 8 = 1D .. 15 = 2D MSAA array; < 8 unbound
  localparam int unsigned TsTypeW           = 4;
  localparam int unsigned TsHiLsb           = 128;  // first bit of the 256-bit form's upper half
  localparam int unsigned TsDepthLsb        = 128;  // depth - 1 (256-bit form)
  localparam int unsigned TsDepthW          = 13;
  localparam int unsigned TsPitchLsb        = 141;  // pitch - 1, in texels (256-bit form)
  localparam int unsigned TsPitchW          = 16;
  localparam int unsigned TsMaxMipLsb       = 188;  // resource mip count - 1 (256-bit form)
  localparam int unsigned TsMaxMipW         = 4;

  // ---------------------------------------------------------------------------------------------
  // Data formats (docs/spec.md §1.4)
  // ---------------------------------------------------------------------------------------------

  localparam logic [VsDfmtW-1:0] DfmtInvalid = 4'd0;   // unbound V# (§1.1)

  // ---------------------------------------------------------------------------------------------
  // Multi-texel loads (docs/spec.md §4.3): the table of supported combinations, shared by image_addr
  // and multi_texel so that it exists once.
  // ---------------------------------------------------------------------------------------------

  // 1 when (op, dmask, dfmt, nfmt) is a row of §4.3's table. op: 0 BY2, 1 BY4, 2 PCK2, 3 PCK4;
  // dfmt and nfmt are the T#'s fields at full width (R8, R16, RG8 = 1, 2, 3).
  function automatic logic mt_row_ok(logic [1:0] op, logic [3:0] dmask, logic [5:0] dfmt,
                                     logic [3:0] nfmt);
    logic r8, r16, rg8, by, pck, fl;
    r8  = dfmt == 6'd1;
    r16 = dfmt == 6'd2;
    rg8 = dfmt == 6'd3;
    by  = (nfmt == 4'd0) || (nfmt == 4'd1) || (nfmt == 4'd4) || (nfmt == 4'd5);  // unorm snorm uint sint
    pck = (nfmt == 4'd0) || (nfmt == 4'd4) || (nfmt == 4'd5);                    // unorm uint sint
    fl  = nfmt == 4'd7;                                                           // float
    unique case (op)
      2'd0:    return ((dmask == 4'h3) && r8 && by) || ((dmask == 4'h3) && r16 && (by || fl)) ||
                      ((dmask == 4'hf) && rg8 && by);                            // BY2
      2'd1:    return (dmask == 4'hf) && r8 && by;                               // BY4
      2'd2:    return (dmask == 4'h1) && (r8 || r16 || rg8) && pck;               // PCK2
      default: return (dmask == 4'h1) && r8 && pck;                              // PCK4
    endcase
  endfunction

endpackage : vmem_pkg
/* verilator lint_on UNUSEDPARAM */
