// Copyright gcn-vmem contributors.
//
// coalescer: the texture addresser's request coalescer. Takes one wave (64 lane addresses, the
// active mask, the access size, single-component or not) and emits its 16-byte-block memory
// requests one per cycle, with the wave's cycle count (SPEC §7) on the last one.
//
// Parameters: none.
// Test hook: `VMEM_TEST_HOOK(coalescer_brk), nothing in the design (rtl/vmem_prim_pkg.sv); the
//   break-asserts build puts rtl/test/coalescer_brk.svh there, which makes each property assertion
//   below fail on common waves, just past its bound (tests/coalescer.rs proves each one fires).
//
// Requests of a wave (docs/spec.md §7, docs/decisions.md "coalescer"):
//   Lane k's access covers bytes addr[k] .. addr[k] + size_i (size_i + 1 bytes, mod 2^48). Its
//   first block is addr[k][47:4], its offset o = addr[k][3:0]. With o + size_i + 1 <= 16 it
//   touches that block only (bytes o .. o + size_i); else also the next block (mod 2^44): bytes
//   o .. 15 of the first, 0 .. o + size_i - 16 of the next.
//   Per-lane requests: each active lane in ascending order, one request per block it touches
//   (first block first), lanes = that lane alone.
//   single_i = 0: the per-lane requests of all 64 lanes.
//   single_i = 1: group g = 0..3 (lanes 16g .. 16g+15) in order. Quad q of a group is four
//     consecutive lanes; it is mergeable when none of its active lanes touches two blocks and all
//     its active lanes share their first block (no active lane: mergeable). Group with four
//     mergeable quads: one request per quad with an active lane, ascending: that block, bytes =
//     OR of the active lanes' byte masks, lanes = the quad's active lanes. Otherwise the group's
//     per-lane requests.
//   Cycle count: 16 when single_i = 0; else the sum over the groups of 1 (four mergeable quads,
//   which includes a group with no active lane) or 4. So 4 .. 16.
//
// Beats and outputs: a wave of n >= 1 requests is n beats on n consecutive cycles, in request
//   order: valid_o = 1, addr_o = the block (addr[47:4]), bytes_o (bit b = byte b of the block),
//   lanes_o, and on the last beat last_o = 1 and cycles_o (0 on every other beat). A wave with no
//   active lane is one beat with lanes_o = bytes_o = addr_o = 0, last_o = 1 and its cycles_o. In
//   a cycle without a beat (valid_o = 0) addr_o, bytes_o, lanes_o, last_o, cycles_o are 0.
//
// Handshake and timing: every output is a register. accept = valid_i & ready_o at a rising edge.
//   Idle: an accepting edge captures addr_i, active_i, size_i, single_i and clears ready_o;
//   any other edge sets ready_o. valid_o is 0 after either. Busy: every edge registers the next
//   beat (valid_o = 1); the edge that registers the last beat releases the wave and sets
//   ready_o. The inputs are ignored while busy (ready_o = 0); a sender may withdraw or change a
//   wave while ready_o is 0, and only the values present at the accepting edge are used. So a
//   wave accepted at edge E shows its beats after edges E+1 .. E+n, ready_o is 1 during the
//   cycle of the last beat, and the next wave can be accepted at edge E+n+1 (one cycle with
//   valid_o = 0 between waves). Latency (accepting step to first beat, harness counting): 2.
//   Throughput: one request per cycle; there is no output back-pressure.
//   rst_ni (asynchronous, active low) clears every register: ready_o is 0 while it is low and in
//   the first cycle after release (it rises at the first edge), a wave in flight is dropped.
//
// Implementation (choices invisible at the ports):
//   - Mergeability is decided once, at the accepting edge, from the inputs: per lane a 4-bit
//     add (straddle) and a 44-bit compare with the block of its quad's lowest active lane, ANDed
//     per quad and per group (vmem_pkg's blk_straddles and quad_mergeable: the one definition
//     of SPEC §7's grouping, which vmem_pipe's TA uses too). The wave register holds the addresses, the active mask, the size,
//     single and the four group-merged bits; the beats and cycles_o are computed from it.
//   - Position: `pending_q`, one bit per lane that still starts a request (every active lane of a
//     per-lane group; the lowest active lane of each quad of a merged group), loaded at the
//     accepting edge; plus `second_q`, set while the lowest pending lane's second block is due.
//     Each busy cycle a priority pick (lowest set bit, a log-depth prefix OR) finds the next
//     request; its bit is cleared when its last block is registered, and the beat is the last
//     one when no other bit is pending. A second block always follows its first block in the
//     next beat, so its block is the registered addr_o + 1.
//   - The wave register loads only at an accepting edge and otherwise holds (also after the
//     wave is released); its contents are not visible at the ports then.
//   The contract leaves nothing at the ports open; the choices above are internal only.
//
// Model: rust/coalescer.rs  Tests: tests/coalescer.rs  Spec: docs/spec.md §7

module coalescer
  import vmem_pkg::AddrW;
  import vmem_pkg::blk_straddles;
  import vmem_pkg::quad_mergeable;
(
  `VMEM_UNIT_CLOCKING,  // clk_i, rst_ni, valid_i
  input  logic [63:0][47:0] addr_i,    // lane k's byte address at addr_i[k]
  input  logic [63:0]       active_i,  // bit k = lane k
  input  logic [3:0]        size_i,    // access size in bytes minus one
  input  logic              single_i,  // single-component access (SPEC §7)
  output logic              valid_o,
  output logic              ready_o,
  output logic [43:0]       addr_o,    // the request's block: address bits 47:4
  output logic [15:0]       bytes_o,   // bit b = byte b of the block
  output logic [63:0]       lanes_o,   // bit k = lane k
  output logic              last_o,
  output logic [4:0]        cycles_o   // the wave's cycle count, on the last beat
);

  // Widths and constants local to this unit.
  localparam int unsigned Lanes      = 64;
  localparam int unsigned QuadLanes  = 4;
  localparam int unsigned GroupLanes = 16;
  localparam int unsigned Quads      = Lanes / QuadLanes;       // 16
  localparam int unsigned Groups     = Lanes / GroupLanes;      // 4
  localparam int unsigned GroupQuads = GroupLanes / QuadLanes;  // 4
  localparam int unsigned LaneW      = 6;                       // lane index
  localparam int unsigned QuadW      = 4;                       // quad index
  localparam int unsigned GroupW     = 2;                       // group index
  localparam int unsigned OffW       = 4;                       // byte offset in a 16-byte block
  localparam int unsigned BlockBytes = 16;
  localparam int unsigned BlockW     = AddrW - OffW;            // 44: addr[47:4]
  localparam int unsigned SizeW      = 4;
  localparam int unsigned CyclesW    = 5;

  // SPEC §7 cycle counts.
  localparam logic [CyclesW-1:0] CyclesWave   = 5'd16;  // not single: four lanes per cycle
  localparam logic [CyclesW-1:0] CyclesMerged = 5'd1;   // single, group of four mergeable quads
  localparam logic [CyclesW-1:0] CyclesSplit  = 5'd4;   // single, any other group
  localparam logic [CyclesW-1:0] CyclesMin    = 5'd4;
  localparam logic [CyclesW-1:0] CyclesMax    = 5'd16;

  // A lane's byte address.
  typedef struct packed {
    logic [BlockW-1:0] block;
    logic [OffW-1:0]   offset;
  } lane_addr_t;

  // The held wave (loaded at the accepting edge).
  typedef struct packed {
    lane_addr_t [Lanes-1:0] addr;
    logic [Lanes-1:0]       active;
    logic [SizeW-1:0]       size;
    logic                   single;
    logic [Groups-1:0]      merged;   // group g has four mergeable quads (single or not)
  } wave_t;

  // One output beat (every output but ready_o).
  typedef struct packed {
    logic                  valid;
    logic [BlockW-1:0]     addr;
    logic [BlockBytes-1:0] bytes;
    logic [Lanes-1:0]      lanes;
    logic                  last;
    logic [CyclesW-1:0]    cycles;
  } beat_t;

  wave_t                   wave_d, wave_q;
  logic  [Lanes-1:0]       pending_d, pending_q;
  logic                    second_d, second_q;
  logic                    busy_d, busy_q;
  logic                    ready_d, ready_q;
  beat_t                   beat_d, beat_q;

  logic accept;
  assign accept = valid_i & ready_q;

  //////////////////////////////////////////////////
  // Acceptance: mergeability and request starts //
  //////////////////////////////////////////////////

  lane_addr_t [Lanes-1:0]       in_addr;
  logic [Lanes-1:0]             in_straddle;     // lane k's access touches two blocks
  logic [Lanes-1:0]             in_leader;       // lane k is its quad's lowest active lane
  logic [Lanes-1:0][BlockW-1:0] in_block;        // lane k's first block
  logic [Quads-1:0]             in_quad_ok;      // quad q is mergeable
  logic [Groups-1:0]            in_merged;       // group g: all four quads mergeable
  logic [Lanes-1:0]             in_pending;      // lanes that start a request

  assign in_addr = addr_i;

  always_comb begin
    // Per lane: offset + size >= 16 means the last byte lies in the next block
    // (vmem_pkg::blk_straddles, shared with vmem_pipe's TA).
    for (int unsigned k = 0; k < Lanes; k++) begin
      in_straddle[k] = blk_straddles(in_addr[k].offset, size_i);
      in_block[k]    = in_addr[k].block;
    end

    // Per quad: its lowest active lane.
    in_leader = '0;
    for (int unsigned q = 0; q < Quads; q++) begin
      for (int j = QuadLanes - 1; j >= 0; j--) begin
        if (active_i[QuadLanes*q + j]) begin
          in_leader[QuadLanes*q +: QuadLanes] = QuadLanes'(1) << j;
        end
      end
    end

    // A quad is mergeable when each active lane stays in one block, the block of the quad's
    // lowest active lane (vmem_pkg::quad_mergeable, shared with vmem_pipe's TA).
    for (int unsigned q = 0; q < Quads; q++) begin
      in_quad_ok[q] = quad_mergeable(in_block[QuadLanes*q +: QuadLanes],
                                     in_straddle[QuadLanes*q +: QuadLanes],
                                     active_i[QuadLanes*q +: QuadLanes]);
    end
    for (int unsigned g = 0; g < Groups; g++) begin
      in_merged[g] = &in_quad_ok[GroupQuads*g +: GroupQuads];
    end

    // A merged group's requests start at each quad's lowest active lane, a per-lane group's at
    // every active lane.
    for (int unsigned k = 0; k < Lanes; k++) begin
      in_pending[k] = (single_i && in_merged[k / GroupLanes]) ? in_leader[k] : active_i[k];
    end
  end

  /////////////////////////////////////
  // Busy: the next beat of the wave //
  /////////////////////////////////////

  logic [Lanes-1:0]        below;        // bit k: a lane below k is pending
  logic [Lanes-1:0]        pick;         // lowest pending lane, one-hot (0 when none)
  logic [Lanes-1:0]        rest;         // pending lanes after it
  logic [BlockBytes-1:0]   len_mask;     // size + 1 ones: an access's bytes at offset 0
  logic [LaneW-1:0]        pick_lane;
  logic [QuadW-1:0]        pick_quad;
  logic [GroupW-1:0]       pick_group;
  lane_addr_t              pick_addr;
  logic [2*BlockBytes-1:0] pick_bytes;   // the picked lane's bytes: first block at [15:0], the
                                         // next at [31:16] (nonzero exactly when it straddles)
  logic                    pick_merged;  // picked lane leads a quad of a merged group
  logic [BlockBytes-1:0]   quad_bytes;   // OR of the byte masks of the picked quad's active lanes
  logic [CyclesW-1:0]      cycles;
  beat_t                   beat;
  logic [Lanes-1:0]        beat_pending;
  logic                    beat_second;

  always_comb begin
    // Lowest pending lane: a lane is picked when no lane below it is pending (prefix OR).
    below = pending_q << 1;
    for (int unsigned s = 1; s < Lanes; s = s * 2) begin
      below = below | (below << s);
    end
    pick = pending_q & ~below;
    rest = pending_q & ~pick;

    pick_lane = '0;
    for (int unsigned k = 0; k < Lanes; k++) begin
      if (pick[k]) begin
        pick_lane = pick_lane | LaneW'(k);
      end
    end
    pick_quad   = pick_lane[LaneW-1 -: QuadW];
    pick_group  = pick_lane[LaneW-1 -: GroupW];
    pick_addr   = wave_q.addr[pick_lane];
    len_mask    = {BlockBytes{1'b1}} >> (~wave_q.size);
    pick_bytes  = {{BlockBytes{1'b0}}, len_mask} << pick_addr.offset;
    pick_merged = wave_q.single & wave_q.merged[pick_group];

    quad_bytes = '0;
    for (int unsigned j = 0; j < QuadLanes; j++) begin
      // A merged quad has no straddling active lane: its bytes all lie in the first block.
      if (wave_q.active[QuadLanes*pick_quad + j]) begin
        quad_bytes = quad_bytes | (len_mask << wave_q.addr[QuadLanes*pick_quad + j].offset);
      end
    end

    cycles = CyclesWave;
    if (wave_q.single) begin
      cycles = '0;
      for (int unsigned g = 0; g < Groups; g++) begin
        cycles = cycles + (wave_q.merged[g] ? CyclesMerged : CyclesSplit);
      end
    end

    beat         = '0;
    beat.valid   = 1'b1;
    beat_pending = rest;
    beat_second  = 1'b0;
    if (pending_q == '0) begin
      // No active lane: one beat without a request, carrying the cost.
      beat.last = 1'b1;
    end else if (second_q) begin
      // The picked lane's second block. Its first block is the beat registered at the previous
      // edge, so the next block is addr_o + 1 (mod 2^44).
      beat.addr  = beat_q.addr + BlockW'(1);
      beat.bytes = pick_bytes[BlockBytes +: BlockBytes];
      beat.lanes = pick;
      beat.last  = rest == '0;
    end else if (pick_merged) begin
      // A merged quad: the picked lane is its lowest active lane, the block is the quad's.
      beat.addr  = pick_addr.block;
      beat.bytes = quad_bytes;
      beat.lanes[QuadLanes*pick_quad +: QuadLanes] =
          wave_q.active[QuadLanes*pick_quad +: QuadLanes];
      beat.last  = rest == '0;
    end else begin
      // A per-lane request's first block; a straddling lane stays pending for its second.
      beat.addr  = pick_addr.block;
      beat.bytes = pick_bytes[BlockBytes-1:0];
      beat.lanes = pick;
      if (pick_bytes[BlockBytes +: BlockBytes] != '0) begin
        beat_pending = pending_q;
        beat_second  = 1'b1;
      end else begin
        beat.last = rest == '0;
      end
    end
    if (beat.last) begin
      beat.cycles = cycles;
    end
  end

  ////////////////////////////
  // Handshake and sequence //
  ////////////////////////////

  always_comb begin
    wave_d    = wave_q;
    pending_d = pending_q;
    second_d  = second_q;
    if (busy_q) begin
      beat_d    = beat;
      pending_d = beat_pending;
      second_d  = beat_second;
      busy_d    = ~beat.last;
      ready_d   = beat.last;
      `VMEM_TEST_HOOK(coalescer_brk)  // test builds only (see the contract above)
    end else begin
      beat_d  = '0;
      busy_d  = accept;
      ready_d = ~accept;
      if (accept) begin
        wave_d.addr   = in_addr;
        wave_d.active = active_i;
        wave_d.size   = size_i;
        wave_d.single = single_i;
        wave_d.merged = in_merged;
        pending_d     = in_pending;
        second_d      = 1'b0;
      end
    end
  end

  ///////////////
  // Registers //
  ///////////////

  `VMEM_FF(wave_q, wave_d, '0)
  `VMEM_FF(pending_q, pending_d, '0)
  `VMEM_FF(second_q, second_d, 1'b0)
  `VMEM_FF(busy_q, busy_d, 1'b0)
  `VMEM_FF(ready_q, ready_d, 1'b0)
  `VMEM_FF(beat_q, beat_d, '0)

  assign valid_o  = beat_q.valid;
  assign ready_o  = ready_q;
  assign addr_o   = beat_q.addr;
  assign bytes_o  = beat_q.bytes;
  assign lanes_o  = beat_q.lanes;
  assign last_o   = beat_q.last;
  assign cycles_o = beat_q.cycles;

  ////////////////
  // Assertions //
  ////////////////

// Reset drives every output to 0, which each property accepts; they are disabled while rst_ni is
// low anyway (vmem_prim_pkg.sv).

  // Bit q: lanes has a lane in quad q.
  function automatic logic [Quads-1:0] quads_of(logic [Lanes-1:0] lanes);
    logic [Quads-1:0] quads;
    for (int unsigned q = 0; q < Quads; q++) begin
      quads[q] = |lanes[QuadLanes*q +: QuadLanes];
    end
    return quads;
  endfunction

// Known values (4-state simulators only; see vmem_prim_pkg.sv).
`VMEM_ASSERT_KNOWN(HandshakeKnown_A, {valid_o, ready_o})
`VMEM_ASSERT_KNOWN(OutputsKnown_A, {addr_o, bytes_o, lanes_o, last_o, cycles_o})
// A request fetches at least one byte (an active lane's access is 1..16 bytes).
`VMEM_ASSERT(BytesWithLanes_A, (valid_o && (lanes_o != '0)) |-> (bytes_o != '0))
// The cycle count comes with the last beat and only with it.
`VMEM_ASSERT(CyclesOnLast_A, (cycles_o != '0) == last_o)
// SPEC §7: a wave costs 4 .. 16 cycles, each end its own assertion.
`VMEM_ASSERT(CyclesMin_A, last_o |-> (cycles_o >= CyclesMin))
`VMEM_ASSERT(CyclesMax_A, last_o |-> (cycles_o <= CyclesMax))
// ready_o rises with the last beat, never during an earlier one.
`VMEM_ASSERT(ReadyOnLast_A, (valid_o && ready_o) |-> last_o)
// A request serves one lane or lanes of one quad.
`VMEM_ASSERT(LanesOneQuad_A, $onehot0(quads_of(lanes_o)))
// Between beats every output but ready_o is 0.
`VMEM_ASSERT(IdleZero_A,
    !valid_o |-> ({addr_o, bytes_o, lanes_o, last_o, cycles_o} == '0))

endmodule : coalescer
