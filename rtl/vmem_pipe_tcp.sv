`ifndef VMEM_VMEM_PIPE_TCP_SV  // included by the blocks that instantiate it (see rtl/vmem_pipe.sv)
`define VMEM_VMEM_PIPE_TCP_SV
// Copyright gcn-vmem contributors.
//
// vmem_pipe_tcp: the TCP (L1) of vmem_pipe (docs/decisions.md "vmem_pipe", "TCP (L1): four
// banks, in order"), with the four L2 channels. Sub-block of rtl/vmem_pipe.sv.
//
// Test input:
//   test_break_lru_i  TEST ONLY (vmem_pipe's TestBreakLru). 1: a hit does not make its entry most recently used (misses and
//                 store hits still do). The data returned stays right; only a later victim
//                 choice, and so the hits, misses and L2 traffic that follow, differ: a bug that
//                 only a cycle-level comparison of the L2 channels or the counters sees.
//                 Tied to 0 (the parameter's default): logic unchanged.
//   test_break_asserts_i  TEST ONLY (vmem_pipe's TestBreakAsserts: the program's key, 0 when
//                 off). Key k corrupts a copy of what one assertion reads, nothing else (every
//                 bank; Outstanding_A every id):
//                   10: a stalled request's previous payload has
//                       `return` flipped                               -> L2ReqStable_A
//                   11: the presented request's tag reads as busy      -> L2TagUnique_A
//                   12: the answered tag reads as free                 -> L2RspTag_A
//                   13: the entry a fill lands in reads as not pending -> FillPending_A
//                   14: a looked-up line matches exactly two entries
//                       (its own and its neighbour; 0 and 1 if absent) -> LineUnique_A
//                   15: a line read's or write's address has bit 0 set -> L2ReqAligned_A
//                   16: an idle channel's payload has `return` set     -> L2IdleZero_A
//                   17: an id's completions read as its outstanding
//                       count + 1                                      -> Outstanding_A
//                 14 and 17 fire on any request, 11 and 12 on any L2 request, 13 on a fill, 15
//                 on a line read or write, 16 at once, 10 on a request the L2 does not accept at
//                 once (back-pressure, rate limits). Other keys: no effect.
//
// Behaviour:
//   Bank of a block = address bits 7:6, line = bits 47:6. Each bank: 64 fully associative
//   entries (valid, pending, line, 64 data bytes), an LRU order (a rank per entry, 0 = most
//   recently used; the ranks are a permutation), 8 tags for outstanding L2 requests.
//   Bundle register: one bundle; a bundle is taken (bnd_ready_o) when the register is empty at
//   the start of the cycle or its bundle completes in it; its lookup starts in the next cycle.
//   Accesses: the requests of the bundle to one line (so one bank) form one access, in the order
//   of their first request; atomics never combine. Each cycle each bank handles its first undone
//   access, with the state at the start of the cycle:
//     load, GLC 0: valid and not pending: hit (done; blocks returned; entry MRU). Valid and
//       pending: wait. Absent: miss, presented when a victim (lowest invalid entry, else the LRU
//       entry that is not pending) and a tag (lowest free) exist; done at the accepting edge,
//       where the victim becomes valid, pending and MRU for the line.
//     load, GLC 1: presented when a tag is free; done at acceptance; no entry touched.
//     store: waits while its line is valid and pending; else presents one masked line write
//       (all its requests' bytes, a later request's bytes over an earlier one's) when a tag is
//       free; at the accepting edge a valid line takes the bytes and becomes MRU.
//     atomic: waits while its line is valid and pending; else presents the atomic when a tag is
//       free; at the accepting edge a valid line is invalidated.
//   l2_req_o[b].valid is 1 exactly when the bank's current access can go but for
//   l2_req_ready_i[b]. The tag is the lowest free one at the start of the first cycle the request
//   is presented, then held (pres_q / pres_tag_q) until the accepting edge; the rest of the
//   payload comes from the bundle register and cannot change meanwhile.
//   Responses (one per channel per cycle, at the edge): a fill writes its entry's 64 bytes and
//   clears pending (no LRU change); fills and GLC reads return their waiting requests' blocks;
//   acknowledgements complete their write's requests; an atomic response returns dwords 0-1.
//   The tag is free from the next cycle.
//   ret_o: the requests completing this cycle (applied at the edge by the TD): slot 8b + k, k <
//   4, the hit of bank b's access (request k of the bundle); slot 8b + 4 + m, member m of the
//   tag answered on channel b.
//   Counters per instruction id (cleared when the id is taken): requests, conflicts (per bundle
//   the largest number of accesses of one bank minus 1), hits and misses (load requests whose
//   access hit / sent a line read), the first lookup and last completing cycle of its bundles,
//   the first accepting and last response edge of its L2 requests. quiet_o[id]: no request of
//   id is outstanding (taken by the TCP and not completed).
//
// Every output is a function of registers (the L2 ports of the bundle register, the entry state
// and the tags; bnd_ready_o and ret_o also of this cycle's L2 inputs, internally only).
//
// Spec: docs/spec.md §14 "TCP (L1)", "L2 port"  Contract: docs/decisions.md "vmem_pipe"

// The module instantiated here, for a Verilator run given this file alone (lint without -y rtl,
// from the repository root); it includes once (its guard).
`ifdef VERILATOR
`include "rtl/vmem_pipe_tcp_ram.sv"
`endif

module vmem_pipe_tcp
  import vmem_pkg::*;
(
  input  logic                clk_i,
  input  logic                rst_ni,            // async, active low
  input  logic                test_break_lru_i,  // TEST ONLY: see the contract above.
  input  logic [5:0]          test_break_asserts_i,  // TEST ONLY: see the contract above.
  input  logic [15:0]         now_i,
  // The address stage takes instruction take_id_i (its counters start from 0)
  input  logic                take_i,
  input  logic [1:0]          take_id_i,
  // Bundles from the TA
  input  logic                bnd_valid_i,
  input  pipe_bundle_t        bnd_i,
  output logic                bnd_ready_o,
  // L2 channels (vmem_pipe's ports), channel b at element b
  input  logic [3:0]          l2_req_ready_i,
  input  pipe_l2_rsp_t [3:0]  l2_rsp_i,
  output pipe_l2_req_t [3:0]  l2_req_o,
  // Completions and counters, for the TD
  output pipe_ret_t [31:0]    ret_o,
  output logic [3:0]          quiet_o,
  output pipe_ctr_t [3:0]     ctr_o
);

  localparam int unsigned Banks   = 4;
  localparam int unsigned Entries = 64;
  localparam int unsigned Tags    = 8;
  localparam int unsigned LineW   = 42;        // address bits 47:6
  localparam int unsigned OutW    = 8;         // outstanding requests of an id (at most 128)

  // L2 request kinds (the l2_req_kind_o encoding).
  localparam logic [1:0] ReqRead   = 2'd0;
  localparam logic [1:0] ReqWrite  = 2'd1;
  localparam logic [1:0] ReqAtomic = 2'd2;

  // What a tag waits for.
  localparam logic [1:0] TagFill   = 2'd0;     // line read of a GLC = 0 miss
  localparam logic [1:0] TagRead   = 2'd1;     // GLC = 1 line read
  localparam logic [1:0] TagWrite  = 2'd2;     // masked line write (acknowledgement)
  localparam logic [1:0] TagAtomic = 2'd3;

  // A request waiting on a tag.
  typedef struct packed {
    logic       valid;
    logic [3:0] quad;
    logic [3:0] lanes;
    logic       second;
    logic [1:0] blk;       // its block in the line (address bits 5:4)
  } member_t;

  typedef struct packed {
    logic [1:0]    kind;
    logic [5:0]    entry;  // TagFill: the entry being filled
    logic [1:0]    id;
    member_t [3:0] mem;    // request k of the bundle at element k
  } tag_t;

  typedef logic [Entries-1:0][5:0] ranks_t;

  ///////////////
  // Functions //
  ///////////////

  // Leader of each request: the bundle's first request to the same line; atomics never combine.
  function automatic logic [3:0][1:0] leaders(logic atomic, logic [3:0] valid,
                                               logic [3:0][LineW-1:0] line);
    logic [3:0][1:0] ld;
    for (int i = 0; i < 4; i++) begin
      ld[i] = 2'(i);
      for (int j = i - 1; j >= 0; j--) begin
        if (!atomic && valid[j] && (line[j] == line[i])) begin
          ld[i] = 2'(j);
        end
      end
    end
    return ld;
  endfunction


  // Bank conflicts of a bundle: the largest number of accesses of one bank, minus 1.
  function automatic logic [1:0] conflicts(logic atomic, logic [3:0] valid,
                                           logic [3:0][LineW-1:0] line);
    logic [3:0][1:0] ld;
    logic [3:0][2:0] cnt;
    logic [2:0]      mx;
    ld  = leaders(atomic, valid, line);
    cnt = '0;
    for (int i = 0; i < 4; i++) begin
      if (valid[i] && (ld[i] == 2'(i))) begin
        cnt[line[i][1:0]] = cnt[line[i][1:0]] + 3'd1;   // bank = address bits 7:6
      end
    end
    mx = '0;
    for (int k = 0; k < Banks; k++) begin
      if (cnt[k] > mx) begin
        mx = cnt[k];
      end
    end
    return (mx == 3'd0) ? 2'd0 : 2'(mx - 3'd1);
  endfunction

  // Entry selection over a bank as a tree of log2(Entries) levels: {found, entry} of the
  // candidates `cand` by `mode`:
  //   PickLowest:  the lowest candidate;
  //   PickHighest: the highest candidate;
  //   PickOldest:  the candidate of the highest rank (least recently used), the lowest of equal
  //                ranks (which a permutation of ranks never has).
  // Each node keeps its left (lower) half's pick unless the right half's is preferred, so the
  // result is that of a scan in entry order.
  localparam logic [1:0] PickLowest  = 2'd0;
  localparam logic [1:0] PickHighest = 2'd1;
  localparam logic [1:0] PickOldest  = 2'd2;

  function automatic logic [6:0] pick(logic [Entries-1:0] cand, ranks_t rank, logic [1:0] mode);
    logic [Entries-1:0]      ok;
    logic [Entries-1:0][5:0] idx;
    logic [Entries-1:0][5:0] rk;
    logic                    right;
    for (int e = 0; e < Entries; e++) begin
      ok[e]  = cand[e];
      idx[e] = 6'(e);
      rk[e]  = rank[e];
    end
    // Level by level, node i of a level from nodes 2i and 2i + 1 of the one below (in place:
    // node i is written after nodes 2i and 2i + 1 are read).
    for (int w = Entries / 2; w >= 1; w = w / 2) begin
      for (int i = 0; i < w; i++) begin
        unique case (mode)
          PickLowest:  right = ok[2*i+1] && !ok[2*i];
          PickHighest: right = ok[2*i+1];
          default:     right = ok[2*i+1] && (!ok[2*i] || (rk[2*i+1] > rk[2*i]));
        endcase
        ok[i]  = ok[2*i] | ok[2*i+1];
        idx[i] = right ? idx[2*i+1] : idx[2*i];
        rk[i]  = right ? rk[2*i+1] : rk[2*i];
      end
    end
    return {ok[0], idx[0]};
  endfunction

  // The entry becomes most recently used: the entries more recent than it age by one.
  function automatic ranks_t make_mru(ranks_t r, logic [5:0] e);
    ranks_t n;
    for (int k = 0; k < Entries; k++) begin
      n[k] = (r[k] < r[e]) ? r[k] + 6'd1 : r[k];
    end
    n[e] = 6'd0;
    return n;
  endfunction

  function automatic logic [Banks-1:0][Entries-1:0][5:0] rank_init();
    logic [Banks-1:0][Entries-1:0][5:0] r;
    for (int b = 0; b < Banks; b++) begin
      for (int e = 0; e < Entries; e++) begin
        r[b][e] = 6'(e);
      end
    end
    return r;
  endfunction

  localparam logic [Banks-1:0][Entries-1:0][5:0] RankInit = rank_init();

  ///////////
  // State //
  ///////////

  logic                          bq_valid_q, bq_valid_d;
  pipe_bundle_t                  bq_q, bq_d;
  logic [3:0]                    bq_done_q, bq_done_d;     // request k's access is done
  logic [Banks-1:0][Entries-1:0] ent_valid_q, ent_valid_d;
  logic [Banks-1:0][Entries-1:0] ent_pend_q, ent_pend_d;
  ranks_t [Banks-1:0]            ent_rank_q, ent_rank_d;
  logic [LineW-1:0]              ent_line_mem [Banks][Entries];   // read only when valid
  logic [Banks-1:0][Tags-1:0]    tag_busy_q, tag_busy_d;
  tag_t [Banks-1:0][Tags-1:0]    tag_q, tag_d;
  logic [Banks-1:0]              pres_q, pres_d;           // presented, not yet accepted
  logic [Banks-1:0][2:0]         pres_tag_q, pres_tag_d;
  logic [3:0][OutW-1:0]          out_q, out_d;             // outstanding requests per id
  pipe_ctr_t [3:0]               ctr_q, ctr_d;

  ///////////////////////////
  // The banks' accesses   //
  ///////////////////////////

  logic [3:0]                    bq_valids, in_valids;
  logic [3:0][LineW-1:0]         bq_lines, in_lines;
  logic [3:0][1:0]               ld;          // leaders of the bundle register's requests
  logic [Banks-1:0]              cur_ok;      // bank b has an undone access
  logic [Banks-1:0][1:0]         cur;         // its leader request
  logic [Banks-1:0][3:0]         memb;        // its requests
  pipe_req_t [Banks-1:0]         creq;        // its leader
  logic [Banks-1:0][LineW-1:0]   cline;
  logic [Banks-1:0][Entries-1:0] match;       // entry e holds the line
  logic [Banks-1:0]              present;     // the line is in a valid entry
  logic [Banks-1:0][5:0]         hit_e;       // that entry
  logic [Banks-1:0]              pend;        // and it is pending
  logic [Banks-1:0][5:0]         victim;
  logic [Banks-1:0]              victim_ok;
  logic [Banks-1:0]              tag_ok;
  logic [Banks-1:0][2:0]         tag;         // the request's tag
  logic [Banks-1:0]              is_load, is_store, is_atomic;
  logic [Banks-1:0]              hit;         // a hit this cycle
  logic [Banks-1:0]              go;          // = l2_req_valid_o
  logic [Banks-1:0]              acc;         // the L2 accepts the bank's request
  logic [3:0]                    done_now;    // request k's access is done this cycle
  logic                          complete;    // the bundle completes this cycle
  logic [Banks-1:0][63:0]        wmask;       // write: the access's bytes of the line
  logic [Banks-1:0][511:0]       wdata;       // write: their values
  logic [Banks-1:0][511:0]       hline;       // the hit entry's data
  logic [Banks-1:0][2:0]         nmemb;       // requests of the access
  logic [Banks-1:0]              touch;       // an entry becomes most recently used
  logic [Banks-1:0][5:0]         touch_e;     // that entry

  always_comb begin
    for (int i = 0; i < 4; i++) begin
      bq_valids[i] = bq_q.req[i].valid;
      bq_lines[i]  = bq_q.req[i].addr[47:6];
      in_valids[i] = bnd_i.req[i].valid;
      in_lines[i]  = bnd_i.req[i].addr[47:6];
    end
    ld       = leaders(bq_q.kind == PipeAtomic, bq_valids, bq_lines);
    done_now = '0;
    for (int b = 0; b < Banks; b++) begin
      // The first undone access of the bank, in bundle order.
      cur_ok[b] = 1'b0;
      cur[b]    = '0;
      for (int i = 3; i >= 0; i--) begin
        if (bq_valid_q && bq_q.req[i].valid && (ld[i] == 2'(i)) &&
            (bq_q.req[i].addr[7:6] == 2'(b)) && !bq_done_q[i]) begin
          cur_ok[b] = 1'b1;
          cur[b]    = 2'(i);
        end
      end
      nmemb[b] = '0;
      for (int k = 0; k < 4; k++) begin
        memb[b][k] = cur_ok[b] && bq_q.req[k].valid && (ld[k] == cur[b]);
        nmemb[b]   = nmemb[b] + {2'b00, memb[b][k]};
      end
      creq[b]  = bq_q.req[cur[b]];
      cline[b] = creq[b].addr[47:6];

      // Lookup.
      for (int e = 0; e < Entries; e++) begin
        match[b][e] = cur_ok[b] && ent_valid_q[b][e] && (ent_line_mem[b][e] == cline[b]);
      end
      {present[b], hit_e[b]} = pick(match[b], ent_rank_q[b], PickHighest);
      pend[b]  = present[b] & ent_pend_q[b][hit_e[b]];

      // Victim: the lowest invalid entry, else the least recently used entry not pending.
      {victim_ok[b], victim[b]} = pick(~ent_valid_q[b], ent_rank_q[b], PickLowest);
      if (!victim_ok[b]) begin
        {victim_ok[b], victim[b]} = pick(~ent_pend_q[b], ent_rank_q[b], PickOldest);
      end

      // Tag: held once presented, else the lowest free one.
      tag_ok[b] = tag_busy_q[b] != '1;
      tag[b]    = '0;
      for (int t = Tags - 1; t >= 0; t--) begin
        if (!tag_busy_q[b][t]) begin
          tag[b] = 3'(t);
        end
      end
      if (pres_q[b]) begin
        tag[b] = pres_tag_q[b];
      end

      is_atomic[b] = bq_q.kind == PipeAtomic;
      is_store[b]  = bq_q.kind == PipeStore;
      is_load[b]   = !is_atomic[b] && !is_store[b];
      hit[b]       = cur_ok[b] && is_load[b] && !bq_q.glc && present[b] && !pend[b];
      if (is_load[b] && !bq_q.glc) begin
        go[b] = cur_ok[b] && !present[b] && victim_ok[b] && tag_ok[b];
      end else if (is_load[b]) begin
        go[b] = cur_ok[b] && tag_ok[b];
      end else begin
        go[b] = cur_ok[b] && !(present[b] && pend[b]) && tag_ok[b];
      end
      acc[b] = go[b] & l2_req_ready_i[b];
      // Hits and accepted misses exclude each other (a GLC 0 load goes to the L2 only when
      // its line is absent).
      touch[b]   = (hit[b] && !test_break_lru_i) || (acc[b] && is_store[b] && present[b]) ||
                   (acc[b] && is_load[b] && !bq_q.glc);
      touch_e[b] = (is_load[b] && !present[b]) ? victim[b] : hit_e[b];
      if (hit[b] || acc[b]) begin
        done_now[cur[b]] = 1'b1;
      end

      // A write's bytes: its requests in bundle order, a later one's over an earlier one's.
      // (Indexed by constants only: block p of the line, byte y of the block.)
      wmask[b] = '0;
      wdata[b] = '0;
      for (int k = 0; k < 4; k++) begin
        for (int p = 0; p < 4; p++) begin
          for (int y = 0; y < 16; y++) begin
            if (memb[b][k] && (bq_q.req[k].addr[5:4] == 2'(p)) && bq_q.req[k].mask[y]) begin
              wmask[b][16*p + y]          = 1'b1;
              wdata[b][128*p + 8*y +: 8] = bq_q.req[k].data[8*y +: 8];
            end
          end
        end
      end
    end

    complete = bq_valid_q;
    for (int i = 0; i < 4; i++) begin
      if (bq_q.req[i].valid && (ld[i] == 2'(i)) && !bq_done_q[i] && !done_now[i]) begin
        complete = 1'b0;
      end
    end
  end

  assign bnd_ready_o = ~bq_valid_q | complete;

  ///////////////
  // L2 ports  //
  ///////////////

  always_comb begin
    l2_req_o = '0;
    for (int b = 0; b < Banks; b++) begin
      l2_req_o[b].valid = go[b];
      if (go[b]) begin
        l2_req_o[b].tag = tag[b];
        if (is_atomic[b]) begin
          l2_req_o[b].kind = ReqAtomic;
          l2_req_o[b].addr = creq[b].addr;
          l2_req_o[b].op   = bq_q.op;
          l2_req_o[b].wide = bq_q.wide;
          l2_req_o[b].ret  = bq_q.glc;
          l2_req_o[b].data = {384'd0, creq[b].data};
        end else begin
          l2_req_o[b].kind = is_store[b] ? ReqWrite : ReqRead;
          l2_req_o[b].addr = {cline[b], 6'd0};
          if (is_store[b]) begin
            l2_req_o[b].mask = wmask[b];
            l2_req_o[b].data = wdata[b];
          end
        end
      end
    end
  end

  ///////////////////////
  // Completions       //
  ///////////////////////

  logic [Banks-1:0][2:0] rtag;
  tag_t [Banks-1:0]      rrec;
  logic [Banks-1:0][511:0] rline;

  always_comb begin
    ret_o = '0;
    for (int b = 0; b < Banks; b++) begin
      rtag[b]  = l2_rsp_i[b].tag;
      rrec[b]  = tag_q[b][rtag[b]];
      rline[b] = l2_rsp_i[b].data;
      for (int k = 0; k < 4; k++) begin
        // Hits: each request of the access, its block of the entry's line.
        ret_o[8*b + k].valid   = hit[b] & memb[b][k];
        ret_o[8*b + k].data_en = 1'b1;
        ret_o[8*b + k].id      = bq_q.id;
        ret_o[8*b + k].quad    = bq_q.req[k].quad;
        ret_o[8*b + k].lanes   = bq_q.req[k].lanes;
        ret_o[8*b + k].second  = bq_q.req[k].second;
        ret_o[8*b + k].data    = hline[b][128*bq_q.req[k].addr[5:4] +: 128];
        // Responses: each request waiting on the tag.
        ret_o[8*b + 4 + k].valid   = l2_rsp_i[b].valid & rrec[b].mem[k].valid;
        ret_o[8*b + 4 + k].data_en = rrec[b].kind != TagWrite;
        ret_o[8*b + 4 + k].id      = rrec[b].id;
        ret_o[8*b + 4 + k].quad    = rrec[b].mem[k].quad;
        ret_o[8*b + 4 + k].lanes   = rrec[b].mem[k].lanes;
        ret_o[8*b + 4 + k].second  = rrec[b].mem[k].second;
        ret_o[8*b + 4 + k].data    = (rrec[b].kind == TagAtomic)
                                   ? {64'd0, rline[b][63:0]}
                                   : rline[b][128*rrec[b].mem[k].blk +: 128];
      end
    end
  end

  ////////////////
  // Next state //
  ////////////////

  logic [3:0][OutW-1:0] rets_per_id;
  logic [2:0]           bnd_n;         // requests of the bundle offered

  always_comb begin
    // Bundle register.
    bq_valid_d = bq_valid_q;
    bq_d       = bq_q;
    bq_done_d  = bq_done_q | done_now;
    if (bnd_valid_i && bnd_ready_o) begin
      bq_valid_d = 1'b1;
      bq_d       = bnd_i;
      bq_done_d  = '0;
    end else if (complete) begin
      bq_valid_d = 1'b0;
      bq_done_d  = '0;
    end

    // Entries and tags.
    ent_valid_d = ent_valid_q;
    ent_pend_d  = ent_pend_q;
    ent_rank_d  = ent_rank_q;
    tag_busy_d  = tag_busy_q;
    tag_d       = tag_q;
    for (int b = 0; b < Banks; b++) begin
      pres_d[b]     = go[b] & ~l2_req_ready_i[b];
      pres_tag_d[b] = go[b] ? tag[b] : '0;
      // One entry of the bank at most becomes most recently used: a load hit's, a store hit's
      // at its acceptance, or a fill's victim at its line read's acceptance.
      if (touch[b]) begin
        ent_rank_d[b] = make_mru(ent_rank_q[b], touch_e[b]);
      end
      if (acc[b]) begin
        tag_busy_d[b][tag[b]]    = 1'b1;
        tag_d[b][tag[b]]         = '0;
        tag_d[b][tag[b]].id      = bq_q.id;
        tag_d[b][tag[b]].entry   = victim[b];
        for (int k = 0; k < 4; k++) begin
          tag_d[b][tag[b]].mem[k].valid  = memb[b][k];
          tag_d[b][tag[b]].mem[k].quad   = bq_q.req[k].quad;
          tag_d[b][tag[b]].mem[k].lanes  = bq_q.req[k].lanes;
          tag_d[b][tag[b]].mem[k].second = bq_q.req[k].second;
          tag_d[b][tag[b]].mem[k].blk    = bq_q.req[k].addr[5:4];
        end
        if (is_atomic[b]) begin
          tag_d[b][tag[b]].kind = TagAtomic;
          if (present[b]) begin
            ent_valid_d[b][hit_e[b]] = 1'b0;
          end
        end else if (is_store[b]) begin
          tag_d[b][tag[b]].kind = TagWrite;
        end else if (bq_q.glc) begin
          tag_d[b][tag[b]].kind = TagRead;
        end else begin
          tag_d[b][tag[b]].kind    = TagFill;
          ent_valid_d[b][victim[b]] = 1'b1;
          ent_pend_d[b][victim[b]]  = 1'b1;
        end
      end
      if (l2_rsp_i[b].valid) begin
        tag_busy_d[b][rtag[b]] = 1'b0;
        if (rrec[b].kind == TagFill) begin
          ent_pend_d[b][rrec[b].entry] = 1'b0;
        end
      end
    end

    // Outstanding requests and counters.
    // Per id, a count of 32 one-bit terms (constant indices: an adder tree, not a chain).
    rets_per_id = '0;
    for (int i = 0; i < 4; i++) begin
      for (int s = 0; s < 32; s++) begin
        rets_per_id[i] = rets_per_id[i] + {7'd0, ret_o[s].valid && (ret_o[s].id == 2'(i))};
      end
    end
    ctr_d = ctr_q;
    out_d = out_q;
    for (int i = 0; i < 4; i++) begin
      out_d[i] = out_q[i] - rets_per_id[i];
    end
    if (take_i) begin
      ctr_d[take_id_i] = '0;
    end
    if (complete) begin
      ctr_d[bq_q.id].tcp_last = now_i;
    end
    for (int b = 0; b < Banks; b++) begin
      if (hit[b]) begin
        ctr_d[bq_q.id].n.hits = ctr_d[bq_q.id].n.hits + {13'd0, nmemb[b]};
      end
      if (acc[b] && is_load[b]) begin
        ctr_d[bq_q.id].n.misses = ctr_d[bq_q.id].n.misses + {13'd0, nmemb[b]};
      end
      if (acc[b] && !ctr_d[bq_q.id].l2_any) begin
        ctr_d[bq_q.id].l2_any   = 1'b1;
        ctr_d[bq_q.id].l2_first = now_i;
      end
      if (l2_rsp_i[b].valid) begin
        ctr_d[rrec[b].id].l2_last = now_i;
      end
    end
    bnd_n = '0;
    for (int k = 0; k < 4; k++) begin
      bnd_n = bnd_n + {2'b00, bnd_i.req[k].valid};
    end
    if (bnd_valid_i && bnd_ready_o) begin
      out_d[bnd_i.id]           = out_d[bnd_i.id] + {5'd0, bnd_n};
      ctr_d[bnd_i.id].n.requests  = ctr_d[bnd_i.id].n.requests + {13'd0, bnd_n};
      ctr_d[bnd_i.id].n.conflicts = ctr_d[bnd_i.id].n.conflicts + {14'd0, conflicts(bnd_i.kind == PipeAtomic, in_valids, in_lines)};
      if (!ctr_d[bnd_i.id].tcp_any) begin
        ctr_d[bnd_i.id].tcp_any   = 1'b1;
        ctr_d[bnd_i.id].tcp_first = now_i + 16'd1;
      end
    end
  end

  for (genvar i = 0; i < 4; i++) begin : g_quiet
    assign quiet_o[i] = out_q[i] == '0;
  end
  assign ctr_o = ctr_q;

  ///////////////
  // Registers //
  ///////////////

  `VMEM_FF(bq_valid_q, bq_valid_d, 1'b0)
  `VMEM_FF(bq_q, bq_d, '0)
  `VMEM_FF(bq_done_q, bq_done_d, '0)
  `VMEM_FF(ent_valid_q, ent_valid_d, '0)
  `VMEM_FF(ent_pend_q, ent_pend_d, '0)
  `VMEM_FF(ent_rank_q, ent_rank_d, RankInit)
  `VMEM_FF(tag_busy_q, tag_busy_d, '0)
  `VMEM_FF(tag_q, tag_d, '0)
  `VMEM_FF(pres_q, pres_d, '0)
  `VMEM_FF(pres_tag_q, pres_tag_d, '0)
  `VMEM_FF(out_q, out_d, '0)
  `VMEM_FF(ctr_q, ctr_d, '0)

  // Entry lines (no reset: read only while the entry is valid).
  always_ff @(posedge clk_i) begin
    for (int b = 0; b < Banks; b++) begin
      if (acc[b] && is_load[b] && !bq_q.glc) begin
        ent_line_mem[b][victim[b]] <= cline[b];
      end
    end
  end

  // Entry data: a store hit's bytes at its acceptance, a fill's line at its response.
  for (genvar b = 0; b < Banks; b++) begin : g_data
    vmem_pipe_tcp_ram #(
      .Entries(Entries)
    ) u_data (
      .clk_i,
      .st_en_i     (acc[b] && is_store[b] && present[b]),
      .st_entry_i  (hit_e[b]),
      .st_mask_i   (wmask[b]),
      .st_data_i   (wdata[b]),
      .fill_en_i   (l2_rsp_i[b].valid && (rrec[b].kind == TagFill)),
      .fill_entry_i(rrec[b].entry),
      .fill_data_i (rline[b]),
      .rd_entry_i  (hit_e[b]),
      .rd_data_o   (hline[b])
    );
  end

  ////////////////
  // Assertions //
  ////////////////

`ifndef SYNTHESIS
  // The L2 request of each bank as presented in the previous cycle (for the stability check).
  pipe_l2_req_t [Banks-1:0] req_prev_q;
  `VMEM_FF(req_prev_q, l2_req_o, '0)

  // What the assertions read: the values themselves, except that the break-asserts key corrupts
  // one of them (see the contract above; the copies feed nothing else).
  pipe_l2_req_t [Banks-1:0]      a_req_prev, a_req_now;
  logic [Banks-1:0][Tags-1:0]    a_busy_req, a_busy_rsp;
  logic [Banks-1:0][Entries-1:0] a_pend, a_match;
  logic [Banks-1:0][47:0]        a_addr;
  logic [3:0][OutW-1:0]          a_rets;
  logic [5:0]                    brk;
  always_comb begin
    brk = test_break_asserts_i;
    for (int b = 0; b < Banks; b++) begin
      a_req_prev[b]     = req_prev_q[b];
      a_req_prev[b].ret = req_prev_q[b].ret ^ (brk == 6'd10);
      a_busy_req[b]     = tag_busy_q[b];
      a_busy_req[b][l2_req_o[b].tag] = tag_busy_q[b][l2_req_o[b].tag] | (brk == 6'd11);
      a_busy_rsp[b]     = tag_busy_q[b];
      a_busy_rsp[b][l2_rsp_i[b].tag] = tag_busy_q[b][l2_rsp_i[b].tag] & (brk != 6'd12);
      a_pend[b]         = ent_pend_q[b];
      a_pend[b][rrec[b].entry] = ent_pend_q[b][rrec[b].entry] & (brk != 6'd13);
      a_match[b]        = match[b];
      if ((brk == 6'd14) && cur_ok[b]) begin
        if (match[b] == '0) begin
          a_match[b][1:0] = 2'b11;
        end else begin
          a_match[b][hit_e[b] ^ 6'd1] = 1'b1;
        end
      end
      a_addr[b]         = l2_req_o[b].addr;
      a_addr[b][0]      = l2_req_o[b].addr[0] | (brk == 6'd15);
      a_req_now[b]      = l2_req_o[b];
      a_req_now[b].ret  = l2_req_o[b].ret | (brk == 6'd16);
    end
    for (int i = 0; i < 4; i++) begin
      a_rets[i] = ((brk == 6'd17) && (rets_per_id[i] != '0)) ? out_q[i] + 8'd1 : rets_per_id[i];
    end
  end
`endif

for (genvar b = 0; b < Banks; b++) begin : g_assert
  // A request not accepted stays presented, unchanged (same tag, same payload).
  `VMEM_ASSERT(L2ReqStable_A, pres_q[b] |-> (l2_req_o[b] == a_req_prev[b]))
  // A presented request never carries a tag that is outstanding (tags are unique).
  `VMEM_ASSERT(L2TagUnique_A, l2_req_o[b].valid |-> !a_busy_req[b][l2_req_o[b].tag])
  // Every response answers an outstanding tag of its channel (none lost, none twice).
  `VMEM_ASSERT(L2RspTag_A, l2_rsp_i[b].valid |-> a_busy_rsp[b][l2_rsp_i[b].tag])
  // A fill lands in a valid, pending entry (pending entries are never victims nor invalidated).
  `VMEM_ASSERT(FillPending_A, (l2_rsp_i[b].valid && (rrec[b].kind == TagFill)) |->
      (ent_valid_q[b][rrec[b].entry] && a_pend[b][rrec[b].entry]))
  // A line is in at most one entry of its bank.
  `VMEM_ASSERT(LineUnique_A, $onehot0(a_match[b]))
  // Line reads and writes carry the line's address (bits 5:0 = 0).
  `VMEM_ASSERT(L2ReqAligned_A, (l2_req_o[b].valid && (l2_req_o[b].kind != ReqAtomic)) |->
      (a_addr[b][5:0] == 6'd0))
  // A request without a payload shows zeros (idle zero of every payload output).
  `VMEM_ASSERT(L2IdleZero_A, !l2_req_o[b].valid |-> (a_req_now[b] == '0))
end

  // Per id, the completions never outnumber the requests outstanding.
for (genvar i = 0; i < 4; i++) begin : g_assert_out
  `VMEM_ASSERT(Outstanding_A, a_rets[i] <= out_q[i])
end

endmodule : vmem_pipe_tcp

`endif  // VMEM_VMEM_PIPE_TCP_SV
