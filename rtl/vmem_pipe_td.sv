`ifndef VMEM_VMEM_PIPE_TD_SV  // included by the blocks that instantiate it (see rtl/vmem_pipe.sv)
`define VMEM_VMEM_PIPE_TD_SV
// Copyright gcn-vmem contributors.
//
// vmem_pipe_td: the TD and completion of vmem_pipe (docs/decisions.md "vmem_pipe", "TCP -> TD",
// "TD and completion"): the instructions in flight, the gather of returned blocks into two
// element buffers, the feed into two result buffers, the conversion (a write's 16 dwords a
// cycle), the VGPR writes and the done with its counters. Sub-block of rtl/vmem_pipe.sv.
//
// Parameters: InFlight (ids 0 .. InFlight-1), as vmem_pipe's.
//
// In flight: an id from the address stage's take to the edge before its done. Per id the
// instruction's fields (pipe_info_t), per lane what the address stage found (part, unbound,
// in_range and the old VGPR value of D16 byte/short loads in u_lane, a 1R1W register-file
// macro with a row per id and group; address bits 3:0 in flops, for the gather), whether its
// step stage has ended, its TA cycles, its returning accesses not yet taken (counted at the
// bundle's acceptance).
// Writing instructions (loads, atomics with GLC; EXEC != 0) enter a queue at their take; their
// position n in it picks element and result buffer n mod 2.
//   Gather: G = the oldest writing instruction not gathered. When G's element buffer is free
//     (fewer than two gathered instructions hold buffers), the return registers that hold an
//     access of G are taken in bank order while the cycle's blocks stay at most 4 (rr_take_o);
//     the taken requests are packed into 4 block slots, and each slot writes the element bytes
//     of its lanes (a first block the bytes from the lane's offset, a second the rest; an
//     atomic's value as it is). G is gathered at the edge where its step stage has ended and
//     none of its returning accesses is left.
//   Feed: the oldest gathered instruction not converted starts in cycle s when the feed is idle
//     and its result buffer is free; group k is fed in s + k from the element buffer into the
//     result buffer, a row of 16 lanes: a load's element (each dword 0 where out of range or
//     unbound, bytes above the element 0; GET_RESINFO: the lane's (width, height, layers, levels)
//     of its level, a 32_32_32_32 uint with identity dst_sel), an atomic's dwords 0-1 (0 where
//     the lane did not take part), a PCK / PCK_SGN image load's four raw fields (pck_fields, SPEC
//     §1.4's table, zero- or sign-extended; 0 outside the level), a D16 byte/short load's element
//     with the old VGPR value in dword 1; an LDS load's lanes' `old` words ({LDS lane,
//     lds_address}) beside it. The result buffers are u_res, a 1R1W register-file macro of 8
//     rows (buffer, group) x 16 lanes x 128 bits. The element buffer is free from s + 4; group k
//     is ready from s + 4 + k.
//   Conversion, sized to the port: each write's 16 dwords, in the writes' order, one write a
//     cycle, issued in cycle c once its group is fed and while fewer than four issued writes wait
//     for the port; three edges (stage 0 takes the row, read from u_res at the edge before or,
//     when the feed wrote it at that edge, from the feed, and selects each lane's component, two for
//     D16 format loads; stage 1 converts it, vmem_fp_pkg::unpack_component; stage 2 narrows D16
//     halves or takes multi_texel's or d16's result, both units fed in c) into a four-entry port
//     queue, whose head the port presents. A load's dword i: DMASK's (0 read as 1; a buffer's
//     (1 << count) - 1) channel of rank i through its dst_sel (swizzle's rules: SEL_0, SEL_1's
//     constant, or the component, 0 when the format lacks it, it is out of range or the lane is
//     unbound or the format invalid); D16 format loads the halves of ranks 2i and 2i + 1 (0 from
//     the channel count on); multi-texel loads multi_texel's dword i; a PCK load's field
//     dmask_channel(DMASK, i); an atomic's dword i; dwords from the load's data count on 0 (TFE).
//     Write n is issued at the latest in the cycle after write n - 1 or after its group was fed,
//     or after the acceptance of write n - 4: in each case in the queue by the cycle it can be
//     presented, so the conversion never delays a write.
//   Write: group-major, per group with an EXEC lane its dwords i < min(R, 256 - VDATA); each is
//     presented in the first cycle after the previous write's accepting edge in which its group
//     is ready, and held until vgpr_ready_i; its data is the port queue's head.
//   LDS loads ("LDS loads"): one write per group with an EXEC lane, on the LDS port (held until
//     lds_ready_i): the LDS lanes' result dword 0 at their lds_address.
//   Done: one a cycle, in id order from the oldest: when the oldest is finished after this edge
//     (writing: its last write accepted; otherwise: step stage ended and no posted access
//     outstanding, posted_zero_i), done_o shows it in the next cycle and it leaves the in-flight
//     set at this edge.
//
// Test hooks: `VMEM_TEST_HOOK(vmem_pipe_brk_td*), nothing in the design (rtl/vmem_prim_pkg.sv): the
// break-asserts build puts rtl/test/vmem_pipe_brk_td.svh at the end of the next-state always_comb,
// vmem_pipe_brk_td_gather.svh, _td_conv.svh, _td_wr.svh and _td_lds.svh at the end of the
// gather's, the conversion's stage 0 and the writes' always_comb.
//
// Spec: docs/spec.md §3, §5, §6, §14 "TD", "Completion", §15
// Contract: docs/decisions.md "vmem_pipe"

`ifdef VERILATOR
`include "rtl/multi_texel.sv"
`include "rtl/d16.sv"
`include "rtl/vmem_pipe_rf.sv"
`endif

module vmem_pipe_td
  import vmem_pkg::*;
  import vmem_fp_pkg::F32One;
  import vmem_fp_pkg::f32_round;
  import vmem_fp_pkg::f32_to_f16;
  import vmem_fp_pkg::fields_t;
  import vmem_fp_pkg::fmt_count;
  import vmem_fp_pkg::fmt_fields;
  import vmem_fp_pkg::fmt_valid;
  import vmem_fp_pkg::nfmt_e;
  import vmem_fp_pkg::NfmtSint;
  import vmem_fp_pkg::NfmtUint;
  import vmem_fp_pkg::unpack_component;
#(
  parameter int unsigned InFlight = 16
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,           // async, active low
  input  logic [15:0]               now_i,
  // From the TA
  input  pipe_take_t                take_i,
  input  pipe_res_t                 res_i,
  input  pipe_step_end_t            step_end_i,
  // From the TCP
  input  pipe_acc_ev_t              acc_i,
  input  pipe_rr_t [3:0]            rr_i,
  output logic [3:0]                rr_take_o,
  output logic [PipeIdW-1:0]        done_id_o,        // the oldest instruction in flight
  input  pipe_ctr_t                 ctr_i,            // its TCP counters after this cycle
  input  logic [PipeMaxIds-1:0]     posted_zero_i,
  // To the TA
  output logic                      inflight_full_o,
  // VGPR write port and done (vmem_pipe's ports)
  input  logic                      vgpr_ready_i,
  output pipe_vgpr_t                vgpr_o,
  input  logic                      lds_ready_i,
  output pipe_lds_t                 lds_o,
  output pipe_done_t                done_o
);

  localparam int unsigned GroupLanes = 16;
  localparam int unsigned RpW        = 8;    // returning accesses of one instruction: at most 128
  localparam int unsigned CntW       = 5;    // writing-queue positions, mod 32

  // What the conversion and the writes derive from an instruction's fields.
  typedef struct packed {
    logic        atomic;
    logic        d16bs;     // D16 byte/short load: d16 alone
    logic        d16fmt;    // D16 format load: halves after swizzle
    logic        conv;      // format_unpack -> swizzle (multi-texel loads: -> multi_texel)
    logic        mtx;       // multi-texel load: format_unpack passes the group's dword 0 on
    logic        lds;       // LDS load: dword 0 to the LDS port, {LDS lane, address} in dword 1
    logic        pck;       // PCK / PCK_SGN image load: the element's raw fields, no conversion
    logic        sgn;       // ... PCK_SGN: sign-extended
    logic        intf;      // uint / sint
    logic [3:0]  egroups;   // groups with an EXEC lane
    logic [3:0]  dmask;     // swizzle's DMASK (the take's: an image's, a buffer's (1 << count) - 1)
    logic [2:0]  rdata;     // data dwords of a lane's result
    logic [2:0]  w;         // dwords written per group: min(R, 256 - VDATA)
    logic [2:0]  ndw;       // dwords of the element
    logic [31:0] bmask;     // the bytes of dword 0 below a 4-byte element
  } cinfo_t;

  function automatic cinfo_t derive(pipe_info_t ci);
    cinfo_t     c;
    logic       load;
    logic [2:0] pc, r;
    logic [8:0] room;
    logic       unused_ci;
    load     = ci.kind == PipeLoad;
    c.atomic = ci.kind == PipeAtomic;
    c.d16bs  = load && ci.sized && (ci.d16 != 2'd0) && ((ci.bytes == 5'd1) || (ci.bytes == 5'd2));
    c.d16fmt = load && !c.d16bs && (ci.d16 == 2'd1);
    c.pck    = load && (ci.pck != 2'd0);
    c.sgn    = ci.pck == 2'd2;
    c.conv   = load && !c.d16bs && !c.pck;
    c.mtx    = load && ci.mtx;
    c.lds    = load && ci.lds;
    c.intf   = (ci.nfmt == NfmtUint) || (ci.nfmt == NfmtSint);
    for (int g = 0; g < 4; g++) begin
      c.egroups[g] = ci.exec[GroupLanes*g +: GroupLanes] != '0;
    end
    c.dmask = ci.dmask;
    pc = '0;
    for (int i = 0; i < 4; i++) begin
      pc = pc + {2'b00, c.dmask[i]};
    end
    if (c.dmask == 4'd0) begin
      pc = 3'd1;
    end
    if (c.atomic) begin
      c.rdata = ci.wide ? 3'd2 : 3'd1;
    end else if (c.mtx) begin
      c.rdata = ci.mtx_count;
    end else if (c.d16bs) begin
      c.rdata = 3'd1;
    end else if (c.d16fmt) begin
      c.rdata = (pc + 3'd1) >> 1;
    end else begin
      c.rdata = pc;
    end
    r     = c.rdata + {2'b00, ((c.conv & ~c.mtx) | c.pck) & ci.tfe};
    room  = 9'd256 - {1'b0, ci.vdata};
    c.w   = c.lds ? 3'd1 : (({6'd0, r} > room) ? room[2:0] : r);
    c.ndw = (ci.bytes <= 5'd4) ? 3'd1 : (3'(ci.bytes[4:2]) + {2'b00, ci.bytes[1:0] != 2'd0});
    c.bmask = (ci.bytes >= 5'd4) ? 32'hffff_ffff : ((32'd1 << {ci.bytes[1:0], 3'b000}) - 32'd1);
    unused_ci = ^{ci.t_first, ci.t_last, ci.dst_sel, ci.dfmt, ci.glc, ci.rsi, ci.mtx_op};  // kept for the writes
    return c;
  endfunction

  // A field of `w` bits (constant at every call) zero- or sign-extended to a dword.
  function automatic logic [31:0] fext(logic [31:0] raw, logic [5:0] w, logic sgn);
    logic [31:0] m;
    m = (32'd1 << w) - 32'd1;
    return (sgn && raw[5'(w - 6'd1)]) ? (raw | ~m) : (raw & m);
  endfunction

  // PCK loads: the raw fields of an element (SPEC §1.4's table: field 0 = X in the lowest bits,
  // then Y, Z, W), each zero- or sign-extended from its top bit; 0 where the dfmt has no such
  // field (dfmt 0, 15 and the components past a format's last). Per field a small multiplexer
  // of constant slices: field c's offsets over the dfmts are few (X always at bit 0).
  function automatic logic [3:0][31:0] pck_fields(logic [3:0] dfmt, logic [127:0] e, logic sgn);
    logic [3:0][31:0] f;
    f = '0;
    unique case (dfmt)
      4'd1:  f[0] = fext(32'(e[7:0]),    6'd8, sgn);          // 8
      4'd2:  f[0] = fext(32'(e[15:0]),  6'd16, sgn);          // 16
      4'd3:  begin                                            // 8_8
        f[0] = fext(32'(e[7:0]),     6'd8, sgn);
        f[1] = fext(32'(e[15:8]),    6'd8, sgn);
      end
      4'd4:  f[0] = e[31:0];                                  // 32
      4'd5:  begin                                            // 16_16
        f[0] = fext(32'(e[15:0]),   6'd16, sgn);
        f[1] = fext(32'(e[31:16]),  6'd16, sgn);
      end
      4'd6:  begin                                            // 10_11_11
        f[0] = fext(32'(e[10:0]),   6'd11, sgn);
        f[1] = fext(32'(e[21:11]),  6'd11, sgn);
        f[2] = fext(32'(e[31:22]),  6'd10, sgn);
      end
      4'd7:  begin                                            // 11_11_10
        f[0] = fext(32'(e[9:0]),    6'd10, sgn);
        f[1] = fext(32'(e[20:10]),  6'd11, sgn);
        f[2] = fext(32'(e[31:21]),  6'd11, sgn);
      end
      4'd8:  begin                                            // 10_10_10_2
        f[0] = fext(32'(e[1:0]),     6'd2, sgn);
        f[1] = fext(32'(e[11:2]),   6'd10, sgn);
        f[2] = fext(32'(e[21:12]),  6'd10, sgn);
        f[3] = fext(32'(e[31:22]),  6'd10, sgn);
      end
      4'd9:  begin                                            // 2_10_10_10
        f[0] = fext(32'(e[9:0]),    6'd10, sgn);
        f[1] = fext(32'(e[19:10]),  6'd10, sgn);
        f[2] = fext(32'(e[29:20]),  6'd10, sgn);
        f[3] = fext(32'(e[31:30]),   6'd2, sgn);
      end
      4'd10: begin                                            // 8_8_8_8
        f[0] = fext(32'(e[7:0]),     6'd8, sgn);
        f[1] = fext(32'(e[15:8]),    6'd8, sgn);
        f[2] = fext(32'(e[23:16]),   6'd8, sgn);
        f[3] = fext(32'(e[31:24]),   6'd8, sgn);
      end
      4'd11: begin                                            // 32_32
        f[0] = e[31:0];
        f[1] = e[63:32];
      end
      4'd12: begin                                            // 16_16_16_16
        f[0] = fext(32'(e[15:0]),   6'd16, sgn);
        f[1] = fext(32'(e[31:16]),  6'd16, sgn);
        f[2] = fext(32'(e[47:32]),  6'd16, sgn);
        f[3] = fext(32'(e[63:48]),  6'd16, sgn);
      end
      4'd13: f[2:0] = e[95:0];                                // 32_32_32
      4'd14: f      = e;                                      // 32_32_32_32
      default: f = '0;                                        // INVALID, 15
    endcase
    return f;
  endfunction

  // IMAGE_GET_RESINFO's element for a lane whose level is l (when ok): dword 0 width_l, 1
  // height_l, 2 layers_l (0 for all three when the level does not exist), 3 the level count.
  function automatic logic [127:0] resinfo_tuple(pipe_resinfo_t r, logic ok, logic [3:0] l);
    logic [14:0] w, h;
    logic [15:0] z;
    logic        unused_flag;
    unused_flag = r.resinfo;   // the caller's choice
    w = r.width0 >> l;
    h = r.height0 >> l;
    z = r.deep ? (r.layers0 >> l) : r.layers0;
    w = (w == '0) ? 15'd1 : w;
    h = (h == '0) ? 15'd1 : h;
    z = (z == '0) ? 16'd1 : z;
    if (!ok) begin
      w = '0;
      h = '0;
      z = '0;
    end
    return {{{26{r.levels[5]}}, r.levels}, 16'd0, z, 17'd0, h, 17'd0, w};
  endfunction

  // The lowest set bit of a group mask.
  function automatic logic [1:0] lowest(logic [3:0] m);
    logic [1:0] g;
    g = '0;
    for (int i = 3; i >= 0; i--) begin
      if (m[i]) begin
        g = 2'(i);
      end
    end
    return g;
  endfunction

  // An id as an index of the per-id arrays.
  localparam int unsigned IdxW = (InFlight > 1) ? $clog2(InFlight) : 1;
  // (ids are below InFlight: the bits above IdxW are 0).
  function automatic logic [IdxW-1:0] ix(logic [PipeIdW-1:0] id);
    logic unused_hi;
    unused_hi = ^id;
    return IdxW'(id);
  endfunction

  // Whether the converter starts the oldest gathered instruction not converted, from the queue
  // positions (converted, gathered, written) and whether it is busy: the same rule for this
  // cycle's feed and for the next cycle's u_lane read.
  function automatic logic conv_start(logic [CntW-1:0] ccnt, logic [CntW-1:0] gcnt,
                                      logic [CntW-1:0] wcnt, logic act);
    return (ccnt != gcnt) & ~act & ((ccnt - wcnt) < CntW'(2));
  endfunction

  // A fed group on its way to ready (s + k -> s + 4 + k): its result buffer and group.
  typedef struct packed {
    logic       valid;
    logic       par;
    logic [1:0] group;
  } tag_t;

  ///////////
  // State //
  ///////////

  logic [InFlight-1:0]              inf_q, inf_d;          // in flight
  pipe_info_t [InFlight-1:0]        info_q, info_d;
  // derive(info_q[i]), made at the take (info_q is written only there): the writes read an
  // instruction's derived fields from a register, not through derive.
  cinfo_t [InFlight-1:0]            dinfo_q, dinfo_d;
  logic [InFlight-1:0]              wrt_q, wrt_d;          // a writing instruction
  logic [InFlight-1:0]              stepped_q, stepped_d;  // step stage ended
  logic [InFlight-1:0][15:0]        ta_q, ta_d;
  logic [InFlight-1:0][RpW-1:0]     rpend_q, rpend_d;      // returning accesses not yet taken
  logic [InFlight-1:0]              fin_q, fin_d;          // last write accepted
  logic [InFlight-1:0][15:0]        td_q, td_d;
  logic [CntW-1:0]                  cnt_q, cnt_d;          // instructions in flight
  logic [PipeIdW-1:0]               dptr_q, dptr_d;        // the oldest
  pipe_done_t                       done_q, done_d;

  // The writing instructions' queue and its positions: tail (taken), gather, element buffers
  // released, conversions started, writes finished.
  logic [PipeMaxIds-1:0][PipeIdW-1:0] wq_q, wq_d;
  logic [CntW-1:0]                  tail_q, tail_d, gcnt_q, gcnt_d, rel_q, rel_d;
  logic [CntW-1:0]                  ccnt_q, ccnt_d, wcnt_q, wcnt_d;

  // Converter.
  logic                             cv_act_q, cv_act_d;
  logic [1:0]                       cv_k_q, cv_k_d;
  logic [PipeIdW-1:0]               cv_id_q, cv_id_d;
  logic                             cv_par_q, cv_par_d;
  tag_t                             tp1_d, tp1_q, tp2_q, tp3_q;   // group k's ready time
  logic [1:0][3:0]                  rdy_q, rdy_d;          // [result buffer][group] ready
  logic [1:0][15:0]                 rs_q, rs_d;            // [result buffer] its s

  // Writes.
  logic                             wr_v_q, wr_v_d;
  logic [1:0]                       wr_g_q, wr_g_d;
  logic [2:0]                       wr_i_q, wr_i_d;
  logic                             wr_new_q, wr_new_d;    // at a new instruction: its first group

  // Stores (no reset): a lane's entry is written by the address stage before it is read; an
  // element byte only read after its block was taken (or masked); a result after its conversion.
  // A lane's entry is in u_lane (below), a row per (id, group), but for its address bits 3:0,
  // which the gather reads for any lane of G.
  typedef struct packed {
    logic        part;
    logic        unbound;
    logic [3:0]  in_range;
    logic [31:0] old;        // the old VGPR value (D16 byte/short loads; LDS loads' words)
  } lane_t;
  // A lane's row in the result buffers: its result element and what stage 0 selects by.
  typedef struct packed {
    logic         unbound;
    logic [3:0]   in_range;
    logic [127:0] data;
  } res_t;
  logic [InFlight-1:0][3:0][GroupLanes-1:0][3:0] off_q;   // [id][group][lane] address bits 3:0
  logic [1:0][63:0][127:0]                           eb_q;    // [buffer][lane] element bytes
  logic [1:0][3:0][GroupLanes-1:0][18:0]            lb_q;    // [buffer][group][lane] an LDS
                                                             // load's lane words

  ////////////
  // Gather //
  ////////////

  logic               g_valid, g_free, g_take, g_atomic, g_step, gathered;
  logic [PipeIdW-1:0] g_id;
  logic               g_par;
  logic [2:0]         g_ntaken;
  logic [3:0]         g_blocks;
  logic [3:0]         g_cand;       // return register b holds an access of G
  logic [3:0]         g_fit;        // ... and fits the cycle's four blocks (taken with g_take)
  logic [3:0][4:0]    g_nb;         // its blocks (0 if not)
  logic [3:0][4:0]    g_pre;        // the blocks of G's registers in banks 0..b
  logic [RpW-1:0]     g_rp_left;    // G's returning accesses after the take, before the bundle
  logic               g_acc;        // the cycle's accepted bundle is G's
  logic               g_rp_zero;    // G has no returning access left after the cycle

  // Block slots.
  typedef struct packed {
    logic [3:0]   quad;
    logic [3:0]   lanes;
    logic         second;
    logic [127:0] blk;
  } slot_t;
  // The candidate that `put` names (at most one; 0 for none), as a balanced OR tree.
  function automatic slot_t slot_or(slot_t [15:0] cand, logic [15:0] put);
    slot_t [30:0] n;   // heap: leaves 15..30, node k = n[2k + 1] | n[2k + 2]
    for (int i = 0; i < 16; i++) begin
      n[15 + i] = put[i] ? cand[i] : '0;
    end
    for (int k = 14; k >= 0; k--) begin
      n[k] = n[2*k + 1] | n[2*k + 2];
    end
    return n[0];
  endfunction
  slot_t [15:0]              sl_cand;   // [4 bank + r] request r of bank b's contents
  logic [3:0][15:0]          sl_put;    // [slot][4 bank + r] the request goes to the slot
  slot_t [3:0]               sl_or;     // each slot's request
  logic [3:0]                sl_v;
  logic [3:0][3:0]           sl_quad;
  logic [3:0][3:0]           sl_lanes;
  logic [3:0]                sl_second;
  logic [3:0][127:0]         sl_blk;
  logic [3:0][3:0][127:0]    sl_data;   // [slot][lane of the quad] the bytes at element positions
  logic [3:0][3:0][15:0]     sl_be;     // ... and which
  logic [63:0][15:0]         eb_be;     // element-buffer byte enables
  logic [63:0][127:0]        eb_wd;

  always_comb begin
    g_valid  = gcnt_q != tail_q;
    g_id     = wq_q[gcnt_q[3:0]];
    g_par    = gcnt_q[0];
    g_free   = (gcnt_q - rel_q) < CntW'(2);
    g_take   = g_valid & g_free;
    g_atomic = info_q[ix(g_id)].kind == PipeAtomic;

    // Take G's return registers in bank order while the cycle's blocks stay at most 4: a
    // register of G is taken when the blocks of G's registers up to its bank (a prefix sum, all
    // four side by side, not a running sum) are at most 4. The first that does not fit ends the
    // taking, as every later prefix is larger.
    for (int b = 0; b < 4; b++) begin
      g_cand[b] = rr_i[b].valid && (rr_i[b].ret.id == g_id);
      g_nb[b]   = g_cand[b] ? {2'b00, rr_i[b].ret.nreq} : 5'd0;
    end
    g_pre[0] = g_nb[0];
    g_pre[1] = g_nb[0] + g_nb[1];
    g_pre[2] = g_pre[1] + g_nb[2];
    g_pre[3] = g_pre[1] + (g_nb[2] + g_nb[3]);
    for (int b = 0; b < 4; b++) begin
      g_fit[b]     = g_cand[b] && (g_pre[b] <= 5'd4);
      rr_take_o[b] = g_take && g_fit[b];
    end
    g_ntaken = 3'($countones(rr_take_o));
    g_blocks = '0;
    for (int b = 0; b < 4; b++) begin
      if (rr_take_o[b]) begin
        g_blocks = g_pre[b][3:0];   // the last taken register's prefix
      end
    end

    // Pack the taken requests into the four slots, in bank and request order: request r of
    // bank b goes to slot (blocks of the banks before b) + (its rank among b's requests), and
    // each slot is a balanced OR over the sixteen requests, of which at most one names it. The
    // slots' contents do not wait for g_take; their valid bits do.
    for (int b = 0; b < 4; b++) begin
      logic [3:0] rv;   // bank b's valid requests
      for (int q = 0; q < 4; q++) begin
        rv[q] = rr_i[b].ret.req[q].valid;
      end
      for (int r = 0; r < 4; r++) begin
        logic [4:0] pos;
        pos = ((b == 0) ? 5'd0 : g_pre[(b == 0) ? 0 : b - 1]) +
              5'($countones(rv & 4'((1 << r) - 1)));
        sl_cand[4*b + r] = '{quad: rr_i[b].ret.req[r].quad, lanes: rr_i[b].ret.req[r].lanes,
                             second: rr_i[b].ret.req[r].second,
                             blk: rr_i[b].data[128*rr_i[b].ret.req[r].blk +: 128]};
        for (int t = 0; t < 4; t++) begin
          sl_put[t][4*b + r] = g_fit[b] && rr_i[b].ret.req[r].valid && (pos == 5'(t));
        end
      end
    end
    for (int t = 0; t < 4; t++) begin
      sl_or[t]     = slot_or(sl_cand, sl_put[t]);
      sl_v[t]      = g_take && (sl_put[t] != '0);
      sl_quad[t]   = sl_or[t].quad;
      sl_lanes[t]  = sl_or[t].lanes;
      sl_second[t] = sl_or[t].second;
      sl_blk[t]    = sl_or[t].blk;
    end

    // Each slot's bytes at their element positions, per lane of its quad: the block rotated
    // down by the lane's offset o puts a first block's bytes o..15 at element bytes 0..15-o and
    // a second block's bytes 0..o-1 at 16-o..15; the byte enables take those.
    for (int s = 0; s < 4; s++) begin
      for (int j = 0; j < 4; j++) begin
        logic [3:0] o;
        o = g_atomic ? 4'd0 : off_q[ix(g_id)][sl_quad[s][3:2]][{sl_quad[s][1:0], 2'(j)}];
        sl_data[s][j] = 128'({sl_blk[s], sl_blk[s]} >> {o, 3'b000});
        sl_be[s][j]   = sl_second[s] ? ~(16'hffff >> o) : (16'hffff >> o);
      end
    end

    // Each element-buffer byte from the slot that names its lane and byte (at most one: a
    // lane's first and second block write different bytes): a 4:1 multiplexer per bit, its
    // select the number of that slot (the data of a byte not written is not used).
    for (int l = 0; l < 64; l++) begin
      logic [3:0][15:0] hit;   // [slot] the bytes it writes
      logic [1:0][15:0] sel;   // per byte the number of the slot that writes it
      for (int s = 0; s < 4; s++) begin
        hit[s] = (sl_v[s] && (sl_quad[s] == 4'(l / 4)) && sl_lanes[s][l % 4])
               ? sl_be[s][l % 4] : 16'd0;
      end
      sel[0]   = hit[1] | hit[3];
      sel[1]   = hit[2] | hit[3];
      eb_be[l] = hit[0] | hit[1] | hit[2] | hit[3];
      for (int y = 0; y < 16; y++) begin
        eb_wd[l][8*y +: 8] = sel[1][y] ? (sel[0][y] ? sl_data[3][l % 4][8*y +: 8]
                                                    : sl_data[2][l % 4][8*y +: 8])
                                       : (sel[0][y] ? sl_data[1][l % 4][8*y +: 8]
                                                    : sl_data[0][l % 4][8*y +: 8]);
      end
    end

    g_step    = stepped_q[ix(g_id)] | (step_end_i.valid & (step_end_i.id == g_id));
    // G's returning accesses left after this cycle's take, without this cycle's accepted
    // bundle (from registers and the take), and the bundle compared against it last: rpend -
    // taken + nret == 0 exactly when nret == -(rpend - taken), modulo 2^RpW.
    g_rp_left = rpend_q[ix(g_id)] - RpW'(g_ntaken);
    g_acc     = acc_i.valid && (acc_i.id == g_id);
    g_rp_zero = g_acc ? (RpW'(acc_i.nret) == RpW'(-g_rp_left)) : (g_rp_left == '0);
    gathered  = g_valid & g_step & g_rp_zero;
    `VMEM_TEST_HOOK(vmem_pipe_brk_td_gather)  // test builds only (see the contract above)
  end

  // Byte-enabled writes into G's element buffer (constant indices: one enable per byte).
  always_ff @(posedge clk_i) begin
    for (int p = 0; p < 2; p++) begin
      for (int l = 0; l < 64; l++) begin
        for (int y = 0; y < 16; y++) begin
          if ((g_par == 1'(p)) && eb_be[l][y]) begin
            eb_q[p][l][8*y +: 8] <= eb_wd[l][8*y +: 8];
          end
        end
      end
    end
  end

  ////////////////
  // Conversion //
  ////////////////

  // The feed: group f of the instruction converted, its lanes as the writes' conversion reads
  // them, into the result buffer at the edge that ends s + k.
  logic               start, f_valid, f_par;
  logic [PipeIdW-1:0] x_id, f_id;
  logic [1:0]         f_group;
  cinfo_t             fi;
  pipe_info_t         f_info;
  lane_t              fl;
  logic [127:0]       raw;
  logic [15:0][127:0] el;          // the element as unpack reads it
  logic [15:0][31:0]  f_old;
  logic [15:0][127:0] f_row;       // what a lane keeps in the result buffer
  res_t [15:0]        f_res;       // ... with its entry's unbound and in_range
  lane_t [GroupLanes-1:0] lane_rd; // u_lane's read data: group f's lane entries

  always_comb begin
    fl      = '0;
    raw     = '0;
    x_id    = wq_q[ccnt_q[3:0]];
    start   = conv_start(ccnt_q, gcnt_q, wcnt_q, cv_act_q);
    f_valid = start | cv_act_q;
    f_id    = start ? x_id : cv_id_q;
    f_par   = start ? ccnt_q[0] : cv_par_q;
    f_group = start ? 2'd0 : cv_k_q;
    f_info  = info_q[ix(f_id)];
    fi      = dinfo_q[ix(f_id)];
    tp1_d   = '{valid: f_valid, par: f_par, group: f_group};

    for (int l = 0; l < GroupLanes; l++) begin
      fl  = lane_rd[l];
      raw = eb_q[f_par][{f_group, 4'(l)}];
      for (int i = 0; i < 4; i++) begin
        el[l][32*i +: 32] = ((3'(i) < fi.ndw) && !fl.unbound &&
                             fl.in_range[(f_info.bytes > 5'd4) ? i : 0])
                          ? (raw[32*i +: 32] & fi.bmask) : 32'd0;
      end
      f_old[l] = fl.old;
      // GET_RESINFO: the element is the lane's tuple (width, height, layers, levels) of level
      // L = old[3:0] when it exists (old[4]), else (0, 0, 0, levels); SPEC §4.2, §4.4.
      if (f_info.rsi.resinfo) begin
        el[l] = resinfo_tuple(f_info.rsi, f_old[l][4], f_old[l][3:0]);
      end
      if (fi.atomic) begin
        f_row[l] = {64'd0, fl.part ? raw[63:0] : 64'd0};   // 0 where the lane did not take part
      end else if (fi.pck) begin
        // PCK: from the element as unpack would see it (0 outside the level or unbound), so a
        // lane that did not take part reads 0 in every field.
        f_row[l] = pck_fields(f_info.dfmt, el[l], fi.sgn);
      end else if (fi.d16bs) begin
        f_row[l] = {64'd0, f_old[l], el[l][31:0]};          // at most 2 bytes, the old value
      end else begin
        f_row[l] = el[l];
      end
      f_res[l] = '{unbound: fl.unbound, in_range: fl.in_range, data: f_row[l]};
    end
  end

  // The LDS loads' {LDS lane, lds_address} words, beside the result buffers (u_res, below).
  always_ff @(posedge clk_i) begin
    for (int p = 0; p < 2; p++) begin
      for (int g = 0; g < 4; g++) begin
        if (f_valid && (f_par == 1'(p)) && (f_group == 2'(g))) begin
          if (fi.lds) begin
            for (int l = 0; l < GroupLanes; l++) begin
              lb_q[p][g][l] <= f_old[l][18:0];
            end
          end
        end
      end
    end
  end

  // The writes' conversion: the writes in their order (cw_*: the writes' sequence, one a cycle),
  // write n issued in cycle c when its group is in the result buffer (fed_q), its instruction's
  // feed has started and fewer than four issued writes wait for the port (cw_out_q): stage 0
  // (cycle c) takes the lanes' row (u_res, read at the edge before) and selects each of the
  // dword's components (two for D16 format loads: components 2i and 2i + 1), stage 1 (c + 1)
  // converts them (vmem_fp_pkg::unpack_component, f32_round), stage 2 (c + 2) narrows D16
  // halves or takes multi_texel's or d16's result (both fed in c), into the port queue at the
  // edge that ends c + 2. Write n shows in the queue from c + 3 <= its earliest presentation
  // (docs/decisions.md "TD and completion").
  typedef struct packed {
    logic        cvt;       // a field to convert; else `bits` is the value
    logic [31:0] bits;
    logic [5:0]  w;
  } cslot_t;
  typedef struct packed {
    logic       valid;
    logic       mtx;        // multi_texel's result dword i
    logic       d16bs;      // d16's result dword 0
    logic       narrow;     // D16 format load: two halves
    logic       intf;
    logic [2:0] nfmt;
    logic [1:0] i;
  } ctag_t;

  // The result buffers: a 1R1W register-file macro of 8 rows (buffer, group) x 16 lanes x 133
  // bits (res_t), written by the feed (a row a cycle) and read for the write stage 0 issues in
  // the next cycle (res_raddr, from the sequence's next state). A row the feed writes at the edge
  // that reads it comes from the feed's row instead (res_byp_q, res_byp_row_q): a group's first
  // write may be issued in the cycle after its feed.
  logic                   res_re, res_byp_d, res_byp_q;
  logic [2:0]             res_raddr;
  res_t [GroupLanes-1:0]  res_rd, res_byp_row_q, res_row;

  logic [CntW-1:0]    cw_cnt_q, cw_cnt_d;  // the instruction's writing-queue position
  logic [1:0]         cw_g_q, cw_g_d;
  logic [2:0]         cw_i_q, cw_i_d;
  logic               cw_new_q, cw_new_d;  // at a new instruction: its first group
  logic [2:0]         cw_out_q, cw_out_d;  // issued, not accepted by the port
  logic [1:0][3:0]    fed_q, fed_d;        // [result buffer][group] fed

  logic [PipeIdW-1:0] c_id;
  logic               c_par, c_go, c_last_i;
  logic [1:0]         c_g;
  logic [3:0]         c_later, c_dm;
  logic [2:0]         c_npop, c_cnt;
  logic               c_fv;
  cinfo_t             ci;
  pipe_info_t         c_info;
  fields_t            c_flds;
  logic [127:0]       c_row;
  logic [3:0]         c_oor;
  logic               c_unb;
  logic [31:0]        c_one;
  ctag_t              t1_d, t1_q, t2_q;
  cslot_t [15:0][1:0] c1_d, c1_q;
  logic [15:0][1:0][31:0] c2_d, c2_q;
  logic [15:0][31:0]  q_wd;            // the port queue's entry written at this edge
  logic [15:0][127:0] u_data;          // d16's and multi_texel's inputs: the row's dword 0
  logic [15:0][31:0]  c_oldv;          // d16's old value
  logic [15:0]        sl_in;           // a multi-texel lane's group_valid: in range (bound)
  logic [2:0]         d16_op;
  logic [15:0]        dh_valid, mt_valid, dh_illegal, mt_illegal;
  logic [15:0][127:0] dh_res, mt_res;
  logic [15:0][2:0]   dh_count, mt_count;

  always_comb begin
    logic [2:0] rank;   // of the component among dmask's channels
    logic [1:0] ch;     // its channel
    logic [2:0] sel;    // its dst_sel
    c_id   = wq_q[cw_cnt_q[3:0]];
    c_par  = cw_cnt_q[0];
    c_info = info_q[ix(c_id)];
    ci     = dinfo_q[ix(c_id)];
    c_g    = cw_new_q ? lowest(ci.egroups) : cw_g_q;
    c_go   = (cw_cnt_q != ccnt_q) && fed_q[c_par][c_g] && (cw_out_q < 3'd4);
    c_dm   = (ci.dmask == 4'd0) ? 4'd1 : ci.dmask;    // swizzle's dmask'
    c_npop = 3'($countones(c_dm));
    c_flds = fmt_fields(c_info.dfmt);
    c_cnt  = fmt_count(c_info.dfmt);
    c_fv   = fmt_valid(c_info.dfmt, c_info.nfmt);
    c_one  = ci.intf ? 32'd1 : F32One;                 // SEL_1
    d16_op = (c_info.bytes == 5'd1) ? ((c_info.nfmt == NfmtSint) ? D16LoadSbyte : D16LoadUbyte)
                                    : D16LoadShort;
    t1_d   = '{valid: c_go, mtx: ci.mtx, d16bs: ci.d16bs,
               narrow: ci.d16fmt & ~ci.pck & ~ci.mtx, intf: ci.intf, nfmt: c_info.nfmt,
               i: cw_i_q[1:0]};
    c1_d   = '0;
    c_row  = '0;
    c_oor  = '0;
    c_unb  = 1'b0;
    rank   = '0;
    ch     = '0;
    sel    = '0;

    for (int l = 0; l < GroupLanes; l++) begin
      c_row     = res_row[l].data;
      u_data[l] = {96'd0, c_row[31:0]};
      c_oldv[l] = c_row[63:32];
      sl_in[l]  = res_row[l].in_range[0] & ~res_row[l].unbound;
      // swizzle's inputs: a component out of range, or the lane unbound or the format invalid.
      c_oor     = (c_info.sized && (c_info.bytes > 5'd4)) ? ~res_row[l].in_range
                : (res_row[l].in_range[0] ? 4'd0 : 4'hf);
      c_unb     = res_row[l].unbound | ~c_fv;
      if (ci.atomic) begin
        c1_d[l][0].bits = c_row[32*cw_i_q[0] +: 32];
      end else if (cw_i_q >= ci.rdata) begin
        c1_d[l][0].bits = 32'd0;                       // the TFE status dword
      end else if (ci.pck) begin
        c1_d[l][0].bits = c_row[32*dmask_channel(ci.dmask, cw_i_q[1:0]) +: 32];
      end else begin
        // Result dword i: channel dmask_channel(dmask', i) (D16: the channels of ranks 2i and
        // 2i + 1), through its dst_sel: 0, SEL_1's constant, or its component (0 when absent
        // from the format, out of range or unbound).
        for (int h = 0; h < 2; h++) begin
          rank = ci.d16fmt ? {cw_i_q[1:0], 1'(h)} : cw_i_q;
          ch   = dmask_channel(c_dm, rank[1:0]);
          sel  = c_info.dst_sel[3*ch +: 3];
          if ((rank < c_npop) && !c_unb && ((h == 0) || ci.d16fmt)) begin
            if (sel == 3'd1) begin
              c1_d[l][h].bits = c_one;
            end else if (sel[2] && !c_oor[sel[1:0]] && ({1'b0, sel[1:0]} < c_cnt)) begin
              c1_d[l][h].cvt  = 1'b1;
              c1_d[l][h].w    = c_flds[sel[1:0]].width;
              c1_d[l][h].bits = 32'(c_row >> c_flds[sel[1:0]].lsb) &
                                32'((33'd1 << c_flds[sel[1:0]].width) - 33'd1);
            end
          end
        end
      end
    end
    // The sequence: past the write issued, in the writes' order.
    cw_cnt_d = cw_cnt_q;
    cw_g_d   = c_g;
    cw_i_d   = cw_i_q;
    cw_new_d = cw_new_q;
    c_last_i = (cw_i_q + 3'd1) >= ci.w;
    c_later  = ci.egroups & ~((4'd2 << c_g) - 4'd1);
    if (c_go) begin
      cw_new_d = 1'b0;
      if (!c_last_i) begin
        cw_i_d = cw_i_q + 3'd1;
      end else if (c_later != 4'd0) begin
        cw_g_d = lowest(c_later);
        cw_i_d = '0;
      end else begin
        cw_cnt_d = cw_cnt_q + CntW'(1);
        cw_i_d   = '0;
        cw_new_d = 1'b1;
      end
    end
    // The row of the write stage 0 can issue in the next cycle: the next state's buffer and
    // group (an instruction's entries in wq_q and dinfo_q were written at its take, before its
    // feed started), read when its feed will have started.
    res_re    = cw_cnt_d != ccnt_d;
    res_raddr = {cw_cnt_d[0],
                 cw_new_d ? lowest(dinfo_q[ix(wq_q[cw_cnt_d[3:0]])].egroups) : cw_g_d};
    `VMEM_TEST_HOOK(vmem_pipe_brk_td_conv)  // test builds only (see the contract above)
  end

  assign res_byp_d = f_valid && ({f_par, f_group} == res_raddr);
  assign res_row   = res_byp_q ? res_byp_row_q : res_rd;

  vmem_pipe_rf #(.Depth(8), .Width(GroupLanes * $bits(res_t))) u_res (
    .clk_i,
    .we_i    (f_valid),
    .waddr_i ({f_par, f_group}),
    .wdata_i (f_res),
    .re_i    (res_re),
    .raddr_i (res_raddr),
    .rdata_o (res_rd)
  );

  // The bypassed row: no reset, used only when res_byp_q says it was written.
  always_ff @(posedge clk_i) begin
    if (res_re && res_byp_d) begin
      res_byp_row_q <= f_res;
    end
  end
  `VMEM_FF_EN(res_byp_q, res_byp_d, res_re, 1'b0)

  for (genvar l = 0; l < GroupLanes; l++) begin : g_lane
    // Multi-texel loads: the lane's texels (at most 4 bytes, the row's dword 0); the result
    // dword i of the write.
    multi_texel u_multi_texel (
      .clk_i,
      .rst_ni,
      .valid_i         (c_go & ci.mtx),
      .op_i            (c_info.mtx_op),
      .dmask_i         (c_info.dmask),
      .dfmt_i          ({2'b00, c_info.dfmt}),
      .nfmt_i          ({1'b0, c_info.nfmt}),
      .group_valid_i   (sl_in[l]),
      .texels_i        (u_data[l][63:0]),
      .valid_o         (mt_valid[l]),
      .result_o        (mt_res[l]),
      .result_count_o  (mt_count[l]),
      .illegal_o       (mt_illegal[l])
    );

    // D16 byte/short loads: the element's byte or short into the old VGPR value's half.
    d16 u_d16 (
      .clk_i,
      .rst_ni,
      .valid_i        (c_go & ci.d16bs),
      .op_i           (d16_op),
      .hi_i           (c_info.d16 == 2'd2),
      .nfmt_i         (3'd0),
      .count_i        (3'd0),
      .data_i         (u_data[l]),
      .old_i          (c_oldv[l]),
      .valid_o        (dh_valid[l]),
      .result_o       (dh_res[l]),
      .result_count_o (dh_count[l]),
      .illegal_o      (dh_illegal[l])
    );
  end

  // Unit outputs this block does not need: the valids (the tags travel with them, asserted
  // below), the counts, illegal (never for the ops fed) and d16's dwords 1-3 (0).
  logic [15:0][95:0] dh_res_hi;
  for (genvar l = 0; l < GroupLanes; l++) begin : g_dh_hi
    assign dh_res_hi[l] = dh_res[l][127:32];
  end
  logic unused_units;
  assign unused_units = ^{dh_valid[15:1], dh_count, dh_illegal, dh_res_hi, mt_valid[15:1],
                          mt_count, mt_illegal, u_data};

  // Stage 1: the conversion of each selected component; stage 2: the dword into the queue.
  always_comb begin
    for (int l = 0; l < GroupLanes; l++) begin
      for (int h = 0; h < 2; h++) begin
        c2_d[l][h] = c1_q[l][h].cvt
                   ? f32_round(unpack_component(c1_q[l][h].bits, c1_q[l][h].w, nfmt_e'(t1_q.nfmt)))
                   : c1_q[l][h].bits;
      end
    end
    for (int l = 0; l < GroupLanes; l++) begin
      if (t2_q.mtx) begin
        q_wd[l] = mt_res[l][32*t2_q.i +: 32];
      end else if (t2_q.d16bs) begin
        q_wd[l] = dh_res[l][31:0];
      end else if (t2_q.narrow) begin
        // D16 format loads: each component narrowed to a half (d16 OP_LOAD_FORMAT: integer
        // formats their low 16 bits; 0 stays 0).
        for (int h = 0; h < 2; h++) begin
          q_wd[l][16*h +: 16] = t2_q.intf ? c2_q[l][h][15:0] : f32_to_f16(c2_q[l][h]);
        end
      end else begin
        q_wd[l] = c2_q[l][0];
      end
    end
  end

  // The stages' data (no reset: read only with their tags' valid).
  always_ff @(posedge clk_i) begin
    if (t1_d.valid) begin
      c1_q <= c1_d;
    end
    if (t1_q.valid) begin
      c2_q <= c2_d;
    end
  end

  // The port queue: four entries, written in issue order, read in write order.
  logic [2:0]                  pq_w_q, pq_w_d, pq_r_q, pq_r_d;
  logic [3:0][15:0][31:0]      pq_q;
  logic [15:0][31:0]           pq_head;
  always_ff @(posedge clk_i) begin
    if (t2_q.valid) begin
      pq_q[pq_w_q[1:0]] <= q_wd;
    end
  end
  assign pq_head = pq_q[pq_r_q[1:0]];

  ////////////
  // Writes //
  ////////////

  logic [PipeIdW-1:0] w_id, w_id_next;
  logic               w_par;
  cinfo_t             wi, wi_next;
  pipe_info_t         w_info;       // the writes read its vdata and exec (derived: dinfo_q)
  logic               wr_acc, wr_last_i, inst_last;
  logic [3:0]         wr_later;
  logic [18:0]        lrow;         // an LDS lane's {LDS lane, lds_address}
  logic               vg_stall_q;          // the VGPR port's write was stalled (checks only)
  logic               ld_stall_q;          // the LDS port's write was stalled (checks only)
  pipe_lds_t          ld_prev_q;           // ... and what it showed

  always_comb begin
    lrow      = '0;
    w_id      = wq_q[wcnt_q[3:0]];
    w_id_next = wq_q[4'(wcnt_q[3:0] + 4'd1)];
    w_par     = wcnt_q[0];
    w_info    = info_q[ix(w_id)];
    wi        = dinfo_q[ix(w_id)];
    wi_next   = dinfo_q[ix(w_id_next)];
    wr_acc    = wr_v_q & (wi.lds ? lds_ready_i : vgpr_ready_i);
    wr_last_i = (wr_i_q + 3'd1) >= wi.w;
    wr_later  = wi.egroups & ~((4'd2 << wr_g_q) - 4'd1);
    inst_last = wr_acc & wr_last_i & (wr_later == 4'd0);

    vgpr_o = '0;
    lds_o  = '0;
    if (wr_v_q && wi.lds) begin
      // An LDS load: its group's LDS lanes, each its lds_address and its result dword 0.
      lds_o.valid = 1'b1;
      for (int l = 0; l < GroupLanes; l++) begin
        lrow          = lb_q[w_par][wr_g_q][l];
        lds_o.mask[l] = w_info.exec[GroupLanes*wr_g_q + l] & lrow[18];
        lds_o.addr[l] = lds_o.mask[l] ? lrow[17:0] : 18'd0;
        lds_o.data[l] = lds_o.mask[l] ? pq_head[l] : 32'd0;
      end
    end else if (wr_v_q) begin
      vgpr_o.valid = 1'b1;
      vgpr_o.addr  = w_info.vdata + {5'd0, wr_i_q};
      vgpr_o.group = wr_g_q;
      vgpr_o.mask  = w_info.exec[GroupLanes*wr_g_q +: GroupLanes];
      for (int l = 0; l < GroupLanes; l++) begin
        vgpr_o.data[l] = vgpr_o.mask[l] ? pq_head[l] : 32'd0;
      end
    end
    `VMEM_TEST_HOOK(vmem_pipe_brk_td_wr)  // test builds only (see the contract above)
    `VMEM_TEST_HOOK(vmem_pipe_brk_td_lds)  // test builds only (see the contract above)
  end
  logic unused_w_info;
  assign unused_w_info = ^w_info;

  ///////////////////////////////
  // Next state, done          //
  ///////////////////////////////

  cinfo_t nwi;      // the instruction written next
  logic               lane_re, n_start;  // u_lane's read: the converter's group of the next cycle
  logic [PipeIdW-1:0] n_fid;
  logic [1:0]         n_fgroup;
  logic   wr;       // the instruction taken is writing

  // Fields of the derived information and of the lane entries a stage does not use (each stage
  // reads its own).
  logic unused_fields;
  assign unused_fields = ^{fi, ci, wi, nwi, fl, f_info, c_info, t2_q};

  always_comb begin
    logic [PipeIdW-1:0] h;
    logic               h_step, h_fin, h_fin_now;
    logic               n_new;
    logic [1:0]         n_g;
    logic               n_par;

    inf_d     = inf_q;
    info_d    = info_q;
    dinfo_d   = dinfo_q;
    wrt_d     = wrt_q;
    stepped_d = stepped_q;
    ta_d      = ta_q;
    rpend_d   = rpend_q;
    fin_d     = fin_q;
    td_d      = td_q;
    cnt_d     = cnt_q;
    dptr_d    = dptr_q;
    wq_d      = wq_q;
    tail_d    = tail_q;
    gcnt_d    = gcnt_q;
    rel_d     = rel_q;
    ccnt_d    = ccnt_q;
    wcnt_d    = wcnt_q;
    cv_act_d  = cv_act_q;
    cv_k_d    = cv_k_q;
    cv_id_d   = cv_id_q;
    cv_par_d  = cv_par_q;
    rdy_d     = rdy_q;
    rs_d      = rs_q;
    wr_v_d    = wr_v_q;
    wr_g_d    = wr_g_q;
    wr_i_d    = wr_i_q;
    wr_new_d  = wr_new_q;
    fed_d     = fed_q;
    done_d    = '0;

    // Take, step end, accepted bundles, taken return registers.
    if (step_end_i.valid) begin
      stepped_d[ix(step_end_i.id)] = 1'b1;
      ta_d[ix(step_end_i.id)]      = step_end_i.ta;
    end
    // G's taken blocks first (from registers and the take), the accepted bundle's count last,
    // added per entry so that the late id selects among sums, not the operand of one sum.
    rpend_d[ix(g_id)] = rpend_d[ix(g_id)] - RpW'(g_ntaken);
    for (int i = 0; i < InFlight; i++) begin
      if (acc_i.valid && (ix(acc_i.id) == IdxW'(i))) begin
        rpend_d[i] = rpend_d[i] + RpW'(acc_i.nret);
      end
    end
    if (gathered) begin
      gcnt_d = gcnt_q + CntW'(1);
    end

    // Conversion.
    if (start) begin
      ccnt_d          = ccnt_q + CntW'(1);
      cv_id_d         = x_id;
      cv_par_d        = ccnt_q[0];
      rs_d[ccnt_q[0]] = now_i;
      rdy_d[ccnt_q[0]] = '0;
      fed_d[ccnt_q[0]] = '0;
    end
    if (f_valid) begin
      fed_d[f_par][f_group] = 1'b1;
      cv_act_d = f_group != 2'd3;
      cv_k_d   = f_group + 2'd1;
      if (f_group == 2'd3) begin
        rel_d = rel_q + CntW'(1);    // its element buffer is free from s + 4
      end
    end
    if (tp3_q.valid) begin
      rdy_d[tp3_q.par][tp3_q.group] = 1'b1;
    end

    cw_out_d = cw_out_q + {2'b00, c_go} - {2'b00, wr_acc};
    pq_w_d   = pq_w_q + {2'b00, t2_q.valid};
    pq_r_d   = pq_r_q + {2'b00, wr_acc};

    // Writes: advance past an accepted write, then present the next one when its group is ready.
    n_new = wr_new_q;
    n_g   = wr_new_q ? lowest(wi.egroups) : wr_g_q;
    wr_i_d = wr_i_q;
    if (wr_acc) begin
      if (!wr_last_i) begin
        wr_i_d = wr_i_q + 3'd1;
      end else if (wr_later != 4'd0) begin
        n_g    = lowest(wr_later);
        wr_i_d = '0;
      end else begin
        wcnt_d       = wcnt_q + CntW'(1);
        fin_d[ix(w_id)]  = 1'b1;
        td_d[ix(w_id)]   = now_i - rs_q[w_par] + 16'd1;
        rdy_d[w_par] = '0;
        n_new        = 1'b1;
        wr_i_d       = '0;
      end
    end
    nwi   = inst_last ? wi_next : wi;
    n_par = wcnt_d[0];
    if (n_new) begin
      n_g = lowest(nwi.egroups);
    end
    if (wr_v_q && !wr_acc) begin
      wr_v_d = 1'b1;
    end else begin
      wr_v_d = (wcnt_d != ccnt_d) && rdy_d[n_par][n_g];
    end
    wr_g_d   = n_g;
    wr_new_d = n_new & ~wr_v_d;

    // Done: the oldest instruction, when it is finished after this edge.
    h         = dptr_q;
    h_fin_now = inst_last && (w_id == h);
    h_step    = stepped_q[ix(h)] | (step_end_i.valid & (step_end_i.id == h));
    h_fin     = inf_q[ix(h)] && (wrt_q[ix(h)] ? (fin_q[ix(h)] | h_fin_now) : (h_step & posted_zero_i[h]));
    if (h_fin) begin
      inf_d[ix(h)]       = 1'b0;
      cnt_d          = cnt_d - CntW'(1);
      dptr_d         = (32'(dptr_q) == InFlight - 1) ? '0 : dptr_q + PipeIdW'(1);
      done_d.valid   = 1'b1;
      done_d.issue   = info_q[ix(h)].t_last - info_q[ix(h)].t_first + 16'd1;
      done_d.ta      = (step_end_i.valid && (step_end_i.id == h)) ? step_end_i.ta : ta_q[ix(h)];
      done_d.tcp     = ctr_i.tcp_any ? (ctr_i.tcp_last - ctr_i.tcp_first + 16'd1) : 16'd0;
      done_d.l2      = ctr_i.l2_any ? (ctr_i.l2_last - ctr_i.l2_first + 16'd1) : 16'd0;
      done_d.td      = !wrt_q[ix(h)] ? 16'd0 : (h_fin_now ? (now_i - rs_q[w_par] + 16'd1) : td_q[ix(h)]);
      done_d.total   = now_i + 16'd1 - info_q[ix(h)].t_first;
      done_d.n       = ctr_i.n;
    end

    wr = 1'b0;
    if (take_i.valid) begin
      wr = ((take_i.info.kind == PipeLoad) || ((take_i.info.kind == PipeAtomic) && take_i.info.glc))
           && (take_i.info.exec != '0) && !(take_i.info.mtx && (take_i.info.mtx_count == 3'd0));
      inf_d[ix(take_i.id)]     = 1'b1;
      info_d[ix(take_i.id)]    = take_i.info;
      dinfo_d[ix(take_i.id)]   = derive(take_i.info);
      wrt_d[ix(take_i.id)]     = wr;
      stepped_d[ix(take_i.id)] = 1'b0;
      fin_d[ix(take_i.id)]     = 1'b0;
      rpend_d[ix(take_i.id)]   = '0;
      cnt_d                = cnt_d + CntW'(1);
      if (wr) begin
        wq_d[tail_q[3:0]] = take_i.id;
        tail_d            = tail_q + CntW'(1);
      end
    end
    // The group the converter feeds in the next cycle: its row of u_lane is read at this edge.
    n_start  = conv_start(ccnt_d, gcnt_d, wcnt_d, cv_act_d);
    n_fid    = n_start ? wq_d[ccnt_d[3:0]] : cv_id_d;
    n_fgroup = n_start ? 2'd0 : cv_k_d;
    lane_re  = n_start | cv_act_d;
    `VMEM_TEST_HOOK(vmem_pipe_brk_td)  // test builds only (see the contract above)
  end

  assign done_id_o       = dptr_q;
  assign inflight_full_o = 32'(cnt_q) >= InFlight;
  assign done_o          = done_q;

  ///////////////
  // Registers //
  ///////////////

  `VMEM_FF(inf_q, inf_d, '0)
  `VMEM_FF(info_q, info_d, '0)
  `VMEM_FF(dinfo_q, dinfo_d, {InFlight{derive('0)}})
  `VMEM_FF(wrt_q, wrt_d, '0)
  `VMEM_FF(stepped_q, stepped_d, '0)
  `VMEM_FF(ta_q, ta_d, '0)
  `VMEM_FF(rpend_q, rpend_d, '0)
  `VMEM_FF(fin_q, fin_d, '0)
  `VMEM_FF(td_q, td_d, '0)
  `VMEM_FF(cnt_q, cnt_d, '0)
  `VMEM_FF(dptr_q, dptr_d, '0)
  `VMEM_FF(done_q, done_d, '0)
  `VMEM_FF(wq_q, wq_d, '0)
  `VMEM_FF(tail_q, tail_d, '0)
  `VMEM_FF(gcnt_q, gcnt_d, '0)
  `VMEM_FF(rel_q, rel_d, '0)
  `VMEM_FF(ccnt_q, ccnt_d, '0)
  `VMEM_FF(wcnt_q, wcnt_d, '0)
  `VMEM_FF(cv_act_q, cv_act_d, 1'b0)
  `VMEM_FF(cv_k_q, cv_k_d, '0)
  `VMEM_FF(cv_id_q, cv_id_d, '0)
  `VMEM_FF(cv_par_q, cv_par_d, 1'b0)
  `VMEM_FF(tp1_q, tp1_d, '0)
  `VMEM_FF(tp2_q, tp1_q, '0)
  `VMEM_FF(tp3_q, tp2_q, '0)
  `VMEM_FF(fed_q, fed_d, '0)
  `VMEM_FF(cw_cnt_q, cw_cnt_d, '0)
  `VMEM_FF(cw_g_q, cw_g_d, '0)
  `VMEM_FF(cw_i_q, cw_i_d, '0)
  `VMEM_FF(cw_new_q, cw_new_d, 1'b1)
  `VMEM_FF(cw_out_q, cw_out_d, '0)
  `VMEM_FF(t1_q, t1_d, '0)
  `VMEM_FF(t2_q, t1_q, '0)
  `VMEM_FF(pq_w_q, pq_w_d, '0)
  `VMEM_FF(pq_r_q, pq_r_d, '0)
  `VMEM_FF(rdy_q, rdy_d, '0)
  `VMEM_FF(rs_q, rs_d, '0)
  `VMEM_FF(wr_v_q, wr_v_d, 1'b0)
  `VMEM_FF(wr_g_q, wr_g_d, '0)
  `VMEM_FF(wr_i_q, wr_i_d, '0)
  `VMEM_FF(wr_new_q, wr_new_d, 1'b1)

  always_ff @(posedge clk_i) begin
    for (int i = 0; i < InFlight; i++) begin
      for (int g = 0; g < 4; g++) begin
        if (res_i.valid && (res_i.id == PipeIdW'(i)) && (res_i.group == 2'(g))) begin
          for (int l = 0; l < GroupLanes; l++) begin
            off_q[i][g][l] <= res_i.lanes[l].offset;
          end
        end
      end
    end
  end

  // The lanes' entries in a 1R1W register-file macro, a row per (id, group): written by the
  // address stage's result, read for the group the converter feeds in the next cycle (the next
  // state's f_id, f_group), so the row shows in that cycle.
  lane_t [GroupLanes-1:0] lane_wd;

  always_comb begin
    for (int l = 0; l < GroupLanes; l++) begin
      lane_wd[l] = '{part: res_i.lanes[l].part, unbound: res_i.lanes[l].unbound,
                     in_range: res_i.lanes[l].in_range, old: res_i.lanes[l].old};
    end
  end

  vmem_pipe_rf #(.Depth(InFlight * 4), .Width(GroupLanes * $bits(lane_t))) u_lane (
    .clk_i,
    .we_i    (res_i.valid),
    .waddr_i ({ix(res_i.id), res_i.group}),
    .wdata_i (lane_wd),
    .re_i    (lane_re),
    .raddr_i ({ix(n_fid), n_fgroup}),
    .rdata_o (lane_rd)
  );

  ////////////////
  // Assertions //
  ////////////////

`ifndef SYNTHESIS
  pipe_vgpr_t vg_prev_q;
  `VMEM_FF(vg_stall_q, vgpr_o.valid & ~vgpr_ready_i, 1'b0)
  `VMEM_FF(vg_prev_q, vgpr_o, '0)
  `VMEM_FF(ld_stall_q, lds_o.valid & ~lds_ready_i, 1'b0)
  `VMEM_FF(ld_prev_q, lds_o, '0)

  // The writes the conversion issued, in issue order (the k-th issued is the k-th accepted):
  // {id, group, dword}, checked against the write the port presents.
  typedef struct packed {
    logic [PipeIdW-1:0] id;
    logic [1:0]         group;
    logic [2:0]         i;
  } cw_tag_t;
  // Eight entries, so that a fifth write issued (ConvCredit_A) does not overwrite the tag of
  // one still waiting.
  cw_tag_t [7:0] ct_q;
  logic [2:0]    ct_n_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ct_n_q <= '0;
    end else if (c_go) begin
      ct_q[ct_n_q] <= '{id: c_id, group: c_g, i: cw_i_q};
      ct_n_q       <= ct_n_q + 3'd1;
    end
  end

  logic a_ew_ok, a_rr_ok, a_hold_ok, a_vidle_ok, a_didle_ok, a_rp_ok, a_cnt_ok, a_lane_ok;
  logic a_conv_ok;
  logic [3:0] res_rd_q;   // {read, row} of u_res at the last edge
  `VMEM_FF(res_rd_q, {res_re, res_raddr}, '0)
  logic a_lhold_ok, a_lidle_ok;
  always_comb begin
    // An element-buffer lane is written at most once per cycle per block of the lane (its first
    // and its second block may come in one cycle: they write different bytes).
    a_ew_ok = 1'b1;
    for (int l = 0; l < 64; l++) begin
      logic [1:0] n0, n1;
      n0 = '0;
      n1 = '0;
      for (int s = 0; s < 4; s++) begin
        if (sl_v[s] && (sl_quad[s] == 4'(l / 4)) && sl_lanes[s][l % 4]) begin
          if (sl_second[s]) begin
            n1 = n1 + 2'd1;
          end else begin
            n0 = n0 + 2'd1;
          end
        end
      end
      if ((n0 > 2'd1) || (n1 > 2'd1)) begin
        a_ew_ok = 1'b0;
      end
    end
    // A taken return register holds an access of an instruction in flight.
    a_rr_ok = 1'b1;
    for (int b = 0; b < 4; b++) begin
      if (rr_take_o[b] && !inf_q[ix(rr_i[b].ret.id)]) begin
        a_rr_ok = 1'b0;
      end
    end
    a_hold_ok  = !vg_stall_q || (vgpr_o == vg_prev_q);
    a_vidle_ok = vgpr_o.valid || (vgpr_o == '0);
    a_lhold_ok = !ld_stall_q || (lds_o == ld_prev_q);
    a_lidle_ok = lds_o.valid || (lds_o == '0);
    a_didle_ok = done_o.valid || (done_o == '0);
    // G's returning accesses never go below 0.
    a_rp_ok = {1'b0, RpW'(g_ntaken)} <= {1'b0, rpend_q[ix(g_id)]} +
              (((acc_i.valid && (acc_i.id == g_id))) ? (RpW + 1)'(acc_i.nret) : '0);
    a_cnt_ok = 32'(cnt_q) <= InFlight;
    // The presented write's data is in the port queue, at its head.
    a_conv_ok = !wr_v_q || ((pq_w_q != pq_r_q) &&
                            (ct_q[pq_r_q] == {w_id, wr_g_q, wr_i_q}));
    // u_lane never reads the row written at the same edge (it would show the row's old value).
    a_lane_ok = !(res_i.valid && lane_re && (ix(res_i.id) == ix(n_fid)) &&
                  (res_i.group == n_fgroup));
  end
`endif

`VMEM_ASSERT(ElemWriteOnce_A, a_ew_ok)
`VMEM_ASSERT(ReturnTakenInFlight_A, a_rr_ok)
`VMEM_ASSERT(TakeBlocks_A, g_blocks <= 4'd4)
`VMEM_ASSERT(ReturnPending_A, a_rp_ok)
`VMEM_ASSERT(TakeFree_A, take_i.valid |-> !inf_q[ix(take_i.id)])
`VMEM_ASSERT(InflightMax_A, a_cnt_ok)
`VMEM_ASSERT(LaneRowNotWritten_A, a_lane_ok)
`VMEM_ASSERT(StepEndInFlight_A, step_end_i.valid |-> (inf_q[ix(step_end_i.id)] && !stepped_q[ix(step_end_i.id)]))
`VMEM_ASSERT(VgprHold_A, a_hold_ok)
`VMEM_ASSERT(VgprMask_A, vgpr_o.valid |-> (vgpr_o.mask != '0))
`VMEM_ASSERT(VgprIdleZero_A, a_vidle_ok)
`VMEM_ASSERT(DoneIdleZero_A, a_didle_ok)
`VMEM_ASSERT(D16Tag_A, dh_valid[0] == (t2_q.valid && t2_q.d16bs))
`VMEM_ASSERT(MultiTexelTag_A, mt_valid[0] == (t2_q.valid && t2_q.mtx))
// The writes' conversion: at most four writes issued and not accepted (the port queue's four
// entries), and the write the port presents is the queue's head.
`VMEM_ASSERT(ConvCredit_A, cw_out_q <= 3'd4)
`VMEM_ASSERT(ConvOrder_A, a_conv_ok)
// The row stage 0 reads is the write's: u_res read it at the last edge.
`VMEM_ASSERT(ResRowRead_A, c_go |-> (res_rd_q == {1'b1, c_par, c_g}))
// The LDS port: a write stalled by lds_ready_i is held, an idle port shows 0, and an LDS load
// writes no VGPR (docs/decisions.md "LDS loads").
`VMEM_ASSERT(LdsHold_A, a_lhold_ok)
`VMEM_ASSERT(LdsIdleZero_A, a_lidle_ok)
`VMEM_ASSERT(LdsNoVgpr_A, !(lds_o.valid && vgpr_o.valid))
`VMEM_ASSERT_KNOWN_IF(VgprKnown_A, vgpr_o, vgpr_o.valid)
`VMEM_ASSERT_KNOWN_IF(DoneKnown_A, done_o, done_o.valid)
`VMEM_ASSERT_KNOWN_IF(LdsKnown_A, lds_o, lds_o.valid)

endmodule : vmem_pipe_td

`endif  // VMEM_VMEM_PIPE_TD_SV
