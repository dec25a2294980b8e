`ifndef VMEM_VMEM_PIPE_TA_SV  // included by the blocks that instantiate it (see rtl/vmem_pipe.sv)
`define VMEM_VMEM_PIPE_TA_SV
// Copyright gcn-vmem contributors.
//
// vmem_pipe_ta: the TA of vmem_pipe (docs/decisions.md "vmem_pipe"): the issue receiver, the
// address stage and the step stage. Sub-block of rtl/vmem_pipe.sv; its ports are internal.
//
// Issue receiver ("Issue receiver"):
//   Two instruction buffers, written alternately (w = 0, 1, 0, ...) and read by the address
//   stage in the same order. iss_ready_o = 1 when buffer w does not hold a complete instruction
//   (and not during reset nor in the first cycle after it). An accepted beat k of buffer w
//   (k = beats accepted so far) stores address dword k/4 of group k%4 when that dword exists
//   (A = idxen + offen; images: SPEC §4.1's layout, img_addr_dwords) and data dword k/4 when it
//   exists (D, see data_dwords; an image store's k or, D16, ceil(k/2)); the first beat
//   stores the header and its cycle, the beat with iss_last_i its cycle, completes the buffer
//   and moves w. A buffer is freed at the edge that ends the address stage's last cycle on it.
//   Store conversion, sized to the issue bus (a beat's 16 dwords): a format store's beat is
//   packed here (SPEC §5 pack; the element, not the data dwords, is kept): its component of 16
//   lanes (a buffer's: component j = data dword j; an image's: DMASK's channel of rank j; D16
//   format stores, buffer and image: the halves of dword j, components 2j and 2j + 1 below
//   `count`, widened as d16's OP_STORE_FORMAT does: uint/sint extended, else f16 to f32) is
//   registered at the beat's edge (stage 0), goes through vmem_fp_pkg::pack_field (stage 1) and
//   pack_finish (stage 2) into its field of the group's element, written at the second edge
//   after the beat's (the group's first beat writes the whole element, its other fields 0; an
//   invalid format packs to 0). D16_HI byte/short stores keep the data dword's byte 23:16 /
//   short 31:16 as data dword 0. Group g's last data beat is followed by
//   at least 3 - g beats, so the element is in the buffer by the cycle the address stage reads
//   group g (written at the edge that ends last beat - (3 - g) + 2 < a + g, a >= last beat + 1;
//   PackBeforeRead_A).
//
// Address stage ("TA: address stage"):
//   Takes the oldest complete buffer in cycle a when it is idle, fewer than InFlight
//   instructions are in flight (inflight_full_i = 0) and fewer than 2 are held by the step
//   stage (the lane table to be written next is free). Id = instructions taken since reset, mod
//   InFlight. Cycles a .. a+3 feed group g = 0..3 to 16 buffer_addr instances (lds 0, tid = 16g
//   + j, soffset 0: the V#'s base field carries base + soffset, added once per instruction over
//   its second and third beats); the results (two edges) are written into the instruction's
//   lane table and the TD's lane information at the edge that ends a+g+2, so group g is
//   available to the step stage from a+g+3. Store data (a format store's packed element, all
//   four dwords) and atomic operands go through a two-stage register alongside. The lane tables' lanes
//   are a 1R1W register file (vmem_pipe_rf), a row a table's group, read one cycle ahead by the
//   step stage (a row written at the edge it is read is taken from the write data). Per lane:
//   takes part (loads: EXEC, bound, in range; stores: the same, format_valid for format stores,
//   and a non-empty byte mask; atomics: EXEC, bound, in_range[0]); the element's byte mask
//   (`bytes` bytes; stores above 4 bytes: only dwords in range).
//   Images ("Images"): cycles a .. a+15, quad q of group g in a+4g+q, its four lanes' coordinates
//   decoded from the group's address row (img_coords: the executor's decode_vaddr) into four
//   image_addr instances (op 4); the results of quads 0-2 wait in is_*_q for quad 3's, and the
//   group's row is written with those at the edge that ends a+4g+5 (available from a+4g+6). A
//   store's packed element of the whole group goes into the two-stage register with its quad 3
//   (a+4g+3). The buffer is freed at the edge that ends a+15. Per lane:
//   takes part: EXEC and group_valid (stores also format_valid); the element's bytes all of
//   `bytes`; the TD's in_range group_valid for every dword, unbound the T#'s. Never
//   single-component in the step stage. An image atomic (kind 2) takes part without a format
//   condition; its element is its 4 or 8 bytes at the lane's address and its operands (the
//   group's data dwords, taken with its quad 3 into the same two-stage register as a buffer's)
//   are laid out as a buffer atomic's.
//   Multi-texel loads (iss_op 4-7) are image loads whose
//   image_addr op is iss_op - 4 and whose element is the n-texel group (iss_bytes bytes).
//   LDS loads (iss_lds): buffer_addr computes lds_address and lds_in_range too; a lane takes part
//   only with lds_in_range, and its `old` word for the TD is {EXEC and lds_in_range,
//   lds_address}.
//   GET_RESINFO (iss_op 3) goes through as a buffer instruction (four cycles) with no lane
//   taking part, single-component (one empty step a group); each lane's {level exists, level}
//   (base_level + its address dword 0) goes to the TD as its `old` word, the T#'s dimensions
//   with the take (pipe_resinfo_t).
//
// Step stage ("TA: step stage"):
//   One instruction at a time, in order taken. It starts in the first cycle in which group 0 of
//   the next held lane table is available and the previous instruction's last cycle is over.
//   Per group: one step when the access is single-component and all four quads are mergeable
//   (vmem_pkg::quad_mergeable, shared with the coalescer), whose requests are one per quad with
//   a lane taking part; else four steps, one per quad, with the per-lane requests of its lanes
//   (first block, then the second when the access straddles; atomics one request at the lane's
//   byte address). A step's requests go out in bundles of up to four (two for an image atomic
//   with GLC or a compare-swap: lt_hdr_t.narrow, SPEC §15's 2 lanes a cycle), one per cycle;
//   a bundle presented in a cycle is presented again until bnd_ready_i; a step without
//   requests takes one cycle. The edge that ends the last step frees the lane table and
//   reports the instruction's TA cycles (first to last cycle of the step stage, stalls
//   included).
//
// Latency and handshakes are those of the contract; nothing here is visible at vmem_pipe's ports
// except through iss_ready_o and the timing of what follows.
//
// Test hooks: `VMEM_TEST_HOOK(vmem_pipe_brk_ta*), nothing in the design (rtl/vmem_prim_pkg.sv):
// the break-asserts build puts rtl/test/vmem_pipe_brk_ta.svh at the end of the step stage's
// next-state always_comb, and vmem_pipe_brk_ta_ib.svh, _ta_adr.svh, _ta_bnd.svh, _ta_lt.svh at
// the end of the receiver's, the address stage's, the bundle's and the lane tables' always_comb,
// and vmem_pipe_brk_ta_ia.svh at the end of the address rows' read-ahead.
//
// Spec: docs/spec.md §2, §4, §5, §6, §7, §14, §15  Contract: docs/decisions.md "vmem_pipe"


// The modules instantiated here, for a Verilator run given this file alone (lint without
// -y rtl, from the repository root); each file includes once (its guard).
`ifdef VERILATOR
`include "rtl/buffer_addr.sv"
`include "rtl/image_addr.sv"
`include "rtl/vmem_pipe_rf.sv"
`endif

module vmem_pipe_ta
  import vmem_pkg::*;
  import vmem_fp_pkg::f16_to_f32;
  import vmem_fp_pkg::field_val_t;
  import vmem_fp_pkg::fields_t;
  import vmem_fp_pkg::fmt_fields;
  import vmem_fp_pkg::fmt_valid;
  import vmem_fp_pkg::nfmt_e;
  import vmem_fp_pkg::NfmtSint;
  import vmem_fp_pkg::NfmtUint;
  import vmem_fp_pkg::pack_field;
  import vmem_fp_pkg::pack_finish;
#(
  parameter int unsigned InFlight = 16   // instructions in flight (ids 0 .. InFlight-1)
) (
  input  logic                clk_i,
  input  logic                rst_ni,            // async, active low
  input  logic [15:0]         now_i,             // cycle stamp
  // Issue port
  input  pipe_iss_t           iss_i,             // the issue ports, kind normalised
  output logic                iss_ready_o,
  // In-flight limit (from the TD)
  input  logic                inflight_full_i,
  // The address stage takes an instruction
  output pipe_take_t          take_o,
  // One group's lane results, for the TD
  output pipe_res_t           res_o,
  // Bundles to the TCP
  output logic                bnd_valid_o,
  output pipe_bundle_t        bnd_o,
  input  logic                bnd_ready_i,
  // The step stage ends an instruction
  output pipe_step_end_t      step_end_o
);

  localparam int unsigned GroupLanes = 16;

  // Atomic ops with a compare operand (rust/exec/atomics.rs: Cmpswap 1, Fcmpswap 14).
  localparam logic [4:0] OpCmpswap  = 5'd1;
  localparam logic [4:0] OpFcmpswap = 5'd14;

  // What the step stage and the result write keep of an instruction (per lane table).
  typedef struct packed {
    logic [PipeIdW-1:0] id;
    logic [1:0]  kind;
    logic        sized;
    logic        single;     // SPEC §7 single-component
    logic        glc;
    logic        wide;
    logic [4:0]  op;
    logic [4:0]  bytes;
    logic [3:0]  size;       // bytes - 1 (4 bits), for the step's straddle test
    logic [63:0] exec;
    logic        tunbound;   // an image's T# is unbound (SPEC §1.2)
    logic        narrow;     // bundles of at most two requests: an image atomic with GLC or a
                             // compare-swap (SPEC §15: 2 lanes a cycle); else four
    logic        resinfo;    // IMAGE_GET_RESINFO: no lane takes part
    logic        lds;        // an LDS load (MUBUF lds)
    logic        fmt_ok;     // format_valid(dfmt, nfmt) (a format store's lanes take part)
  } lt_hdr_t;

  // One lane of a lane table.
  typedef struct packed {
    logic [47:0]  addr;
    logic         part;
    logic [15:0]  mask;   // the element's bytes (bit i = element byte i)
    logic [127:0] data;   // stores: the element; atomics: data (dwords 0-1), compare (2-3)
  } lt_lane_t;

  // A unit-latency tag: which buffer/table and group a result belongs to.
  typedef struct packed {
    logic       valid;
    logic       img;      // an image instruction's group (address stage)
    logic       opnd;     // ... an image atomic's or store's (its operands or element ride in
                          // dp1_q/dp2_q)
    logic       sel;      // buffer (receiver) or lane table (address stage)
    logic [1:0] group;
  } tag_t;

  // An image quad in image_addr: which quad of the group (address stage).
  typedef struct packed {
    logic       valid;
    logic [1:0] quad;
  } qtag_t;

  // One lane's image coordinates (SPEC §4.1), image_addr's x, y, slice and mipid.
  typedef struct packed {
    logic [31:0] x;
    logic [31:0] y;
    logic [31:0] slice;
    logic [31:0] mipid;
  } img_coord_t;

  // T# types with an address layout (SPEC §1.2, §4.1).
  localparam logic [TsTypeW-1:0] Ty1d          = 4'd8;
  localparam logic [TsTypeW-1:0] Ty2d          = 4'd9;
  localparam logic [TsTypeW-1:0] Ty3d          = 4'd10;
  localparam logic [TsTypeW-1:0] TyCube        = 4'd11;
  localparam logic [TsTypeW-1:0] Ty1dArray     = 4'd12;
  localparam logic [TsTypeW-1:0] Ty2dArray     = 4'd13;
  localparam logic [TsTypeW-1:0] Ty2dMsaaArray = 4'd15;

  ///////////////
  // Functions //
  ///////////////

  // A compare-swap: its lanes carry a compare operand after the data operand.
  function automatic logic is_cmp(logic [4:0] op);
    return (op == OpCmpswap) || (op == OpFcmpswap);
  endfunction

  // Address dwords per lane: idxen + offen.
  function automatic logic [2:0] addr_dwords(logic idxen, logic offen);
    return {2'b00, idxen} + {2'b00, offen};
  endfunction

  // SPEC §4.1's layout of an image's address components (the executor's decode_vaddr): x; y for
  // 2D, 3D, cube and 2D array; a third (3D's z and a cube's face_id always, else a slice with DA:
  // an array's, or on 1D and 2D one read and ignored); mipid for the _MIP forms. Types 8 .. 13
  // have a layout (below 8 unbound, 14 and 15 MSAA: none).
  function automatic logic img_layout(logic [TsTypeW-1:0] ty);
    return (ty >= Ty1d) && (ty <= Ty2dArray);
  endfunction

  function automatic logic img_has_y(logic [TsTypeW-1:0] ty);
    return (ty == Ty2d) || (ty == Ty3d) || (ty == TyCube) || (ty == Ty2dArray);
  endfunction

  function automatic logic img_has_third(logic [TsTypeW-1:0] ty, logic da);
    return (ty == Ty3d) || (ty == TyCube) || da;
  endfunction

  // An image's address dwords per lane (A): its components, two per dword with A16; 1 for a type
  // without a layout.
  function automatic logic [2:0] img_addr_dwords(logic [TsTypeW-1:0] ty, logic da, logic mip,
                                                 logic a16);
    logic [2:0] n;
    n = 3'd1 + {2'b00, img_has_y(ty)} + {2'b00, img_has_third(ty, da)} + {2'b00, mip};
    if (!img_layout(ty)) begin
      n = 3'd1;
    end else if (a16) begin
      n = (n + 3'd1) >> 1;
    end
    return n;
  endfunction

  // v mod 6 (a cube's face, face_id with DA = 0) = 2 ((v >> 1) mod 3) + v[0]; w mod 3 adds w's
  // base-4 digits (4 = 1 mod 3) and folds the sum twice.
  function automatic logic [2:0] mod6(logic [31:0] v);
    logic [31:0] w;
    logic [5:0]  s;
    logic [3:0]  t;
    logic [2:0]  u;
    w = {1'b0, v[31:1]};
    s = '0;
    for (int i = 0; i < 16; i++) begin
      s = s + {4'd0, w[2*i +: 2]};
    end
    t = {2'b00, s[1:0]} + {2'b00, s[3:2]} + {2'b00, s[5:4]};   // <= 9
    u = {1'b0, t[1:0]} + {1'b0, t[3:2]};                     // <= 5
    u = (u >= 3'd3) ? u - 3'd3 : u;
    return {u[1:0], v[0]};
  endfunction

  // One lane's coordinates from its address dwords (the executor's decode_vaddr): component i
  // is dword i, or with A16 half i mod 2 of dword i / 2 (low half first), zero-extended; a cube's
  // slice is face_id with DA = 1 and face_id mod 6 with DA = 0; components the layout lacks, and
  // every one of a type without a layout, 0.
  function automatic img_coord_t img_coords(logic [TsTypeW-1:0] ty, logic da, logic mip,
                                            logic a16, logic [3:0][31:0] dw);
    logic [3:0][31:0] comp;
    logic             hy, h3;
    logic [1:0]       i3, im;
    img_coord_t       c;
    for (int i = 0; i < 4; i++) begin
      comp[i] = a16 ? {16'd0, dw[i / 2][16*(i % 2) +: 16]} : dw[i];
    end
    hy = img_has_y(ty);
    h3 = img_has_third(ty, da);
    i3 = 2'd1 + {1'b0, hy};
    im = i3 + {1'b0, h3};
    c       = '0;
    c.x     = comp[0];
    c.y     = hy ? comp[1] : 32'd0;
    c.mipid = mip ? comp[im] : 32'd0;
    unique case (ty)
      Ty3d:                 c.slice = comp[2];
      TyCube:               c.slice = da ? comp[2] : {29'd0, mod6(comp[2])};
      Ty1dArray, Ty2dArray: c.slice = da ? comp[i3] : 32'd0;
      default:              c.slice = 32'd0;
    endcase
    if (!img_layout(ty)) begin
      c = '0;
    end
    return c;
  endfunction

  // IMAGE_GET_RESINFO ("Images", GET_RESINFO): an image load with iss_op 3. It goes through the
  // address stage as a buffer instruction does (four cycles, a group a cycle) and the step stage
  // as a single-component one with no lane taking part (one empty step a group).
  localparam logic [4:0] ImgOpResinfo = 5'd3;

  function automatic logic is_resinfo(logic image, logic [1:0] kind, logic [4:0] op);
    return image && (kind == PipeLoad) && (op == ImgOpResinfo);
  endfunction

  // The multi-texel loads ("Images", Multi-texel loads): an image load with iss_op 4 + the
  // multi_texel op (4 BY2, 5 BY4, 6 PCK2, 7 PCK4). image_addr takes op iss_op - 4 (its n-texel
  // group, aligned, bounds for the unaligned x); the element is the group's iss_bytes bytes.
  function automatic logic is_multi_texel(logic image, logic [1:0] kind, logic [4:0] op);
    return image && (kind == PipeLoad) && (op >= 5'd4) && (op <= 5'd7);
  endfunction

  // D16 format store: the halves are widened before the pack (executor: D16::Lo on a FORMAT
  // store).
  function automatic logic is_d16_fmt_store(logic [1:0] kind, logic sized, logic [1:0] d16);
    return (kind == PipeStore) && !sized && (d16 == 2'd1);
  endfunction

  // D16_HI byte/short store: the byte / short of the high half is stored.
  function automatic logic is_d16_hi_store(logic [1:0] kind, logic sized, logic [1:0] d16,
                                           logic [4:0] bytes);
    return (kind == PipeStore) && sized && (d16 == 2'd2) && (bytes <= 5'd2);
  endfunction

  // Data dwords per lane (docs/decisions.md "vmem_pipe", *Beats*), at most 4.
  function automatic logic [2:0] data_dwords(logic [1:0] kind, logic [4:0] op, logic wide,
                                             logic sized, logic [4:0] bytes, logic [2:0] count,
                                             logic [1:0] d16);
    logic [2:0] d;
    d = 3'd0;
    unique case (kind)
      PipeStore: begin
        if (sized) begin
          d = (bytes <= 5'd4) ? 3'd1 : 3'(bytes[4:2]);
        end else if (d16 == 2'd1) begin
          d = (count + 3'd1) >> 1;
        end else begin
          d = count;
        end
      end
      PipeAtomic: begin
        d = (wide ? 3'd2 : 3'd1) << is_cmp(op);
      end
      default: begin
        // Loads: D16 byte/short loads carry the VDATA VGPR's old value.
        d = (sized && (d16 != 2'd0) && (bytes <= 5'd2)) ? 3'd1 : 3'd0;
      end
    endcase
    return (d > 3'd4) ? 3'd4 : d;
  endfunction

  //////////////////////
  // Issue receiver   //
  //////////////////////

  logic             alive_q;                    // 0 in reset and the first cycle after it
  logic             ib_w_q, ib_w_d;             // buffer being written
  logic             ib_r_q, ib_r_d;             // oldest buffer for the address stage
  logic [1:0]       ib_full_q, ib_full_d;       // holds a complete instruction
  logic [1:0][4:0]  ib_beats_q, ib_beats_d;     // beats accepted
  pipe_hdr_t [1:0]  ib_hdr_q, ib_hdr_d;
  logic [1:0][15:0] ib_tfirst_q, ib_tfirst_d;
  logic [1:0][15:0] ib_tlast_q, ib_tlast_d;
  // base + soffset, once per instruction: the lanes' buffer_addr instances add the rest (SPEC §2:
  // soffset is in the address, not in the range check). From the stored header, in two halves:
  // bits 23:0 and their carry at the instruction's second beat, bits 47:24 at its third (every
  // instruction has at least four beats).
  localparam int unsigned BaseLoW = VsBaseW / 2;
  logic [1:0][VsBaseW-1:0] ib_base_q, ib_base_d;
  logic [1:0]              ib_base_cy_q, ib_base_cy_d;

  // Operand storage (no reset: a dword is read only after the beat that wrote it).
  // Address dwords: a 1R1W register file per dword (vmem_pipe_rf, rows {buffer, group} of 16
  // lanes; dwords 2 and 3 only images have), written by the beats and read one cycle ahead by the
  // address stage, a group's row once for the cycles it works on the group. No bypass: the
  // address stage reads group g at least 3 - g cycles after its last address beat, and the
  // last beat, the only one in the cycle before a take, is of group 3.
  // Data dwords: registers written by constant index: each beat writes one (buffer, dword, group)
  // row of 16 lanes, and a format store's pack writes bits of a group's four rows (a field each
  // beat, read-modify-write), so not a one-port register file.
  logic [1:0][3:0][3:0][GroupLanes-1:0][31:0] ib_data_q;   // [buffer][data dword][group][lane]
  logic [3:0]                       ia_we;                 // address dword j of the beat
  logic [2:0]                       ia_waddr;
  logic                             ia_re;                 // read row ia_raddr at this edge
  logic                             ia_re_hi;              // ... of dwords 2 and 3 too (images)
  logic [2:0]                       ia_raddr;
  logic [3:0][GroupLanes-1:0][31:0] ia_rdata;              // [address dword][lane]

  logic       beat;
  logic [4:0] bk;          // beat index within the instruction
  logic [1:0] bj;          // its dword
  logic [1:0] bg;          // its group
  pipe_hdr_t  bh;          // the header of the instruction being received
  logic [2:0] b_a, b_d;    // its address / data dwords

  // Receive-side store conversion: a format store's beat, packed (two stages) into the group's
  // element.
  typedef struct packed {
    logic       valid;
    logic       sel;        // buffer
    logic [1:0] group;
    logic       clear;      // the group's first beat: every other element bit 0
    logic [3:0] dfmt;
    logic [2:0] nfmt;
    logic [1:0] present;    // [slot] a component of a valid format
    logic [1:0][1:0] comp;  // [slot] which
  } pk_tag_t;
  logic                          pk_store;   // the beat is a format store's
  logic                          pk_d16;     // ... D16: the beat's two halves
  pk_tag_t                       pk0_d, pk0_q, pk1_q;
  logic [15:0][1:0][31:0]        pk0_c_d, pk0_c_q;     // [lane][slot] the component (widened)
  field_val_t [15:0][1:0]        pk1_fv_d, pk1_fv_q;   // [lane][slot] stage 1 of its field
  logic [15:0][127:0]            pk2_v, pk2_m;         // the element bits written, and which
  logic [31:0]                   hi_v [16];            // D16_HI byte/short stores: data dword 0

  // Address stage (declared here: the receiver frees its buffer).
  logic       adr_busy_q, adr_busy_d;
  logic [1:0] adr_g_q, adr_g_d;
  logic       adr_buf_q, adr_buf_d;
  logic       adr_tab_q, adr_tab_d;
  logic [1:0] adr_q_q, adr_q_d;   // an image's quad of group adr_g_q (0 for buffers)
  logic       adr_free;    // the address stage's last cycle on buffer adr_buf_q

  assign iss_ready_o = alive_q & ~ib_full_q[ib_w_q];

  always_comb begin
    beat = iss_i.valid & iss_ready_o;
    bk   = ib_beats_q[ib_w_q];
    bj   = bk[3:2];
    bg   = bk[1:0];
    bh   = (bk == 5'd0) ? iss_i.hdr : ib_hdr_q[ib_w_q];
    b_a  = is_resinfo(bh.image, bh.kind, bh.op) ? 3'd1
         : bh.image     ? img_addr_dwords(bh.vsharp[TsTypeLsb +: TsTypeW], bh.da, bh.mip, bh.a16)
                        : addr_dwords(bh.idxen, bh.offen);
    b_d  = data_dwords(bh.kind, bh.op, bh.wide, bh.sized, bh.bytes, bh.count, bh.d16);

    // Format stores: the beat's component of 16 lanes (a buffer's: component j = the beat's
    // data dword; an image's: DMASK's channel of rank j; D16: the halves of dword j, components
    // 2j and 2j + 1 below `count`, widened as d16's OP_STORE_FORMAT does) into stage 0's
    // register; stage 1 packs it into its field (pack_field), stage 2 places it (pack_finish).
    pk_store = beat && (bh.kind == PipeStore) && !bh.sized && ({1'b0, bj} < b_d);
    pk_d16   = is_d16_fmt_store(bh.kind, bh.sized, bh.d16);
    pk0_d    = '{valid: pk_store, sel: ib_w_q, group: bg, clear: bj == 2'd0, dfmt: bh.dfmt,
                 nfmt: bh.nfmt, present: '0, comp: '0};
    for (int h = 0; h < 2; h++) begin
      if (pk_d16) begin
        pk0_d.comp[h]    = {bj[0], 1'(h)};
        pk0_d.present[h] = {1'b0, bj[0], 1'(h)} < bh.count;   // count <= 4: bj <= 1
      end else if (h == 0) begin
        pk0_d.comp[h]    = bh.image ? dmask_channel(bh.dmask, bj) : bj;
        pk0_d.present[h] = 1'b1;
      end
      pk0_d.present[h] = pk0_d.present[h] & fmt_valid(bh.dfmt, bh.nfmt);
    end
    for (int l = 0; l < GroupLanes; l++) begin
      for (int h = 0; h < 2; h++) begin
        logic [15:0] half;
        half = iss_i.data[l][16*h +: 16];
        unique case (nfmt_e'(bh.nfmt))
          NfmtUint: pk0_c_d[l][h] = pk_d16 ? {16'd0, half} : iss_i.data[l];
          NfmtSint: pk0_c_d[l][h] = pk_d16 ? {{16{half[15]}}, half} : iss_i.data[l];
          default:  pk0_c_d[l][h] = pk_d16 ? f16_to_f32(half) : iss_i.data[l];
        endcase
      end
      // D16_HI byte/short stores: the byte (bits 23:16) or short (31:16) of the data dword.
      hi_v[l] = (bh.bytes == 5'd1) ? {24'd0, iss_i.data[l][23:16]} : {16'd0, iss_i.data[l][31:16]};
    end

    ib_w_d      = ib_w_q;
    ib_full_d   = ib_full_q;
    ib_beats_d  = ib_beats_q;
    ib_hdr_d    = ib_hdr_q;
    ib_tfirst_d = ib_tfirst_q;
    ib_tlast_d  = ib_tlast_q;
    ib_base_d    = ib_base_q;
    ib_base_cy_d = ib_base_cy_q;
    if (adr_free) begin
      ib_full_d[adr_buf_q]  = 1'b0;
      ib_beats_d[adr_buf_q] = '0;
    end
    if (beat) begin
      ib_beats_d[ib_w_q] = (bk == 5'd31) ? bk : bk + 5'd1;
      if (bk == 5'd0) begin
        ib_hdr_d[ib_w_q]    = iss_i.hdr;
        ib_tfirst_d[ib_w_q] = now_i;
      end
      if (bk == 5'd1) begin
        {ib_base_cy_d[ib_w_q], ib_base_d[ib_w_q][BaseLoW-1:0]} =
            (BaseLoW + 1)'(ib_hdr_q[ib_w_q].vsharp[VsBaseLsb +: BaseLoW]) +
            (BaseLoW + 1)'(ib_hdr_q[ib_w_q].soffset[BaseLoW-1:0]);
      end
      if (bk == 5'd2) begin
        ib_base_d[ib_w_q][VsBaseW-1:BaseLoW] =
            ib_hdr_q[ib_w_q].vsharp[VsBaseLsb + BaseLoW +: VsBaseW - BaseLoW] +
            (VsBaseW - BaseLoW)'(ib_hdr_q[ib_w_q].soffset[31:BaseLoW]) +
            (VsBaseW - BaseLoW)'(ib_base_cy_q[ib_w_q]);
      end
      if (iss_i.last) begin
        ib_full_d[ib_w_q]  = 1'b1;
        ib_tlast_d[ib_w_q] = now_i;
        ib_w_d             = ~ib_w_q;
      end
    end
    `VMEM_TEST_HOOK(vmem_pipe_brk_ta_ib)  // test builds only (see the contract above)
  end

  // Stage 1: each slot's component packed (an absent one, or an invalid format's, gives 0).
  always_comb begin
    fields_t f;
    f = fmt_fields(pk0_q.dfmt);
    for (int l = 0; l < GroupLanes; l++) begin
      for (int h = 0; h < 2; h++) begin
        pk1_fv_d[l][h] = pk0_q.present[h]
                       ? pack_field(pk0_c_q[l][h], f[pk0_q.comp[h]].width, nfmt_e'(pk0_q.nfmt))
                       : '0;
      end
    end
  end

  // Stage 2: each slot's field at its place; the group's first beat writes the whole element.
  always_comb begin
    fields_t     f;
    logic [31:0] fm;   // a field's w low ones
    f  = fmt_fields(pk1_q.dfmt);
    fm = '0;
    for (int l = 0; l < GroupLanes; l++) begin
      pk2_v[l] = '0;
      pk2_m[l] = pk1_q.clear ? '1 : '0;
      for (int h = 0; h < 2; h++) begin
        if (pk1_q.present[h]) begin
          pk2_v[l] = pk2_v[l] | (128'(pack_finish(pk1_fv_q[l][h], f[pk1_q.comp[h]].width))
                                 << f[pk1_q.comp[h]].lsb);
          fm       = 32'((33'd1 << f[pk1_q.comp[h]].width) - 33'd1);
          pk2_m[l] = pk2_m[l] | (128'(fm) << f[pk1_q.comp[h]].lsb);
        end
      end
    end
  end

  // The stages' data (no reset: read only with their tags' valid).
  always_ff @(posedge clk_i) begin
    if (pk0_d.valid) begin
      pk0_c_q <= pk0_c_d;
    end
    if (pk0_q.valid) begin
      pk1_fv_q <= pk1_fv_d;
    end
  end

  `VMEM_FF(alive_q, 1'b1, 1'b0)
  `VMEM_FF(ib_w_q, ib_w_d, 1'b0)
  `VMEM_FF(ib_full_q, ib_full_d, '0)
  `VMEM_FF(ib_beats_q, ib_beats_d, '0)
  `VMEM_FF(ib_hdr_q, ib_hdr_d, '0)
  `VMEM_FF(ib_tfirst_q, ib_tfirst_d, '0)
  `VMEM_FF(ib_tlast_q, ib_tlast_d, '0)
  `VMEM_FF(ib_base_q, ib_base_d, '0)
  `VMEM_FF(ib_base_cy_q, ib_base_cy_d, '0)
  `VMEM_FF(pk0_q, pk0_d, '0)
  `VMEM_FF(pk1_q, pk0_q, '0)

  assign ia_waddr = {ib_w_q, bg};
  for (genvar j = 0; j < 4; j++) begin : g_ia
    // The beat's address dword bj of group bg, into buffer ib_w_q.
    assign ia_we[j] = beat && (bj == 2'(j)) && ({1'b0, bj} < b_a);
    vmem_pipe_rf #(.Depth(8), .Width(GroupLanes * 32)) u_addr (
      .clk_i,
      .we_i    (ia_we[j]),
      .waddr_i (ia_waddr),
      .wdata_i (iss_i.addr),
      .re_i    ((j < 2) ? ia_re : ia_re_hi),
      .raddr_i (ia_raddr),
      .rdata_o (ia_rdata[j])
    );
  end

  always_ff @(posedge clk_i) begin
    for (int s = 0; s < 2; s++) begin
      for (int g = 0; g < 4; g++) begin
        // The beat's data dword bj of group bg, into buffer ib_w_q (a format store's beats
        // write its element through the pack instead).
        if (beat && !pk_store && (ib_w_q == 1'(s)) && (bg == 2'(g))) begin
          for (int i = 0; i < 4; i++) begin
            if ((bj == 2'(i)) && ({1'b0, bj} < b_d)) begin
              ib_data_q[s][i][g] <= iss_i.data;
              if (is_d16_hi_store(bh.kind, bh.sized, bh.d16, bh.bytes)) begin
                for (int l = 0; l < GroupLanes; l++) begin
                  ib_data_q[s][i][g][l] <= hi_v[l];
                end
              end
            end
          end
        end
        // A format store's packed fields, into the group's element (no beat writes there then).
        if (pk1_q.valid && (pk1_q.sel == 1'(s)) && (pk1_q.group == 2'(g))) begin
          for (int i = 0; i < 4; i++) begin
            for (int l = 0; l < GroupLanes; l++) begin
              ib_data_q[s][i][g][l] <= (ib_data_q[s][i][g][l] & ~pk2_m[l][32*i +: 32]) |
                                       (pk2_v[l][32*i +: 32] & pk2_m[l][32*i +: 32]);
            end
          end
        end
      end
    end
  end

  ///////////////////
  // Address stage //
  ///////////////////

  logic             take;
  logic [PipeIdW-1:0] take_cnt_q, take_cnt_d;  // instructions taken, mod InFlight: the next id
  logic             lt_w_q, lt_w_d;           // lane table written next
  logic [1:0]       lt_held_q, lt_held_d;     // taken and not yet stepped to the end
  logic [1:0][3:0]  lt_avail_q, lt_avail_d;   // group g's results are in the table
  lt_hdr_t [1:0]    lt_hdr_q, lt_hdr_d;

  // The lanes of the two lane tables: a 1R1W register file (vmem_pipe_rf) of 2 x 4 rows, row
  // {table, group} holding the group's 16 lanes, written by the results a row a cycle and read
  // by the step stage one cycle ahead (the row its next cycle works on). A row read at the edge
  // that writes it comes from the write data instead (lt_byp_q): the step stage may work on a
  // group in the cycle after its results are written.
  localparam int unsigned LtRowW = GroupLanes * $bits(lt_lane_t);
  logic                       lt_we;
  logic [2:0]                 lt_waddr;
  logic                       lt_re;
  logic [2:0]                 lt_raddr;
  logic [LtRowW-1:0]          lt_rdata;
  logic                       lt_byp_q, lt_byp_d;
  lt_lane_t [GroupLanes-1:0]  lt_byp_row_q;

  logic             fd_valid;                 // a group (a buffer's) or quad (an image's) is fed
  logic             fd_buf;
  logic             fd_tab;
  logic [1:0]       fd_group;
  logic [1:0]       fd_quad;                  // an image's quad of the group; 0 for buffers
  logic             fd_img;                   // an image instruction (GET_RESINFO not)
  logic             fd_res;                   // IMAGE_GET_RESINFO
  logic [15:0][32:0] fd_lvl;                  // its lanes' level, base_level + mipid (exact)
  logic [15:0]       fd_lvl_ok;               // ... and whether that level exists
  pipe_hdr_t        fd_hdr;
  tag_t             rp1_d, rp1_q, rp2_q;      // results: valid two edges after feeding the
                                              // group (an image's: its last quad)
  qtag_t            iq1_d, iq1_q, iq2_q;      // an image quad in image_addr (two edges)

  logic [15:0][31:0]  ba_index, ba_offset;
  logic [15:0][127:0] fd_raw;                 // the lane's data dwords (below D, else 0)
  logic [15:0][127:0] dp1_q, dp1_d, dp2_q, dp2_d;
  logic [127:0]       fd_vsharp;              // the V#, base + soffset in its base field
  logic               fd_fmt;                 // a format store: its element is packed
  logic [2:0]         fd_d;                   // data dwords of the instruction fed

  logic [15:0]        ba_valid;
  logic [15:0][47:0]  ba_address;
  logic [15:0][3:0]   ba_in_range;
  logic [15:0]        ba_unbound;
  logic [15:0]        ba_illegal;
  logic [15:0][17:0]  ba_lds_address;
  logic [15:0]        ba_lds_in_range;

  // Images: four image_addr instances, lane j of the quad fed (one per lane of the quad).
  img_coord_t [3:0]   ix_coord;
  logic [3:0]         ix_valid;
  logic [3:0]         ix_level_ok;
  logic [3:0][3:0]    ix_level;
  logic [3:0][14:0]   ix_width;
  logic [3:0][14:0]   ix_height;
  logic [3:0][15:0]   ix_layers;
  logic [3:0][16:0]   ix_pitch;
  logic [3:0][31:0]   ix_xa;
  logic [3:0]         ix_gv;
  logic [3:0][47:0]   ix_address;
  logic [3:0]         ix_illegal;
  // Quads 0-2 of the group in image_addr, kept until its quad 3's results show (no reset:
  // written before they are read), and the group's 16 lanes: those and quad 3's.
  logic [2:0][3:0][47:0] is_addr_q;
  logic [2:0][3:0]       is_gv_q;
  logic [15:0][47:0]     ir_addr;
  logic [15:0]           ir_gv;

  // Single-component (SPEC §7): sized loads/stores of at most 4 bytes, FORMAT accesses with one
  // component of at most 4 bytes; never atomics.
  // Images never.
  function automatic logic is_single(logic [1:0] kind, logic sized, logic [4:0] bytes,
                                     logic [2:0] count, logic image);
    return !image && (kind != PipeAtomic) && (bytes <= 5'd4) && (sized || (count == 3'd1));
  endfunction

  always_comb begin
    take = ~adr_busy_q & ib_full_q[ib_r_q] & ~inflight_full_i & ~lt_held_q[lt_w_q];

    fd_valid = take | adr_busy_q;
    fd_buf   = take ? ib_r_q : adr_buf_q;
    fd_tab   = take ? lt_w_q : adr_tab_q;
    fd_group = take ? 2'd0 : adr_g_q;
    fd_quad  = take ? 2'd0 : adr_q_q;
    fd_hdr   = ib_hdr_q[fd_buf];
    fd_res   = is_resinfo(fd_hdr.image, fd_hdr.kind, fd_hdr.op);
    fd_img   = fd_hdr.image & ~fd_res;
    fd_vsharp                          = fd_hdr.vsharp;
    fd_vsharp[VsBaseLsb +: VsBaseW]    = ib_base_q[fd_buf];
    fd_fmt   = (fd_hdr.kind == PipeStore) && !fd_hdr.sized;
    fd_d     = data_dwords(fd_hdr.kind, fd_hdr.op, fd_hdr.wide, fd_hdr.sized, fd_hdr.bytes,
                           fd_hdr.count, fd_hdr.d16);
    for (int l = 0; l < GroupLanes; l++) begin
      ba_index[l]  = fd_hdr.idxen ? ia_rdata[0][l] : 32'd0;
      ba_offset[l] = !fd_hdr.offen ? 32'd0 : ia_rdata[fd_hdr.idxen][l];
      // A format store's element (packed as its beats came) is all four dwords.
      for (int i = 0; i < 4; i++) begin
        fd_raw[l][32*i +: 32]  = ((3'(i) < fd_d) || fd_fmt)
                               ? ib_data_q[fd_buf][i][fd_group][l] : 32'd0;
      end
    end
    // GET_RESINFO: each lane's level L = base_level + mipid (its address dword 0), exact, and
    // whether it exists (SPEC §4.2: L <= last_level and, 256-bit T#, L <= max_mip); {ok, L}
    // goes to the TD as the lane's `old` word through the data dwords' two-stage register.
    for (int l = 0; l < GroupLanes; l++) begin
      fd_lvl[l]    = {1'b0, ia_rdata[0][l]} + 33'(fd_hdr.vsharp[TsBaseLevelLsb +: TsBaseLevelW]);
      fd_lvl_ok[l] = (fd_lvl[l] <= 33'(fd_hdr.vsharp[TsLastLevelLsb +: TsLastLevelW])) &&
                     (fd_hdr.r128 ||
                      (fd_lvl[l] <= 33'(fd_hdr.rsrc_hi[TsMaxMipLsb - TsHiLsb +: TsMaxMipW])));
      if (fd_res) begin
        fd_raw[l] = {123'd0, fd_lvl_ok[l], fd_lvl[l][3:0]};
      end
    end

    // The lanes of the quad fed to image_addr, from the group's address row.
    for (int j = 0; j < 4; j++) begin
      logic [3:0][31:0] dw;
      for (int d = 0; d < 4; d++) begin
        dw[d] = ia_rdata[d][{fd_quad, 2'(j)}];
      end
      ix_coord[j] = img_coords(fd_hdr.vsharp[TsTypeLsb +: TsTypeW], fd_hdr.da, fd_hdr.mip,
                               fd_hdr.a16, dw);
    end

    // The lanes' data dwords, two edges alongside the units: a buffer's group as it is fed; an
    // image atomic's or store's whole group (its operands, its packed element) with its last
    // quad. Image loads leave the registers.
    dp1_d = (fd_valid && (!fd_img || ((fd_hdr.kind != PipeLoad) && (fd_quad == 2'd3))))
          ? fd_raw : dp1_q;
    dp2_d = (rp1_q.valid && (!rp1_q.img || rp1_q.opnd)) ? dp1_q : dp2_q;

    adr_busy_d = adr_busy_q;
    adr_g_d    = adr_g_q;
    adr_buf_d  = adr_buf_q;
    adr_tab_d  = adr_tab_q;
    ib_r_d     = ib_r_q;
    take_cnt_d = take_cnt_q;
    adr_q_d    = adr_q_q;
    // A buffer's last cycle is its group 3's, an image's its group 3's quad 3's.
    adr_free   = adr_busy_q && (adr_g_q == 2'd3) && (!fd_img || (adr_q_q == 2'd3));
    if (take) begin
      adr_busy_d = 1'b1;
      adr_g_d    = fd_img ? 2'd0 : 2'd1;
      adr_q_d    = fd_img ? 2'd1 : 2'd0;
      adr_buf_d  = ib_r_q;
      adr_tab_d  = lt_w_q;
      ib_r_d     = ~ib_r_q;
      take_cnt_d = (32'(take_cnt_q) == InFlight - 1) ? '0 : take_cnt_q + PipeIdW'(1);
    end else if (adr_busy_q) begin
      if (fd_img) begin
        adr_q_d = adr_q_q + 2'd1;
        adr_g_d = (adr_q_q == 2'd3) ? adr_g_q + 2'd1 : adr_g_q;
      end else begin
        adr_g_d = adr_g_q + 2'd1;
      end
      adr_busy_d = ~adr_free;
    end
    rp1_d = '{valid: fd_valid && (!fd_img || (fd_quad == 2'd3)), img: fd_img,
              opnd: fd_img && (fd_hdr.kind != PipeLoad), sel: fd_tab, group: fd_group};
    iq1_d = '{valid: fd_valid && fd_img, quad: fd_quad};
    `VMEM_TEST_HOOK(vmem_pipe_brk_ta_adr)  // test builds only (see the contract above)
  end

  // The address row the address stage feeds next cycle: its next group (an image's in the cycle
  // of the group's quad 0; the row read holds for quads 1-3), or group 0 of the oldest buffer,
  // complete, when it is idle then (a take may come). Dwords 2 and 3 for images only.
  always_comb begin
    ia_re    = adr_busy_d ? (adr_q_d == 2'd0) : ib_full_d[ib_r_d];
    ia_raddr = adr_busy_d ? {adr_buf_d, adr_g_d} : {ib_r_d, 2'd0};
    ia_re_hi = ia_re & ib_hdr_d[ia_raddr[2]].image;
    `VMEM_TEST_HOOK(vmem_pipe_brk_ta_ia)  // test builds only (see the contract above)
  end

  // The header of the instruction taken (the oldest complete buffer).
  pipe_hdr_t th;
  assign th = ib_hdr_q[ib_r_q];

  // GET_RESINFO's T# fields for the TD (pipe_resinfo_t), and its conversion: its tuple (width,
  // height, layers, levels) goes through format_unpack and swizzle as a 32_32_32_32 uint element
  // with identity dst_sel (X, Y, Z, W), so DMASK compaction, unbound (all 0) and TFE are the
  // loads'.
  localparam logic [3:0]  DfmtXyzw32   = 4'd14;
  localparam logic [2:0]  NfmtUintCode = 3'd4;
  localparam logic [11:0] DstSelXyzw   = {3'd7, 3'd6, 3'd5, 3'd4};
  pipe_resinfo_t th_rsi;
  logic [13:0]   th_d;      // depth_field + 1 (1 with a 128-bit T#)
  logic          th_res;

  always_comb begin
    logic [TsTypeW-1:0] ty;
    ty     = th.vsharp[TsTypeLsb +: TsTypeW];
    th_res = is_resinfo(th.image, th.kind, th.op);
    th_d   = th.r128 ? 14'd1 : 14'(th.rsrc_hi[TsDepthLsb - TsHiLsb +: TsDepthW]) + 14'd1;
    th_rsi = '0;
    if (th_res) begin
      th_rsi.resinfo = 1'b1;
      th_rsi.width0  = 15'(th.vsharp[TsWidthLsb +: TsWidthW]) + 15'd1;
      th_rsi.height0 = ((ty == Ty1d) || (ty == Ty1dArray))
                     ? 15'd1 : 15'(th.vsharp[TsHeightLsb +: TsHeightW]) + 15'd1;
      th_rsi.deep    = ty == Ty3d;
      unique case (ty)
        Ty3d, Ty1dArray, Ty2dArray, Ty2dMsaaArray: th_rsi.layers0 = 16'(th_d);
        TyCube:                                    th_rsi.layers0 = 16'(th_d) * 16'd6;
        default:                                   th_rsi.layers0 = 16'd1;
      endcase
      th_rsi.levels  = 6'(th.vsharp[TsLastLevelLsb +: TsLastLevelW]) -
                       6'(th.vsharp[TsBaseLevelLsb +: TsBaseLevelW]) + 6'd1;
    end
  end

  assign take_o = '{valid: take, id: take_cnt_q,
                    info: '{kind: th.kind, glc: th.glc, tfe: th.tfe, wide: th.wide,
                            sized: th.sized, d16: th.d16,
                            bytes: th_res ? 5'd16 : th.bytes,
                            dfmt: th_res ? DfmtXyzw32 : th.dfmt,
                            nfmt: th_res ? NfmtUintCode : th.nfmt,
                            dst_sel: th_res ? DstSelXyzw : th.dst_sel,
                            dmask: th.image ? ((th.dmask == 4'd0) ? 4'd1 : th.dmask)
                                            : 4'((8'd1 << th.count) - 8'd1),
                            pck: (th.image && (th.kind == PipeLoad) &&
                                  ((th.op == 5'd1) || (th.op == 5'd2))) ? th.op[1:0] : 2'd0,
                            vdata: th.vdata,
                            exec: th.exec, t_first: ib_tfirst_q[ib_r_q],
                            t_last: ib_tlast_q[ib_r_q], rsi: th_rsi,
                            mtx: is_multi_texel(th.image, th.kind, th.op), mtx_op: th.op[1:0],
                            mtx_count: th.count, lds: th.lds}};

  for (genvar l = 0; l < GroupLanes; l++) begin : g_lane
    buffer_addr u_buffer_addr (
      .clk_i,
      .rst_ni,
      .valid_i        (fd_valid & ~fd_img),
      .vsharp_i       (fd_vsharp),
      .inst_offset_i  (fd_hdr.offset),
      .offen_i        (fd_hdr.offen),
      .idxen_i        (fd_hdr.idxen),
      .access_i       (fd_hdr.access),
      .bytes_i        (fd_hdr.bytes),
      .lds_i          (fd_hdr.lds),
      .sgpr_offset_i  (32'd0),
      .vgpr_index_i   (ba_index[l]),
      .vgpr_offset_i  (ba_offset[l]),
      .tid_i          ({fd_group, 4'(l)}),
      .m0_i           (fd_hdr.m0),
      .lds_base_i     (fd_hdr.lds_base),
      .lds_size_i     (fd_hdr.lds_size),
      .valid_o        (ba_valid[l]),
      .address_o      (ba_address[l]),
      .in_range_o     (ba_in_range[l]),
      .unbound_o      (ba_unbound[l]),
      .illegal_o      (ba_illegal[l]),
      .lds_address_o  (ba_lds_address[l]),
      .lds_in_range_o (ba_lds_in_range[l])
    );
  end

  // Images: lane j of the quad fed (SPEC §4; op 4, one element; the T# as the SQ sent it).
  for (genvar j = 0; j < 4; j++) begin : g_img
    image_addr u_image_addr (
      .clk_i,
      .rst_ni,
      .valid_i       (fd_valid & fd_img),
      .tsharp_lo_i   (fd_hdr.vsharp),
      .tsharp_hi_i   (fd_hdr.rsrc_hi),
      .r128_i        (fd_hdr.r128),
      .op_i          (is_multi_texel(fd_hdr.image, fd_hdr.kind, fd_hdr.op) ? {1'b0, fd_hdr.op[1:0]}
                                                                           : 3'd4),
      .mip_i         (fd_hdr.mip),
      .dmask_i       (fd_hdr.dmask),
      .d16_i         (fd_hdr.d16[0]),
      .tfe_i         (fd_hdr.tfe),
      .da_i          (fd_hdr.da),
      .x_i           (ix_coord[j].x),
      .y_i           (ix_coord[j].y),
      .slice_i       (ix_coord[j].slice),
      .mipid_i       (ix_coord[j].mipid),
      .valid_o       (ix_valid[j]),
      .level_ok_o    (ix_level_ok[j]),
      .level_o       (ix_level[j]),
      .width_o       (ix_width[j]),
      .height_o      (ix_height[j]),
      .layers_o      (ix_layers[j]),
      .pitch_o       (ix_pitch[j]),
      .xa_o          (ix_xa[j]),
      .group_valid_o (ix_gv[j]),
      .address_o     (ix_address[j]),
      .illegal_o     (ix_illegal[j])
    );
  end

  // An image group's quads 0-2 wait here for its quad 3.
  always_ff @(posedge clk_i) begin
    for (int q = 0; q < 3; q++) begin
      if (iq2_q.valid && (iq2_q.quad == 2'(q))) begin
        is_addr_q[q] <= ix_address;
        is_gv_q[q]   <= ix_gv;
      end
    end
  end

  for (genvar q = 0; q < 4; q++) begin : g_ir
    if (q < 3) begin : g_kept
      assign ir_addr[4*q +: 4] = is_addr_q[q];
      assign ir_gv[4*q +: 4]   = is_gv_q[q];
    end else begin : g_live
      assign ir_addr[4*q +: 4] = ix_address;
      assign ir_gv[4*q +: 4]   = ix_gv;
    end
  end

  // The outputs of buffer_addr this pipeline does not use (§2.3 illegal accesses never reach the
  // pipe: the testbench validates every program with the executor), and the valid
  // outputs, which equal rp2_q.valid two edges on (asserted below). Of
  // image_addr only the verdict and the address are used (its valid is iq2_q.valid): the level
  // and its dimensions are GET_RESINFO's, xa the multi-texel loads', and illegal (a T# the
  // executor refuses) never reaches the pipe. The tags' bits a stage does not read: rp2_q's
  // opnd only steered dp2_q a stage earlier.
  logic unused_units;
  assign unused_units = ^{ba_illegal, ba_valid[15:1], ix_valid, ix_level_ok,
                          ix_level, ix_width, ix_height, ix_layers, ix_pitch, ix_xa, ix_illegal,
                          rp2_q.opnd, pk1_q.nfmt};

  // Per lane results of the group fed two edges ago (rp2_q).
  lt_hdr_t            rh;
  lt_lane_t [15:0]    rl;
  pipe_tdlane_t [15:0] rt;

  always_comb begin
    rh = lt_hdr_q[rp2_q.sel];
    for (int l = 0; l < GroupLanes; l++) begin
      logic        e, ub, in_ok;
      logic [3:0]  ir;
      logic [15:0] full, smask;
      logic [31:0] d0, d1, d2, d3;
      e     = rh.exec[{rp2_q.group, 4'(l)}];
      ir    = ba_in_range[l];
      ub    = ba_unbound[l];
      in_ok = (rh.bytes <= 5'd4) ? ir[0] : (ir != 4'd0);
      full  = (rh.bytes >= 5'd16) ? 16'hffff : ((16'd1 << rh.bytes) - 16'd1);
      smask = (rh.bytes > 5'd4) ? (full & {{4{ir[3]}}, {4{ir[2]}}, {4{ir[1]}}, {4{ir[0]}}})
                                : full;
      {d3, d2, d1, d0} = dp2_q[l];

      rl[l]      = '0;
      rl[l].addr = ba_address[l];
      unique case (rh.kind)
        PipeStore: begin
          rl[l].mask = smask;
          rl[l].part = e & ~ub & in_ok & (rh.sized | rh.fmt_ok) & (smask != 16'd0);
          rl[l].data = dp2_q[l];
        end
        PipeAtomic: begin
          rl[l].mask = full;
          rl[l].part = e & ~ub & ir[0];
          // Data operand in dwords 0-1, compare operand in 2-3 (compare-swaps).
          rl[l].data = rh.wide ? {d3, d2, d1, d0} : {32'd0, d1, 32'd0, d0};
        end
        default: begin
          rl[l].mask = full;
          // An LDS load's lane reads memory only when its LDS dword is inside the allocation.
          rl[l].part = e & ~ub & in_ok & (~rh.lds | ba_lds_in_range[l]);
        end
      endcase

      rt[l].part     = rl[l].part;
      rt[l].unbound  = ub;
      rt[l].in_range = ir;
      rt[l].offset   = ba_address[l][3:0];
      // D16 byte/short loads: the old VGPR value (data dword 0); LDS loads: {LDS lane,
      // lds_address} (an LDS lane: in EXEC with its LDS dword inside the allocation).
      rt[l].old      = rh.lds ? {13'd0, e & ba_lds_in_range[l], ba_lds_address[l]} : d0;

      // Images: the element at image_addr's address, all its bytes; it takes part in EXEC
      // inside the level (group_valid: bound, level present, inside it), stores also with a
      // valid format; in range (every dword) inside the level.
      // An atomic's element is its 4 or 8 bytes (`bytes`), its operands as a buffer atomic's.
      if (rp2_q.img) begin
        rl[l].addr     = ir_addr[l];
        rl[l].mask     = full;
        rl[l].part     = e & ir_gv[l] & ((rh.kind != PipeStore) | rh.fmt_ok);
        unique case (rh.kind)
          PipeStore:  rl[l].data = dp2_q[l];
          PipeAtomic: rl[l].data = rh.wide ? {d3, d2, d1, d0} : {32'd0, d1, 32'd0, d0};
          default:    rl[l].data = 128'd0;
        endcase
        rt[l].part     = rl[l].part;
        rt[l].unbound  = rh.tunbound;
        rt[l].in_range = {4{ir_gv[l]}};
        rt[l].offset   = ir_addr[l][3:0];
      end
      // GET_RESINFO: no lane takes part; `old` carries the lane's {level ok, level} (d0).
      if (rh.resinfo) begin
        rl[l]          = '0;
        rt[l].part     = 1'b0;
        rt[l].unbound  = rh.tunbound;
        rt[l].in_range = 4'hf;   // swizzle's out-of-range mask 0: the tuple is read whole
        rt[l].offset   = '0;
      end
    end
  end

  assign res_o = '{valid: rp2_q.valid, id: rh.id, group: rp2_q.group, lanes: rt};

  assign lt_we    = rp2_q.valid;
  assign lt_waddr = {rp2_q.sel, rp2_q.group};

  vmem_pipe_rf #(.Depth(8), .Width(LtRowW)) u_lanes (
    .clk_i,
    .we_i    (lt_we),
    .waddr_i (lt_waddr),
    .wdata_i (rl),
    .re_i    (lt_re),
    .raddr_i (lt_raddr),
    .rdata_o (lt_rdata)
  );

  // The bypassed row: no reset, used only when lt_byp_q says it was written.
  always_ff @(posedge clk_i) begin
    if (lt_re && lt_byp_d) begin
      lt_byp_row_q <= rl;
    end
  end

  ////////////////
  // Step stage //
  ////////////////

  logic        st_act_q, st_act_d;     // working on the instruction of table st_tab_q
  logic        st_tab_q, st_tab_d;
  logic [1:0]  st_g_q, st_g_d;         // group
  logic [1:0]  st_qd_q, st_qd_d;       // quad (per-quad steps)
  logic        st_b_q, st_b_d;         // bundle of the step
  logic [15:0] st_t0_q, st_t0_d;       // its first cycle

  logic              st_start, st_work;
  logic [1:0]        wg, wq;
  logic              wb;
  lt_hdr_t           wh;
  lt_lane_t [15:0]   wl;
  logic [15:0]       w_part;
  logic [15:0]       w_strad;
  logic [15:0][43:0] w_blk;
  logic [15:0][31:0]  w_m32;           // the lane's bytes over its two blocks
  logic [15:0][255:0] w_d256;          // its data over its two blocks
  logic [3:0]        w_qok;
  logic              w_merged;
  logic              w_atomic;
  pipe_req_t [3:0]   w_mreq;           // merged group: each quad's request
  pipe_req_t [3:0]   w_first;          // per-lane step: each lane's first block
  pipe_req_t [3:0]   w_second;         // and its second
  logic [3:0]        m_valid;          // the merged candidates (w_mreq) that are requests
  logic [7:0]        p_valid;          // the per-lane candidates (first, second of lane j)
  pipe_req_t [7:0]   p_cand;
  pipe_req_t [3:0]   m_pick, p_pick;   // each list's requests of the bundle presented
  logic [3:0]        m_n, p_n;         // each list's requests
  logic [3:0]        w_n;              // the step's requests
  logic              w_last_bundle;
  logic              st_step_done;     // the step ends at this edge
  logic              st_inst_done;     // and with it the instruction's step stage

  always_comb begin
    st_start = ~st_act_q & lt_held_q[st_tab_q] & lt_avail_q[st_tab_q][0];
    st_work  = st_act_q | st_start;
    wg       = st_act_q ? st_g_q : 2'd0;
    wq       = st_act_q ? st_qd_q : 2'd0;
    wb       = st_act_q ? st_b_q : 1'b0;
    wh       = lt_hdr_q[st_tab_q];
    w_atomic = wh.kind == PipeAtomic;

    for (int l = 0; l < GroupLanes; l++) begin
      wl[l]      = lt_byp_q ? lt_byp_row_q[l] : lt_rdata[$bits(lt_lane_t)*l +: $bits(lt_lane_t)];
      w_part[l]  = st_work & wl[l].part;
      w_blk[l]   = wl[l].addr[47:4];
      w_strad[l] = blk_straddles(wl[l].addr[3:0], wh.size);
      w_m32[l]   = {16'd0, wl[l].mask} << wl[l].addr[3:0];
      w_d256[l]  = {128'd0, wl[l].data} << {wl[l].addr[3:0], 3'b000};
    end
    for (int q = 0; q < 4; q++) begin
      w_qok[q] = quad_mergeable(w_blk[4*q +: 4], w_strad[4*q +: 4], w_part[4*q +: 4]);
    end
    w_merged = wh.single & (&w_qok);

    // Merged: one request per quad with a lane taking part: the block of its lowest such lane,
    // the OR of their bytes, their data applied in ascending lane order (the highest lane wins).
    for (int q = 0; q < 4; q++) begin
      w_mreq[q]       = '0;
      w_mreq[q].valid = w_part[4*q +: 4] != 4'd0;
      w_mreq[q].quad  = {wg, 2'(q)};
      w_mreq[q].lanes = w_part[4*q +: 4];
      for (int j = 3; j >= 0; j--) begin
        if (w_part[4*q + j]) begin
          w_mreq[q].addr = {w_blk[4*q + j], 4'd0};
        end
      end
      for (int j = 0; j < 4; j++) begin
        if (w_part[4*q + j]) begin
          w_mreq[q].mask = w_mreq[q].mask | w_m32[4*q + j][15:0];
          for (int y = 0; y < 16; y++) begin
            if (w_m32[4*q + j][y]) begin
              w_mreq[q].data[8*y +: 8] = w_d256[4*q + j][8*y +: 8];
            end
          end
        end
      end
    end

    // Per lane of quad wq: the first block's request, then the second's when the access
    // straddles; an atomic is one request at the lane's byte address.
    for (int j = 0; j < 4; j++) begin
      w_first[j]        = '0;
      w_first[j].valid  = w_part[{wq, 2'(j)}];
      w_first[j].quad   = {wg, wq};
      w_first[j].lanes  = 4'd1 << j;
      w_first[j].addr   = w_atomic ? wl[{wq, 2'(j)}].addr : {w_blk[{wq, 2'(j)}], 4'd0};
      w_first[j].mask   = w_atomic ? wl[{wq, 2'(j)}].mask : w_m32[{wq, 2'(j)}][15:0];
      w_first[j].data   = w_atomic ? wl[{wq, 2'(j)}].data : w_d256[{wq, 2'(j)}][127:0];
      w_second[j]       = w_first[j];
      w_second[j].valid = w_part[{wq, 2'(j)}] & w_strad[{wq, 2'(j)}] & ~w_atomic;
      w_second[j].addr  = {w_blk[{wq, 2'(j)}] + 44'd1, 4'd0};
      w_second[j].mask  = w_m32[{wq, 2'(j)}][31:16];
      w_second[j].data  = w_d256[{wq, 2'(j)}][255:128];
      w_second[j].second = 1'b1;
    end

    // The step's candidates: the merged quads' requests (w_mreq), or the per-lane requests of
    // quad wq in order (lane j's first block, then its second). Both lists are counted and
    // compacted side by side, each by its own ranks, and w_merged picks one: the merge decision
    // is not in front of the counts. The bundle's request i is the candidate of rank 4 wb + i
    // (0 when there are fewer): only the four requests of the bundle presented are picked. A
    // narrow instruction's bundle (wh.narrow: an image atomic with GLC or a compare-swap, at
    // most 4 requests a step, never merged) takes ranks 2 wb and 2 wb + 1 in requests 0-1.
    for (int j = 0; j < 4; j++) begin
      m_valid[j]       = w_mreq[j].valid;
      p_cand[2*j]      = w_first[j];
      p_cand[2*j + 1]  = w_second[j];
      p_valid[2*j]     = w_first[j].valid;
      p_valid[2*j + 1] = w_second[j].valid;
    end
    m_n = 4'($countones(m_valid));
    p_n = 4'($countones(p_valid));
    m_pick = '0;
    p_pick = '0;
    // A candidate's rank is at most its index: candidates below i are never request i.
    for (int i = 0; i < 4; i++) begin
      for (int c = i; c < 4; c++) begin
        if (m_valid[c] && (3'($countones(m_valid & 4'((1 << c) - 1))) == {wb, 2'(i)})) begin
          m_pick[i] = w_mreq[c];
        end
      end
      for (int c = i; c < 8; c++) begin
        if (p_valid[c] &&
            (wh.narrow ? ((i < 2) && (3'($countones(p_valid & 8'((1 << c) - 1))) == {1'b0, wb, 1'(i)}))
                       : (3'($countones(p_valid & 8'((1 << c) - 1))) == {wb, 2'(i)}))) begin
          p_pick[i] = p_cand[c];
        end
      end
    end
    w_n = w_merged ? m_n : p_n;

    bnd_o      = '0;
    bnd_o.id   = wh.id;
    bnd_o.kind = wh.kind;
    bnd_o.glc  = wh.glc;
    bnd_o.op   = wh.op;
    bnd_o.wide = wh.wide;
    bnd_o.req  = w_merged ? m_pick : p_pick;
    bnd_valid_o   = st_work && (w_n != 4'd0);
    w_last_bundle = (wh.narrow ? ({2'b00, wb, 1'b0} + 4'd2) : ({1'b0, wb, 2'b00} + 4'd4)) >= w_n;
    `VMEM_TEST_HOOK(vmem_pipe_brk_ta_bnd)  // test builds only (see the contract above)
  end

  // The step's progress (apart from the bundle: bnd_ready_i depends on it).
  always_comb begin
    st_step_done  = st_work && ((w_n == 4'd0) || (bnd_ready_i && w_last_bundle));
    st_inst_done  = st_step_done && (wg == 2'd3) && (w_merged || (wq == 2'd3));

    st_act_d = st_act_q;
    st_tab_d = st_tab_q;
    st_g_d   = wg;
    st_qd_d  = wq;
    st_b_d   = wb;
    st_t0_d  = st_start ? now_i : st_t0_q;
    if (st_work) begin
      st_act_d = 1'b1;
      if (st_inst_done) begin
        st_act_d = 1'b0;
        st_tab_d = ~st_tab_q;
        st_g_d   = '0;
        st_qd_d  = '0;
        st_b_d   = 1'b0;
      end else if (st_step_done) begin
        st_b_d = 1'b0;
        if (w_merged || (wq == 2'd3)) begin
          st_g_d  = wg + 2'd1;
          st_qd_d = '0;
        end else begin
          st_qd_d = wq + 2'd1;
        end
      end else if (bnd_ready_i) begin
        st_b_d = 1'b1;   // the step's first bundle was taken; its second follows
      end
    end
    `VMEM_TEST_HOOK(vmem_pipe_brk_ta)  // test builds only (see the contract above)
  end

  // Header fields the step stage and the result write do not read (the other one does).
  // (The receiver's, the feed's and the take's views of the header, bh, fd_hdr and th, read
  // some fields only.)
  logic unused_hdr;
  assign unused_hdr = ^{rh.single, rh.glc, rh.op, rh.narrow, rh.size, wh.sized, wh.exec,
                        wh.tunbound, wh.resinfo, wh.lds, wh.bytes, wh.fmt_ok, bh, fd_hdr, th};

  assign step_end_o = '{valid: st_inst_done, id: wh.id, ta: now_i - st_t0_d + 16'd1};

  // Lane tables: allocated at a take, filled by the results, freed at the step stage's end.
  always_comb begin
    lt_w_d     = lt_w_q;
    lt_held_d  = lt_held_q;
    lt_avail_d = lt_avail_q;
    lt_hdr_d   = lt_hdr_q;
    if (st_inst_done) begin
      lt_held_d[st_tab_q] = 1'b0;
    end
    if (rp2_q.valid) begin
      lt_avail_d[rp2_q.sel][rp2_q.group] = 1'b1;
    end
    if (take) begin
      lt_w_d                     = ~lt_w_q;
      lt_held_d[lt_w_q]          = 1'b1;
      lt_avail_d[lt_w_q]         = '0;
      lt_hdr_d[lt_w_q]           = '{id: take_cnt_q, kind: th.kind, sized: th.sized,
                                     single: is_single(th.kind, th.sized, th.bytes, th.count,
                                                       th.image) || th_res,
                                     glc: th.glc, wide: th.wide, op: th.op, bytes: th.bytes,
                                     size: 4'(th.bytes - 5'd1), exec: th.exec,
                                     tunbound: th.image &&
                                               ((th.vsharp[TsDfmtLsb +: TsDfmtW] == '0) ||
                                                (th.vsharp[TsTypeLsb +: TsTypeW] < Ty1d)),
                                     narrow: th.image && (th.kind == PipeAtomic) &&
                                             (th.glc || is_cmp(th.op)),
                                     resinfo: th_res, lds: th.lds,
                                     fmt_ok: fmt_valid(th.dfmt, th.nfmt)};
    end
    // The lane row the step stage works on next cycle: group 0 of its table when it is idle.
    lt_re    = st_act_d | lt_held_d[st_tab_d];
    lt_raddr = {st_tab_d, st_act_d ? st_g_d : 2'd0};
    lt_byp_d = lt_we && (lt_waddr == lt_raddr);
    `VMEM_TEST_HOOK(vmem_pipe_brk_ta_lt)  // test builds only (see the contract above)
  end

  `VMEM_FF(ib_r_q, ib_r_d, 1'b0)
  `VMEM_FF(adr_busy_q, adr_busy_d, 1'b0)
  `VMEM_FF(adr_g_q, adr_g_d, '0)
  `VMEM_FF(adr_buf_q, adr_buf_d, 1'b0)
  `VMEM_FF(adr_tab_q, adr_tab_d, 1'b0)
  `VMEM_FF(adr_q_q, adr_q_d, '0)
  `VMEM_FF(take_cnt_q, take_cnt_d, '0)
  `VMEM_FF(lt_w_q, lt_w_d, 1'b0)
  `VMEM_FF(lt_held_q, lt_held_d, '0)
  `VMEM_FF(lt_avail_q, lt_avail_d, '0)
  `VMEM_FF(lt_hdr_q, lt_hdr_d, '0)
  `VMEM_FF_EN(lt_byp_q, lt_byp_d, lt_re, 1'b0)
  `VMEM_FF(rp1_q, rp1_d, '0)
  `VMEM_FF(rp2_q, rp1_q, '0)
  `VMEM_FF(iq1_q, iq1_d, '0)
  `VMEM_FF(iq2_q, iq1_q, '0)
  `VMEM_FF(dp1_q, dp1_d, '0)
  `VMEM_FF(dp2_q, dp2_d, '0)
  `VMEM_FF(st_act_q, st_act_d, 1'b0)
  `VMEM_FF(st_tab_q, st_tab_d, 1'b0)
  `VMEM_FF(st_g_q, st_g_d, '0)
  `VMEM_FF(st_qd_q, st_qd_d, '0)
  `VMEM_FF(st_b_q, st_b_d, 1'b0)
  `VMEM_FF(st_t0_q, st_t0_d, '0)

  ////////////////
  // Assertions //
  ////////////////

`ifndef SYNTHESIS
  logic         bnd_prev_stall_q;
  pipe_bundle_t bnd_prev_q;
  `VMEM_FF(bnd_prev_stall_q, bnd_valid_o & ~bnd_ready_i, 1'b0)
  `VMEM_FF(bnd_prev_q, bnd_o, '0)
  logic [3:0]   lt_rd_q, ia_rd_q;     // {read, row} at the last edge
  `VMEM_FF(lt_rd_q, {lt_re, lt_raddr}, '0)
  `VMEM_FF(ia_rd_q, {ia_re, ia_raddr}, '0)
  logic a_hdr_ok, a_bnd_ok;
  assign a_hdr_ok = !(beat && (bk != 5'd0)) || (iss_i.hdr == ib_hdr_q[ib_w_q]);
  assign a_bnd_ok = !bnd_prev_stall_q || (bnd_valid_o && (bnd_o == bnd_prev_q));
`endif

// An instruction is at most max(4, 4A, 4D) = 16 beats.
`VMEM_ASSERT(IssueBeats_A, beat |-> (bk < 5'd16))
// The SQ holds the header fields on every beat of an instruction (they are taken from the first).
`VMEM_ASSERT(IssueHeaderHeld_A, a_hdr_ok)
// A beat never lands in a buffer that holds a complete instruction (iss_ready_o).
`VMEM_ASSERT(IssueIntoFull_A, beat |-> !ib_full_q[ib_w_q])
// A format store's pack has written a group's element before the address stage reads it (the
// receiver's contract: group g's last beat is followed by at least 3 - g beats).
`VMEM_ASSERT(PackBeforeRead_A, !(fd_valid &&
                                 ((pk0_q.valid && (pk0_q.sel == fd_buf) && (pk0_q.group == fd_group)) ||
                                  (pk1_q.valid && (pk1_q.sel == fd_buf) && (pk1_q.group == fd_group)))))
// The units' results arrive with the tags that follow them (two edges).
`VMEM_ASSERT(AddrResultTag_A, ba_valid[0] == (rp2_q.valid && !rp2_q.img))
// The step stage holds at most two instructions, and the table to write next is free when it
// holds fewer.
`VMEM_ASSERT(HeldTables_A, !(&lt_held_q) |-> !lt_held_q[lt_w_q])
// A working step's group is available (docs/decisions.md: always after the first step).
`VMEM_ASSERT(StepGroupAvail_A, st_work |-> (lt_held_q[st_tab_q] && lt_avail_q[st_tab_q][wg]))
// The address row a feeding address stage uses was read at the edge before (an image's at its
// group's quad 0, held since), and is the row of its buffer and group.
`VMEM_ASSERT(AddrRowRead_A,
             (fd_valid && (fd_quad == 2'd0)) |-> (ia_rd_q == {1'b1, fd_buf, fd_group}))
// The lane row a working step stage uses was read at the edge before, and is the row of its
// table and group.
`VMEM_ASSERT(LaneRowRead_A, st_work |-> (lt_rd_q == {1'b1, st_tab_q, wg}))
// A per-quad step has at most 8 requests (four lanes, two blocks each), a merged step at most 4
// (one per quad); each bound its own assertion.
`VMEM_ASSERT(StepRequests_A, !w_merged |-> (w_n <= 4'd8))
`VMEM_ASSERT(MergedRequests_A, w_merged |-> (w_n <= 4'd4))
// An atomic's step is per lane, never split: at most 4 requests (so a narrow one fits two
// bundles of two, a buffer's one of four).
`VMEM_ASSERT(AtomicStepRequests_A, (st_work && w_atomic) |-> (w_n <= 4'd4))
// Only image atomics are narrow, and a narrow bundle (an image atomic with return or a
// compare-swap) never carries more than two requests.
`VMEM_ASSERT(NarrowIsAtomic_A, (st_work && wh.narrow) |-> w_atomic)
`VMEM_ASSERT(NarrowBundle_A,
             (bnd_valid_o && wh.narrow) |-> !(bnd_o.req[2].valid || bnd_o.req[3].valid))
// A bundle presented and not taken is presented again, unchanged.
`VMEM_ASSERT(BundleStable_A, a_bnd_ok)
// A GET_RESINFO reads no memory: no lane takes part, so its steps have no request (SPEC §15).
`VMEM_ASSERT(ResinfoNoRequest_A, (st_work && wh.resinfo) |-> (w_n == 4'd0))

endmodule : vmem_pipe_ta

`endif  // VMEM_VMEM_PIPE_TA_SV
