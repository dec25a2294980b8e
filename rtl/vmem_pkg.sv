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
//   mt_op_e, mt_row_ok  the multi-texel op codes and the combination table (docs/spec.md §4.3),
//               for image_addr and multi_texel.
//   d16_op_e    the d16 unit's op codes (docs/spec.md §6), for d16 and vmem_pipe.
//   dwords_t    a unit's result dwords and count (d16, multi_texel, swizzle).
//   pipe_*      what vmem_pipe's sub-blocks exchange, and its port groups (docs/spec.md §14).
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
  localparam int unsigned TsSwModeLsb       = 116;  // swizzle mode: 0 linear, 1/5/9 tiled (§4.5)
  localparam int unsigned TsSwModeW         = 5;
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
  // Multi-texel loads (docs/spec.md §4.3): the op codes and the table of supported combinations,
  // shared by image_addr and multi_texel so that each exists once.
  // ---------------------------------------------------------------------------------------------

  // The units' `op_i` (docs/decisions.md "image_addr", "multi_texel").
  typedef enum logic [1:0] {
    MtOpBy2  = 2'd0,
    MtOpBy4  = 2'd1,
    MtOpPck2 = 2'd2,
    MtOpPck4 = 2'd3
  } mt_op_e;

  // 1 when (op, dmask, dfmt, nfmt) is a row of §4.3's table. dfmt and nfmt are the T#'s fields at
  // full width (R8, R16, RG8 = 1, 2, 3).
  function automatic logic mt_row_ok(mt_op_e op, logic [3:0] dmask, logic [5:0] dfmt,
                                     logic [3:0] nfmt);
    logic r8, r16, rg8, by, pck, fl;
    r8  = dfmt == 6'd1;
    r16 = dfmt == 6'd2;
    rg8 = dfmt == 6'd3;
    by  = (nfmt == 4'd0) || (nfmt == 4'd1) || (nfmt == 4'd4) || (nfmt == 4'd5);  // unorm snorm uint sint
    pck = (nfmt == 4'd0) || (nfmt == 4'd4) || (nfmt == 4'd5);                    // unorm uint sint
    fl  = nfmt == 4'd7;                                                           // float
    unique case (op)
      MtOpBy2:  return ((dmask == 4'h3) && r8 && by) || ((dmask == 4'h3) && r16 && (by || fl)) ||
                       ((dmask == 4'hf) && rg8 && by);
      MtOpBy4:  return (dmask == 4'hf) && r8 && by;
      MtOpPck2: return (dmask == 4'h1) && (r8 || r16 || rg8) && pck;
      default:  return (dmask == 4'h1) && r8 && pck;                             // MtOpPck4
    endcase
  endfunction

  // ---------------------------------------------------------------------------------------------
  // d16 (docs/spec.md §6, docs/decisions.md "d16"): the codes of its op_i, which vmem_pipe's TA
  // (stores) and TD (byte and short loads) drive too.
  // ---------------------------------------------------------------------------------------------

  typedef enum logic [2:0] {
    D16LoadFormat,  D16LoadUbyte, D16LoadSbyte,  D16LoadShort,   // 0 .. 3
    D16StoreFormat, D16StoreByte, D16StoreShort, D16Reserved     // 4 .. 7
  } d16_op_e;

  // ---------------------------------------------------------------------------------------------
  // Result dwords of d16, multi_texel and swizzle: four dwords, dword i at 32i+31:32i, and a count;
  // the dwords at and above the count are 0 (each unit asserts it dword by dword).
  // ---------------------------------------------------------------------------------------------

  typedef struct packed {
    logic [127:0] result;
    logic [2:0]   count;
  } dwords_t;

  // ---------------------------------------------------------------------------------------------
  // SPEC §7 grouping: one definition shared by the coalescer and vmem_pipe's TA step stage
  // (docs/decisions.md "coalescer": lane blocks, straddle, mergeable quads).
  // ---------------------------------------------------------------------------------------------

  localparam int unsigned BlkOffW = 4;               // byte offset in a 16-byte block
  localparam int unsigned BlkW    = AddrW - BlkOffW;  // 44: a block is address bits 47:4

  // The channel of DMASK whose rank among its set bits is j (0 when there is none): a load's
  // result dword j (a PCK load's field), an image store's data dword j.
  function automatic logic [1:0] dmask_channel(logic [3:0] dmask, logic [1:0] j);
    logic [1:0] c;
    logic [2:0] r;
    c = '0;
    r = '0;
    for (int i = 0; i < 4; i++) begin
      if (dmask[i]) begin
        if (r == {1'b0, j}) begin
          c = 2'(i);
        end
        r = r + 3'd1;
      end
    end
    return c;
  endfunction

  // A lane's access of size + 1 bytes (size 0..15) starting at byte `offset` of its first block
  // touches the next block too: offset + size >= 16, the carry out of the 4-bit sum, written as
  // its lookahead (generate g, propagate p) so that it is two gate levels, not an adder.
  function automatic logic blk_straddles(logic [BlkOffW-1:0] offset, logic [3:0] size);
    logic [3:0] g;
    logic [3:1] p;
    g = offset & size;
    p = offset[3:1] | size[3:1];
    return g[3] | (p[3] & g[2]) | (p[3] & p[2] & g[1]) | (p[3] & p[2] & p[1] & g[0]);
  endfunction

  // A quad (four consecutive lanes, element j = lane j of the quad) is mergeable when none of
  // its active lanes straddles and every active lane has the first block of its lowest active
  // lane, i.e. all its active lanes have one first block: every pair compared side by side (no
  // search for the lowest active lane in front of the compares). A quad with no active lane is
  // mergeable.
  function automatic logic quad_mergeable(logic [3:0][BlkW-1:0] block, logic [3:0] straddle,
                                          logic [3:0] active);
    logic [5:0] differ;   // pairs (j, k), j < k, both active, with different blocks
    int unsigned n;
    n = 0;
    for (int j = 0; j < 4; j++) begin
      for (int k = j + 1; k < 4; k++) begin
        differ[n] = active[j] && active[k] && (block[j] != block[k]);
        n = n + 1;
      end
    end
    return ((active & straddle) == 4'd0) && (differ == 6'd0);
  endfunction

  // ---------------------------------------------------------------------------------------------
  // vmem_pipe (docs/spec.md §14, docs/decisions.md "vmem_pipe"): what its sub-blocks
  // (rtl/vmem_pipe_ta.sv, _tcp.sv, _tcp_bank.sv, _td.sv) exchange. Ids 0..InFlight-1 (at most
  // 16) name the instructions in flight; cycle stamps and counters are 16 bits and wrap.
  // ---------------------------------------------------------------------------------------------

  // The pipeline's parameters (rtl/vmem_pipe.sv gives each, docs/decisions.md "vmem_pipe",
  // "Parameters") as one value: the top builds it once from its own with pipe_cfg and passes it
  // whole to the sub-blocks and formal properties that take several of them.
  typedef struct packed {
    int unsigned banks;
    int unsigned lines;
    int unsigned mshrs;
    int unsigned targets;
    int unsigned inflight;
    int unsigned lookup_depth;
    int unsigned return_depth;
    int unsigned l2_depth;
  } pipe_cfg_t;

  function automatic pipe_cfg_t pipe_cfg(int unsigned banks, int unsigned lines, int unsigned mshrs,
                                         int unsigned targets, int unsigned inflight,
                                         int unsigned lookup_depth, int unsigned return_depth,
                                         int unsigned l2_depth);
    pipe_cfg_t c;
    c.banks        = banks;
    c.lines        = lines;
    c.mshrs        = mshrs;
    c.targets      = targets;
    c.inflight     = inflight;
    c.lookup_depth = lookup_depth;
    c.return_depth = return_depth;
    c.l2_depth     = l2_depth;
    return c;
  endfunction

  // vmem_pipe's defaults (its declaration's, docs/decisions.md "vmem_pipe"), which its sub-blocks
  // and formal properties take as theirs.
  localparam pipe_cfg_t PipeCfgDefault = pipe_cfg(4, 64, 16, 8, 16, 4, 32, 2);

  // A TCP bank's index and count widths (rtl/vmem_pipe_tcp_bank.sv; its formal properties declare
  // the bank's state with them too): an index of one of n >= 1 entries, a count 0 .. n.
  function automatic int unsigned pipe_idx_w(int unsigned n);
    return (n > 1) ? $clog2(n) : 1;
  endfunction

  function automatic int unsigned pipe_cnt_w(int unsigned n);
    return $clog2(n + 1);
  endfunction

  localparam logic [1:0] PipeLoad   = 2'd0;   // iss_kind 0 (and 3, treated as a load)
  localparam logic [1:0] PipeStore  = 2'd1;
  localparam logic [1:0] PipeAtomic = 2'd2;

  localparam int unsigned PipeIdW    = 4;     // instruction ids (InFlight <= 16)
  localparam int unsigned PipeMaxIds = 16;
  localparam int unsigned PipeLineW  = 42;    // a 64-byte line: address bits 47:6

  // L2 request kinds (the l2_req_kind_o encoding).
  localparam logic [1:0] L2Read   = 2'd0;
  localparam logic [1:0] L2Write  = 2'd1;
  localparam logic [1:0] L2Atomic = 2'd2;

  // The header fields of an instruction, as its first beat carries them (kind normalised).
  typedef struct packed {
    logic [1:0]   kind;
    logic [4:0]   op;
    logic         wide;
    logic         sized;
    logic [1:0]   access;
    logic [4:0]   bytes;
    logic [2:0]   count;
    logic [3:0]   dfmt;
    logic [2:0]   nfmt;
    logic [11:0]  dst_sel;
    logic [1:0]   d16;
    logic         offen;
    logic         idxen;
    logic         glc;
    logic         tfe;
    logic [11:0]  offset;
    logic [7:0]   vdata;
    logic [31:0]  soffset;
    logic [127:0] vsharp;   // the resource's bits 127:0: the V#, or a T#'s first half
    logic [127:0] rsrc_hi;  // the resource's bits 255:128 (a 256-bit T#'s second half)
    logic         image;
    logic [3:0]   dmask;
    logic         da;
    logic         a16;
    logic         mip;
    logic         r128;
    logic         lds;      // MUBUF lds: a load to the LDS (SPEC §2.5)
    logic [31:0]  m0;       // lds: M0
    logic [8:0]   lds_base; // lds: the wave's LDS allocation, units of 128 bytes
    logic [8:0]   lds_size;
    logic [63:0]  exec;
  } pipe_hdr_t;

  // What IMAGE_GET_RESINFO's results need of its T# (SPEC §4.2, §4.4; docs/decisions.md
  // "Images", GET_RESINFO), derived once as the address stage takes it; 0 for other kinds. A
  // lane's level L comes with its lane (pipe_tdlane_t.old).
  typedef struct packed {
    logic        resinfo;   // IMAGE_GET_RESINFO
    logic [14:0] width0;    // width_field + 1
    logic [14:0] height0;   // height_field + 1; 1 for 1D and 1D arrays
    logic        deep;      // 3D: layers_L = max(1, layers0 >> L); else layers0 at every level
    logic [15:0] layers0;   // d for 3D and arrays, 6d for a cube, else 1 (d = depth_field + 1,
                            // 1 with a 128-bit T#)
    logic [5:0]  levels;    // last_level - base_level + 1, two's complement
  } pipe_resinfo_t;

  // What the TD keeps of an instruction from its take to its done.
  typedef struct packed {
    logic [1:0]  kind;
    logic        glc;
    logic        tfe;
    logic        wide;
    logic        sized;
    logic [1:0]  d16;
    logic [4:0]  bytes;
    logic [3:0]  dfmt;
    logic [2:0]  nfmt;
    logic [11:0] dst_sel;
    logic [3:0]  dmask;     // swizzle's DMASK: an image's (0 as 1), a buffer's (1 << count) - 1
    logic [1:0]  pck;       // image loads: 1 PCK (fields zero-extended), 2 PCK_SGN; 0 otherwise
    logic [7:0]  vdata;
    logic [63:0] exec;
    logic [15:0] t_first;   // cycle of the first beat
    logic [15:0] t_last;    // cycle of the last beat
    pipe_resinfo_t rsi;     // IMAGE_GET_RESINFO's T# fields
    logic        mtx;       // a multi-texel load (IMAGE_LOAD_BY2 .. PCK4 and _MIP, SPEC §4.3)
    logic [1:0]  mtx_op;    // its multi_texel op (0 BY2, 1 BY4, 2 PCK2, 3 PCK4)
    logic [2:0]  mtx_count; // its result dwords R (iss_count_i)
    logic        lds;       // an LDS load: its result dword 0 goes to the LDS port
  } pipe_info_t;

  // What the TD keeps per lane (from the address stage).
  typedef struct packed {
    logic        part;      // takes part in the coalescing (sent requests)
    logic        unbound;   // the V# or T# is unbound
    logic [3:0]  in_range;  // per dword; an image's lane: 4'hf inside the level, else 0
    logic [3:0]  offset;    // address bits 3:0
    logic [31:0] old;       // D16 byte/short loads: the VDATA VGPR's old value; GET_RESINFO:
                            // {level exists, level} in bits 4:0
  } pipe_tdlane_t;

  // One TA -> TCP request.
  typedef struct packed {
    logic         valid;
    logic [47:0]  addr;     // the block's address (bits 3:0 = 0); atomics: the lane's byte address
    logic [15:0]  mask;     // bytes of the block (bit b = byte b)
    logic [127:0] data;     // stores: byte b at 8b+7:8b; atomics: data (dwords 0-1), compare (2-3)
    logic [3:0]   quad;     // the lanes served are 4*quad + j for the set bits j of `lanes`
    logic [3:0]   lanes;
    logic         second;   // the lanes' second block
  } pipe_req_t;

  // One bundle: up to four consecutive requests of one step of one instruction.
  typedef struct packed {
    logic [PipeIdW-1:0] id;
    logic [1:0]         kind;
    logic               glc;
    logic [4:0]         op;
    logic               wide;
    pipe_req_t [3:0]    req;   // valid ones first
  } pipe_bundle_t;

  // What the TD needs of one request of an access: the lanes it serves and where its block is.
  typedef struct packed {
    logic       valid;
    logic [3:0] quad;
    logic [3:0] lanes;
    logic       second;
    logic [1:0] blk;        // the block within the line (address bits 5:4; atomics 0: the value)
  } pipe_rreq_t;

  // One access of a bank (lookup queue entry): a bundle's requests to one line of one bank.
  typedef struct packed {
    logic [PipeIdW-1:0] id;
    logic [1:0]         kind;
    logic               glc;
    logic [4:0]         op;
    logic               wide;
    logic [47:0]        addr;   // the line's address (bits 5:0 = 0); atomics: the byte address
    logic [63:0]        mask;   // stores: the line's bytes written
    logic [511:0]       data;   // stores: the bytes at their positions; atomics: dwords 0-3
    logic [2:0]         nreq;   // its requests (1..4)
    pipe_rreq_t [3:0]   req;    // element r: request r of the bundle, when it is one of this access
  } pipe_acc_t;

  // A return-queue entry and the return register: an access whose data is read for the TD.
  typedef struct packed {
    logic               hit;    // 1: line entry `idx`; 0: MSHR `idx`
    logic [5:0]         idx;
    logic [PipeIdW-1:0] id;
    logic [2:0]         nreq;
    pipe_rreq_t [3:0]   req;
  } pipe_ret_t;

  // An L2 request queue entry.
  typedef struct packed {
    logic [1:0]         kind;   // L2Read, L2Write, L2Atomic
    logic [4:0]         tag;
    logic [47:0]        addr;
    logic [63:0]        mask;
    logic [511:0]       data;
    logic [4:0]         op;
    logic               wide;
    logic               ret;
    logic [PipeIdW-1:0] id;     // the instruction (for its L2 cycles)
  } pipe_l2e_t;

  // A bank's return register as the TD reads it (the bank's rr_o, the TD's rr_i[b]).
  typedef struct packed {
    logic         valid;
    pipe_ret_t    ret;      // 0 while not valid
    logic [511:0] data;     // the line's bytes: the line RAM's read (hits) or the MSHR's row
  } pipe_rr_t;

  // A bank's events of one cycle, for the TCP's counters of the instruction each names (0 where
  // there is no event).
  typedef struct packed {
    logic               head_valid;   // an access is at the lookup-queue head
    logic [PipeIdW-1:0] head_id;      // its instruction
    logic [2:0]         hit;          // requests of the head access that hit
    logic [2:0]         merge;        // ... that merged
    logic [2:0]         miss;         // ... that sent a line read
    logic               mwait;        // the head had an MSHR wait
    logic               l2_acc;       // the L2 accepted a request
    logic [PipeIdW-1:0] l2_acc_id;    // its instruction
    logic               rsp_ok;       // a response that is not ignored arrived
    logic [PipeIdW-1:0] rsp_id;       // the instruction it answers
    logic               ack;          // ... and it acknowledges a posted request
  } pipe_bank_ev_t;

  // The request counts of one instruction, counted by the TCP and reported with its done.
  typedef struct packed {
    logic [15:0] requests;
    logic [15:0] hits;
    logic [15:0] misses;
    logic [15:0] merged;
    logic [15:0] conflicts;
    logic [15:0] mshr_wait;
  } pipe_counts_t;

  // The TCP's counters of one instruction.
  typedef struct packed {
    pipe_counts_t n;
    logic         tcp_any;    // one of its accesses was at a lookup-queue head
    logic [15:0]  tcp_first;  // the first such cycle
    logic [15:0]  tcp_last;   // the last such cycle
    logic         l2_any;     // an L2 request was accepted
    logic [15:0]  l2_first;   // the cycle of the first acceptance
    logic [15:0]  l2_last;    // the cycle of the last response
  } pipe_ctr_t;

  // What the TA tells the TD (and the TCP) as the address stage takes an instruction.
  typedef struct packed {
    logic               valid;
    logic [PipeIdW-1:0] id;
    pipe_info_t         info;
  } pipe_take_t;

  // One group's lane results of the address stage, for the TD.
  typedef struct packed {
    logic                valid;
    logic [PipeIdW-1:0]  id;
    logic [1:0]          group;
    pipe_tdlane_t [15:0] lanes;
  } pipe_res_t;

  // The step stage ends an instruction.
  typedef struct packed {
    logic               valid;
    logic [PipeIdW-1:0] id;
    logic [15:0]        ta;        // its TA cycles
  } pipe_step_end_t;

  // The TCP accepts a bundle: the accesses of it that will return data to the TD.
  typedef struct packed {
    logic               valid;
    logic [PipeIdW-1:0] id;
    logic [2:0]         nret;
  } pipe_acc_ev_t;

  // ---------------------------------------------------------------------------------------------
  // vmem_pipe's port groups (docs/decisions.md "vmem_pipe" gives each port): its flat ports
  // grouped as the sub-blocks take them, each group's fields in port order.
  // ---------------------------------------------------------------------------------------------

  // Issue: iss_valid_i .. iss_data_i (the header's kind normalised).
  typedef struct packed {
    logic              valid;
    logic              last;
    pipe_hdr_t         hdr;
    logic [15:0][31:0] addr;      // lane j's address dword of the beat
    logic [15:0][31:0] data;      // lane j's data dword of the beat
  } pipe_iss_t;

  // L2 request of one channel c: l2_req_valid_o[c] .. l2_req_return_o[c] (data: the channel's
  // 16 dwords of l2_req_data_o).
  typedef struct packed {
    logic              valid;
    logic [1:0]        kind;      // 0 line read, 1 masked line write, 2 atomic
    logic [4:0]        tag;
    logic [47:0]       addr;
    logic [63:0]       mask;      // line writes: the bytes written
    logic [15:0][31:0] data;      // line writes: the line; atomics: data (0-1), compare (2-3)
    logic [4:0]        op;        // atomics
    logic              wide;      // atomics: 64-bit
    logic              ret;       // atomics: returns the value before the operation
  } pipe_l2_req_t;

  // L2 response of one channel c: l2_rsp_valid_i[c], l2_rsp_tag_i[c], the channel's 16 dwords of
  // l2_rsp_data_i.
  typedef struct packed {
    logic              valid;
    logic [4:0]        tag;
    logic [15:0][31:0] data;
  } pipe_l2_rsp_t;

  // VGPR write: vgpr_valid_o .. vgpr_data_o.
  typedef struct packed {
    logic              valid;
    logic [7:0]        addr;
    logic [1:0]        group;
    logic [15:0]       mask;
    logic [15:0][31:0] data;
  } pipe_vgpr_t;

  // LDS write: lds_valid_o .. lds_data_o (LDS loads, docs/decisions.md "LDS loads").
  typedef struct packed {
    logic              valid;
    logic [15:0]       mask;
    logic [15:0][17:0] addr;
    logic [15:0][31:0] data;
  } pipe_lds_t;

  // Done: done_valid_o .. done_mshr_wait_o.
  typedef struct packed {
    logic         valid;
    logic [15:0]  issue;
    logic [15:0]  ta;
    logic [15:0]  tcp;
    logic [15:0]  l2;
    logic [15:0]  td;
    logic [15:0]  total;
    pipe_counts_t n;          // done_requests_o .. done_mshr_wait_o
  } pipe_done_t;

endpackage : vmem_pkg
/* verilator lint_on UNUSEDPARAM */
