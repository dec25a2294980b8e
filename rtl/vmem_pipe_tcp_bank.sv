`ifndef VMEM_VMEM_PIPE_TCP_BANK_SV  // included by the blocks that instantiate it (see rtl/vmem_pipe.sv)
`define VMEM_VMEM_PIPE_TCP_BANK_SV
// Copyright gcn-vmem contributors.
//
// vmem_pipe_tcp_bank: one bank of the TCP (docs/decisions.md "vmem_pipe", "TCP (L1)"), with its L2
// channel. Sub-block of rtl/vmem_pipe_tcp.sv.
//
// Parameters: Lines, Mshrs, Targets, InFlight, LookupDepth, ReturnDepth, L2Depth as vmem_pipe's
// (checked there), one by one: the bank is the top of its formal proof, which sets them by name
// (make formal-tcp); its formal properties take them as one vmem_pkg::pipe_cfg_t.
//
// State:
//   line entries (Lines): valid, pending, line, pins, the MSHR filling a pending entry; the LRU
//     order over all entries as an age matrix, one bit per pair e < f (ord_q: e is less recently
//     used than f), so that the least recently used candidate is one AND per entry, not a chain
//     of rank comparisons;
//   MSHRs (Mshrs): busy, lined (+ entry), open, targets, arrived, the instruction whose request
//     it holds; their data in vmem_pipe_rf (written by the response, read by the return stage);
//   lookup queue (LookupDepth accesses), return queue (ReturnDepth), L2 queue (L2Depth),
//   fill register (an entry and its line), return register (an access; its 512 bits are the
//   read data of the RAM (hits) or of the register file (MSHRs), each held until the next read);
//   the line RAM (vmem_pipe_tcp_ram, single port).
//
// Per cycle (state at the start of the cycle, as the contract's "Lookup", "L2 requests",
// "Responses", "Line RAM port" and "Return stage" give it):
//   push_i: up to four accesses enter the lookup queue at the edge, in element order (the TCP
//     accepts a bundle only when they fit lk_free_o).
//   lookup: the head access is done or waits; done pushes the return entry and / or L2 request.
//   L2: the queue's head is presented while quiet_i; it leaves at the accepting edge.
//   response (quiet_i; not ignored): tag {0,m} writes m's row, m arrives, its entry becomes valid
//     (open; the fill register writes the line next cycle) or invalid (closed); tag {1,id}: ack_o.
//   RAM port: the fill register's write, else a store's masked write, else the return stage's
//     read of a hit.
//   return stage: the return queue's head moves to the return register when that is empty or
//     taken (rr_take_i) and the head is ready (hit: the RAM port free; MSHR: arrived).
//
// Latency: lookup results from the cycle after the push; see the contract for every event.
//
// Test hooks: nothing in the design (rtl/vmem_prim_pkg.sv `VMEM_TEST_HOOK):
//   `VMEM_TEST_HOOK(vmem_pipe_brk_bank) (rtl/test/vmem_pipe_brk_bank.svh), the break-asserts
//   corruptions, and `VMEM_TEST_HOOK(vmem_pipe_mut_lru) (rtl/test/vmem_pipe_mut_lru.svh), the LRU
//   mutant, both at the end of the next-state always_comb; vmem_pipe_brk_bank_lk, _bank_l2,
//   _bank_ret and _bank_chk, more break-asserts corruptions, at the end of the lookup's, the L2
//   port's, the return stage's and the assertions' always_comb.
//
// Spec: docs/spec.md §14 "TCP (L1)"  Contract: docs/decisions.md "vmem_pipe"

`ifdef VERILATOR
`include "rtl/vmem_pipe_tcp_ram.sv"
`include "rtl/vmem_pipe_rf.sv"
`endif

module vmem_pipe_tcp_bank
  import vmem_pkg::*;
#(
  parameter int unsigned Lines       = PipeCfgDefault.lines,
  parameter int unsigned Mshrs       = PipeCfgDefault.mshrs,
  parameter int unsigned Targets     = PipeCfgDefault.targets,
  parameter int unsigned InFlight    = PipeCfgDefault.inflight,
  parameter int unsigned LookupDepth = PipeCfgDefault.lookup_depth,
  parameter int unsigned ReturnDepth = PipeCfgDefault.return_depth,
  parameter int unsigned L2Depth     = PipeCfgDefault.l2_depth
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,           // async, active low
  input  logic                     quiet_i,
  // Lookup queue pushes (the accepted bundle's accesses to this bank, in element order)
  input  logic [3:0]               push_i,
  input  pipe_acc_t [3:0]          acc_i,
  output logic [2:0]               lk_free_o,        // free entries, at most 4
  output pipe_bank_ev_t            ev_o,             // this cycle's events, for the counters
  input  logic [PipeMaxIds-1:0]    posted_zero_i,    // id has no posted request outstanding
  // L2 channel
  input  logic                     l2_req_ready_i,
  input  pipe_l2_rsp_t             l2_rsp_i,
  output pipe_l2_req_t             l2_req_o,
  // Return register, for the TD
  output pipe_rr_t                 rr_o,
  input  logic                     rr_take_i
);

  localparam int unsigned EntW  = pipe_idx_w(Lines);
  localparam int unsigned MW    = pipe_idx_w(Mshrs);
  localparam int unsigned TgtW  = pipe_cnt_w(Targets);
  localparam int unsigned PinW  = pipe_cnt_w(ReturnDepth);
  localparam int unsigned LkW   = pipe_cnt_w(LookupDepth);
  localparam int unsigned LkPW  = pipe_idx_w(LookupDepth);
  localparam int unsigned RqW   = pipe_cnt_w(ReturnDepth);
  localparam int unsigned RqPW  = pipe_idx_w(ReturnDepth);
  localparam int unsigned L2W   = pipe_cnt_w(L2Depth);
  localparam int unsigned L2PW  = pipe_idx_w(L2Depth);

  // (p + k) mod n for a queue of n >= 1 entries, p < n and k <= n: one conditional subtraction,
  // QW bits wide (a queue pointer's width and one more).
  localparam int unsigned QW = ((LkPW > RqPW) ? ((LkPW > L2PW) ? LkPW : L2PW)
                                              : ((RqPW > L2PW) ? RqPW : L2PW)) + 2;
  function automatic logic [QW-1:0] add_mod(logic [QW-1:0] p, logic [QW-1:0] k, logic [QW-1:0] n);
    logic [QW-1:0] s;
    s = p + k;
    return (s >= n) ? s - n : s;
  endfunction

  // The age matrix's bit of pair (e, f), e < f.
  localparam int unsigned Pairs = (Lines * (Lines - 1)) / 2;
  function automatic int unsigned pair(int unsigned e, int unsigned f);
    return e * Lines - (e * (e + 1)) / 2 + (f - e - 1);
  endfunction

  ///////////
  // State //
  ///////////

  // Line entries.
  logic [Lines-1:0]                 ent_valid_q, ent_valid_d;
  logic [Lines-1:0]                 ent_pend_q, ent_pend_d;
  logic [Lines-1:0][PipeLineW-1:0]  ent_line_q, ent_line_d;
  logic [Lines-1:0][PinW-1:0]       ent_pins_q, ent_pins_d;
  logic [Lines-1:0][MW-1:0]         ent_mshr_q, ent_mshr_d;
  logic [Pairs-1:0]                 ord_q, ord_d;     // pair (e, f): e older than f

  // MSHRs.
  logic [Mshrs-1:0]                 m_busy_q, m_busy_d;
  logic [Mshrs-1:0]                 m_lined_q, m_lined_d;
  logic [Mshrs-1:0]                 m_open_q, m_open_d;
  logic [Mshrs-1:0]                 m_arr_q, m_arr_d;
  logic [Mshrs-1:0][TgtW-1:0]       m_tgt_q, m_tgt_d;
  logic [Mshrs-1:0][EntW-1:0]       m_ent_q, m_ent_d;
  logic [Mshrs-1:0][PipeIdW-1:0]    m_id_q, m_id_d;

  // Queues.
  pipe_acc_t [LookupDepth-1:0]      lq_q, lq_d;
  logic [LkPW-1:0]                  lq_head_q, lq_head_d;
  logic [LkW-1:0]                   lq_cnt_q, lq_cnt_d;
  pipe_ret_t [ReturnDepth-1:0]      rq_q, rq_d;
  logic [RqPW-1:0]                  rq_head_q, rq_head_d;
  logic [RqW-1:0]                   rq_cnt_q, rq_cnt_d;
  pipe_l2e_t [L2Depth-1:0]          l2q_q, l2q_d;
  logic [L2PW-1:0]                  l2q_head_q, l2q_head_d;
  logic [L2W-1:0]                   l2q_cnt_q, l2q_cnt_d;

  // Fill register and return register.
  logic                             fill_v_q, fill_v_d;
  logic [EntW-1:0]                  fill_e_q, fill_e_d;
  logic [511:0]                     fill_data_q, fill_data_d;
  logic                             rr_v_q, rr_v_d;
  pipe_ret_t                        rr_q, rr_d;

  ////////////////////////
  // Lookup (the head)  //
  ////////////////////////

  pipe_acc_t         h;
  logic              hv;
  logic [Lines-1:0]  match;
  logic              e_valid, e_pend;
  logic [EntW-1:0]   e_idx;
  logic              e_unpinned;  // E's pins are 0
  logic              e_open;      // E's MSHR is open
  logic              e_room;      // E's MSHR is open with fewer than Targets targets
  logic [MW-1:0]     e_m;
  logic              free_any;
  logic [MW-1:0]     free_m;
  logic              inv_any;
  logic [EntW-1:0]   inv_idx;
  logic [EntW-1:0]   lru_idx;
  localparam int unsigned TreeN = 1 << EntW;   // the entries, padded to a power of 2
  logic [TreeN-1:0]             inv_v;
  logic [TreeN-1:0][EntW-1:0]   t_idx;
  logic [Lines-1:0]  lru_v;      // valid, unpinned, not pending
  logic [Lines-1:0]  lru_oh;     // the least recently used of those (one-hot, or none)
  logic [Lines-1:0]  victim_oh;
  logic [EntW-1:0]   victim;
  logic              rq_free, l2q_free;

  // Selections by a one-hot vector (the match, the LRU candidate) as balanced OR trees: at most
  // one entry holds a line, at most one candidate is the oldest. Per entry, what its MSHR allows
  // a merge, from registers, so that the match selects one bit.
  logic [Lines-1:0] ent_unpinned, ent_open, ent_room;
  for (genvar e = 0; e < Lines; e++) begin : g_ent
    assign ent_unpinned[e] = ent_pins_q[e] == '0;
    assign ent_open[e]     = m_open_q[ent_mshr_q[e]];
    assign ent_room[e]     = ent_open[e] && (m_tgt_q[ent_mshr_q[e]] < TgtW'(Targets));
  end
  assign e_unpinned = |(match & ent_unpinned);
  assign e_open     = |(match & ent_open);
  assign e_room     = |(match & ent_room);
  for (genvar b = 0; b < EntW; b++) begin : g_idx
    logic [Lines-1:0] has_b;   // the entries whose index has bit b set
    for (genvar e = 0; e < Lines; e++) begin : g_e
      assign has_b[e] = 1'((e >> b) & 1);
    end
    assign e_idx[b]   = |(match & has_b);
    assign lru_idx[b] = |(lru_oh & has_b);
  end
  for (genvar b = 0; b < MW; b++) begin : g_m
    logic [Lines-1:0] m_b;     // bit b of each entry's MSHR
    for (genvar e = 0; e < Lines; e++) begin : g_e
      assign m_b[e] = ent_mshr_q[e][b];
    end
    assign e_m[b] = |(match & m_b);
  end

  // The age matrix by rows: row e holds the pairs (e, f), f > e, at bit f (bits f <= e are 0).
  // The least recently used candidate e: no candidate f < e is older (bit e of the OR of the
  // candidates' rows, a balanced tree) and no candidate f > e is older (a 0 at bit f of row e).
  // Written over rows, not pairs: a simulator evaluates Lines vector operations, not Lines^2
  // single-bit ones.
  logic [Lines-1:0][Lines-1:0] ord_row;
  logic [Lines-1:0]            older_lo;   // bit e: a candidate f < e is older than e
  logic [Lines-1:0]            older_hi;   // bit e: a candidate f > e is older than e
  logic [2*Lines-2:0][Lines-1:0] cand_or;  // heap-shaped OR tree of the candidates' rows
  for (genvar e = 0; e < Lines; e++) begin : g_lru
    assign lru_v[e] = ent_valid_q[e] && !ent_pend_q[e] && (ent_pins_q[e] == '0);
    if (e < Lines - 1) begin : g_pairs
      localparam int unsigned Lo = pair(e, e + 1);
      localparam int unsigned N = Lines - 1 - e;
      assign ord_row[e]  = {ord_q[Lo +: N], {(e + 1){1'b0}}};
      assign older_hi[e] = |(lru_v[Lines-1:e+1] & ~ord_q[Lo +: N]);
    end else begin : g_last
      assign ord_row[e]  = '0;
      assign older_hi[e] = 1'b0;
    end
  end
  always_comb begin
    for (int e = 0; e < Lines; e++) begin
      cand_or[Lines - 1 + e] = lru_v[e] ? ord_row[e] : '0;
    end
    for (int n = Lines - 2; n >= 0; n--) begin
      cand_or[n] = cand_or[2*n + 1] | cand_or[2*n + 2];
    end
  end
  assign older_lo = cand_or[0];
  assign lru_oh   = lru_v & ~older_lo & ~older_hi;

  always_comb begin
    h  = lq_q[lq_head_q];
    hv = lq_cnt_q != '0;
    for (int e = 0; e < Lines; e++) begin
      match[e] = (ent_valid_q[e] | ent_pend_q[e]) & (ent_line_q[e] == h.addr[47:6]);
    end
    e_valid = |(match & ent_valid_q);
    e_pend  = |(match & ent_pend_q);

    free_any = ~&m_busy_q;
    free_m   = '0;
    for (int m = Mshrs - 1; m >= 0; m--) begin
      if (!m_busy_q[m]) begin
        free_m = MW'(m);   // at most 16: a short chain
      end
    end

    // Victim: the lowest invalid unpinned entry (neither valid nor pending), found by a balanced
    // tree (log2(Lines) levels of pairwise choices); else the least recently used valid,
    // unpinned entry that is not pending: the candidate older than every other candidate (the
    // order is total, so exactly one when there is a candidate).
    for (int e = 0; e < TreeN; e++) begin
      inv_v[e] = 1'b0;
      t_idx[e] = EntW'(e);
      if (e < Lines) begin
        inv_v[e] = !ent_valid_q[e] && !ent_pend_q[e] && (ent_pins_q[e] == '0);
      end
    end
    for (int w = TreeN / 2; w >= 1; w = w / 2) begin
      for (int i = 0; i < w; i++) begin
        // Lowest invalid: the left one when it qualifies.
        t_idx[i] = inv_v[2*i] ? t_idx[2*i] : t_idx[2*i + 1];
        inv_v[i] = inv_v[2*i] | inv_v[2*i + 1];
      end
    end
    inv_any = inv_v[0];
    inv_idx = t_idx[0];
    victim_oh = '0;
    if (inv_any) begin
      victim_oh[inv_idx] = 1'b1;
    end else begin
      victim_oh = lru_oh;
    end
    victim = inv_any ? inv_idx : lru_idx;

    rq_free  = rq_cnt_q < RqW'(ReturnDepth);
    l2q_free = l2q_cnt_q < L2W'(L2Depth);
    `VMEM_TEST_HOOK(vmem_pipe_brk_bank_lk)  // test builds only (see the contract above)
  end

  // The lookup's decision.
  logic            lk_done;       // the head leaves the queue
  logic            lk_mwait;
  logic            lk_hit, lk_merge, lk_miss, lk_glcrd, lk_store, lk_atomic;
  logic            lk_close;      // closes E's MSHR
  logic            lk_alloc;      // takes MSHR free_m
  logic            lk_touch;      // E (or the victim) becomes MRU
  logic [Lines-1:0] lk_touch_oh;
  logic            lk_wr;         // a store's masked write into E
  logic            lk_l2;         // pushes an L2 request
  logic            lk_rq;         // pushes a return entry
  pipe_l2e_t       lk_l2e;
  pipe_ret_t       lk_rqe;

  always_comb begin
    lk_done   = 1'b0;
    lk_mwait  = 1'b0;
    lk_hit    = 1'b0;
    lk_merge  = 1'b0;
    lk_miss   = 1'b0;
    lk_glcrd  = 1'b0;
    lk_store  = 1'b0;
    lk_atomic = 1'b0;
    lk_close  = 1'b0;
    if (hv) begin
      unique case (h.kind)
        PipeStore: begin
          if (e_pend) begin
            lk_close = 1'b1;
          end else if (quiet_i && l2q_free && (!e_valid || (e_unpinned && !fill_v_q))) begin
            lk_store = 1'b1;
          end
        end
        PipeAtomic: begin
          if (e_pend) begin
            lk_close = 1'b1;
          end else if (h.glc && !free_any) begin
            lk_mwait = 1'b1;
          end else if (quiet_i && l2q_free && (!h.glc || rq_free)) begin
            lk_atomic = 1'b1;
          end
        end
        default: begin  // loads
          if (h.glc) begin
            if (!free_any) begin
              lk_mwait = 1'b1;
            end else if (quiet_i && rq_free && l2q_free) begin
              lk_glcrd = 1'b1;
            end
          end else if (e_valid) begin
            lk_hit = rq_free;
          end else if (e_pend) begin
            if (e_room) begin
              lk_merge = rq_free;
            end else if (e_open) begin
              lk_mwait = 1'b1;
            end
          end else if (!free_any) begin
            lk_mwait = 1'b1;
          end else if (quiet_i && rq_free && l2q_free) begin
            lk_miss = 1'b1;
          end
        end
      endcase
    end
    lk_done  = lk_hit | lk_merge | lk_miss | lk_glcrd | lk_store | lk_atomic;
    lk_alloc = lk_miss | lk_glcrd | (lk_atomic & h.glc);
    lk_wr    = lk_store & e_valid;
    lk_touch = lk_hit | lk_merge | lk_miss | lk_wr;
    lk_touch_oh = !lk_touch ? '0 : (lk_miss ? victim_oh : match);
    lk_l2    = lk_miss | lk_glcrd | lk_store | lk_atomic;
    lk_rq    = lk_hit | lk_merge | lk_miss | lk_glcrd | (lk_atomic & h.glc);

    lk_l2e      = '0;
    lk_l2e.id   = h.id;
    lk_l2e.addr = {h.addr[47:6], 6'd0};
    if (lk_store) begin
      lk_l2e.kind = L2Write;
      lk_l2e.tag  = {1'b1, h.id};
      lk_l2e.mask = h.mask;
      lk_l2e.data = h.data;
    end else if (lk_atomic) begin
      lk_l2e.kind = L2Atomic;
      lk_l2e.tag  = h.glc ? {1'b0, 4'(free_m)} : {1'b1, h.id};
      lk_l2e.addr = h.addr;
      lk_l2e.data = {384'd0, h.data[127:0]};
      lk_l2e.op   = h.op;
      lk_l2e.wide = h.wide;
      lk_l2e.ret  = h.glc;
    end else begin
      lk_l2e.kind = L2Read;
      lk_l2e.tag  = {1'b0, 4'(free_m)};
    end

    lk_rqe      = '0;
    lk_rqe.hit  = lk_hit;
    lk_rqe.idx  = lk_hit ? 6'(e_idx) : (lk_merge ? 6'(e_m) : 6'(free_m));
    lk_rqe.id   = h.id;
    lk_rqe.nreq = h.nreq;
    lk_rqe.req  = h.req;
  end

  assign lk_free_o = ((LookupDepth - 32'(lq_cnt_q)) >= 4) ? 3'd4 : 3'(LookupDepth - 32'(lq_cnt_q));

  //////////////////////////
  // L2 port, responses   //
  //////////////////////////

  pipe_l2e_t       l2h;
  logic            l2_pop;
  logic            rsp_m;          // a response to an MSHR, not ignored
  logic            rsp_ack;        // an acknowledgement, not ignored
  logic [MW-1:0]   rm;
  logic [PipeIdW-1:0] rid;

  always_comb begin
    l2h    = l2q_q[l2q_head_q];
    l2_pop = quiet_i & (l2q_cnt_q != '0) & l2_req_ready_i;

    l2_req_o = '0;
    if (quiet_i && (l2q_cnt_q != '0)) begin
      l2_req_o = '{valid: 1'b1, kind: l2h.kind, tag: l2h.tag, addr: l2h.addr, mask: l2h.mask,
                   data: l2h.data, op: l2h.op, wide: l2h.wide, ret: l2h.ret};
    end

    rm      = MW'(l2_rsp_i.tag[3:0]);
    rid     = l2_rsp_i.tag[PipeIdW-1:0];
    rsp_m   = quiet_i & l2_rsp_i.valid & ~l2_rsp_i.tag[4] & (32'(l2_rsp_i.tag[3:0]) < Mshrs) &&
              m_busy_q[rm] & ~m_arr_q[rm];
    rsp_ack = quiet_i & l2_rsp_i.valid & l2_rsp_i.tag[4] & (32'(l2_rsp_i.tag[3:0]) < InFlight) &&
              ~posted_zero_i[rid];
    `VMEM_TEST_HOOK(vmem_pipe_brk_bank_l2)  // test builds only (see the contract above)
  end

  assign ev_o = '{head_valid: hv, head_id: hv ? h.id : '0,
                  hit: lk_hit ? h.nreq : 3'd0, merge: lk_merge ? h.nreq : 3'd0,
                  miss: (lk_miss | lk_glcrd) ? h.nreq : 3'd0, mwait: lk_mwait,
                  l2_acc: l2_pop, l2_acc_id: l2_pop ? l2h.id : '0,
                  rsp_ok: rsp_m | rsp_ack, rsp_id: rsp_m ? m_id_q[rm] : (rsp_ack ? rid : '0),
                  ack: rsp_ack};

  //////////////////////////////
  // Return stage, RAM port   //
  //////////////////////////////

  pipe_ret_t       rh;
  logic            rs_go;
  logic            rs_ready;
  logic [MW-1:0]   rs_m;
  logic [EntW-1:0] rs_e;
  logic            ram_req, ram_we;
  logic [EntW-1:0] ram_addr;
  logic [63:0]     ram_wmask;
  logic [511:0]    ram_wdata;
  logic [511:0]    ram_rdata, rf_rdata;
  logic            rr_src_hit_q;   // the return register's data is the RAM's (else the RF's)
  pipe_ret_t       rr_ret;         // the return register as rr_o shows it (0 while empty)

  always_comb begin
    rh       = rq_q[rq_head_q];
    rs_m     = MW'(rh.idx);
    rs_e     = EntW'(rh.idx);
    rs_ready = rh.hit ? (~fill_v_q & ~lk_wr) : m_arr_q[rs_m];
    rs_go    = (~rr_v_q | rr_take_i) & (rq_cnt_q != '0) & rs_ready;

    ram_req   = fill_v_q | lk_wr | (rs_go & rh.hit);
    ram_we    = fill_v_q | lk_wr;
    ram_addr  = fill_v_q ? fill_e_q : (lk_wr ? e_idx : rs_e);
    ram_wmask = fill_v_q ? '1 : h.mask;
    ram_wdata = fill_v_q ? fill_data_q : h.data;
    rr_ret    = rr_v_q ? rr_q : '0;
    `VMEM_TEST_HOOK(vmem_pipe_brk_bank_ret)  // test builds only (see the contract above)
  end

  vmem_pipe_tcp_ram #(.Lines(Lines)) u_ram (
    .clk_i,
    .req_i   (ram_req),
    .we_i    (ram_we),
    .addr_i  (ram_addr),
    .wmask_i (ram_wmask),
    .wdata_i (ram_wdata),
    .rdata_o (ram_rdata)
  );

  vmem_pipe_rf #(.Depth(Mshrs), .Width(512)) u_mshr_data (
    .clk_i,
    .we_i    (rsp_m),
    .waddr_i (rm),
    .wdata_i (l2_rsp_i.data),
    .re_i    (rs_go & ~rh.hit),
    .raddr_i (rs_m),
    .rdata_o (rf_rdata)
  );

  assign rr_o = '{valid: rr_v_q, ret: rr_ret, data: rr_src_hit_q ? ram_rdata : rf_rdata};

  //////////////////////
  // Next state       //
  //////////////////////

  logic [2:0]     push_n;          // accesses pushed
  logic [Pairs-1:0] ord_touched;   // the age matrix after the lookup's touch

  // The touched entry becomes the most recently used: row e clears when e is touched, and gains
  // the touched entry's bit otherwise (e older than it).
  for (genvar e = 0; e < Lines - 1; e++) begin : g_ord
    localparam int unsigned Lo = pair(e, e + 1);
    localparam int unsigned N = Lines - 1 - e;
    assign ord_touched[Lo +: N] = lk_touch_oh[e] ? '0 : (ord_q[Lo +: N] | lk_touch_oh[Lines-1:e+1]);
  end
  logic [3:0][LkPW-1:0] lq_slot;   // slot of the k-th push: (head + count + k) mod LookupDepth
  logic [3:0][1:0]      push_rank; // push r is the push_rank[r]-th of the cycle's pushes
  logic [LkPW-1:0]      lq_next;   // the head after the lookup's pop
  logic [RqPW-1:0]      rq_tail, rq_next;
  logic [L2PW-1:0]      l2q_tail, l2q_next;

  // The queues' slots, from registers only (the pushes select among them).
  always_comb begin
    for (int k = 0; k < 4; k++) begin
      lq_slot[k] = LkPW'(add_mod(QW'(lq_head_q), add_mod(QW'(lq_cnt_q), QW'(k), QW'(LookupDepth)),
                                 QW'(LookupDepth)));
    end
    lq_next  = LkPW'(add_mod(QW'(lq_head_q), QW'(1), QW'(LookupDepth)));
    rq_tail  = RqPW'(add_mod(QW'(rq_head_q), QW'(rq_cnt_q), QW'(ReturnDepth)));
    rq_next  = RqPW'(add_mod(QW'(rq_head_q), QW'(1), QW'(ReturnDepth)));
    l2q_tail = L2PW'(add_mod(QW'(l2q_head_q), QW'(l2q_cnt_q), QW'(L2Depth)));
    l2q_next = L2PW'(add_mod(QW'(l2q_head_q), QW'(1), QW'(L2Depth)));
  end

  always_comb begin
    ent_valid_d = ent_valid_q;
    ent_pend_d  = ent_pend_q;
    ent_line_d  = ent_line_q;
    ent_pins_d  = ent_pins_q;
    ent_mshr_d  = ent_mshr_q;
    m_busy_d    = m_busy_q;
    m_lined_d   = m_lined_q;
    m_open_d    = m_open_q;
    m_arr_d     = m_arr_q;
    m_tgt_d     = m_tgt_q;
    m_ent_d     = m_ent_q;
    m_id_d      = m_id_q;
    lq_d        = lq_q;
    lq_head_d   = lq_head_q;
    lq_cnt_d    = lq_cnt_q;
    rq_d        = rq_q;
    rq_head_d   = rq_head_q;
    rq_cnt_d    = rq_cnt_q;
    l2q_d       = l2q_q;
    l2q_head_d  = l2q_head_q;
    l2q_cnt_d   = l2q_cnt_q;
    fill_v_d    = 1'b0;
    fill_e_d    = fill_e_q;
    fill_data_d = fill_data_q;
    rr_v_d      = rr_v_q & ~rr_take_i;
    rr_d        = rr_q;

    // Lookup queue: pushes behind the entries present at the start of the cycle (push r to the
    // slot of its rank among the cycle's pushes), the head's pop.
    push_n = '0;
    for (int r = 0; r < 4; r++) begin
      push_rank[r] = push_n[1:0];
      push_n       = push_n + {2'b00, push_i[r]};
    end
    for (int r = 0; r < 4; r++) begin
      if (push_i[r]) begin
        lq_d[lq_slot[push_rank[r]]] = acc_i[r];
      end
    end
    lq_cnt_d = lq_cnt_q + LkW'(push_n) - LkW'(lk_done);
    if (lk_done) begin
      lq_head_d = lq_next;
    end

    // The lookup's effects on entries and MSHRs.
    ord_d = ord_touched;
    // E by its match bit (one-hot), not by its index.
    for (int e = 0; e < Lines; e++) begin
      if (lk_hit && match[e]) begin
        ent_pins_d[e] = ent_pins_q[e] + PinW'(1);
      end
      if (lk_atomic && match[e] && ent_valid_q[e]) begin
        ent_valid_d[e] = 1'b0;
      end
    end
    if (lk_merge) begin
      m_tgt_d[e_m] = m_tgt_q[e_m] + TgtW'(1);
    end
    if (lk_close) begin
      m_open_d[e_m] = 1'b0;
    end
    if (lk_miss) begin
      ent_valid_d[victim] = 1'b0;
      ent_pend_d[victim]  = 1'b1;
      ent_line_d[victim]  = h.addr[47:6];
      ent_mshr_d[victim]  = free_m;
    end
    if (lk_alloc) begin
      m_busy_d[free_m]  = 1'b1;
      m_lined_d[free_m] = lk_miss;
      m_open_d[free_m]  = lk_miss;
      m_arr_d[free_m]   = 1'b0;
      m_tgt_d[free_m]   = TgtW'(1);
      m_ent_d[free_m]   = victim;
      m_id_d[free_m]    = h.id;
    end

    // Return queue: the lookup's push, the return stage's pop.
    if (lk_rq) begin
      rq_d[rq_tail] = lk_rqe;
    end
    rq_cnt_d = rq_cnt_q + RqW'(lk_rq) - RqW'(rs_go);
    if (rs_go) begin
      rq_head_d = rq_next;
      rr_v_d    = 1'b1;
      rr_d      = rh;
      if (rh.hit) begin
        ent_pins_d[rs_e] = ent_pins_d[rs_e] - PinW'(1);
      end else begin
        m_tgt_d[rs_m] = m_tgt_d[rs_m] - TgtW'(1);
        if (m_tgt_q[rs_m] == TgtW'(1)) begin
          m_busy_d[rs_m]  = 1'b0;
          m_lined_d[rs_m] = 1'b0;
          m_open_d[rs_m]  = 1'b0;
          m_arr_d[rs_m]   = 1'b0;
        end
      end
    end

    // L2 queue: the lookup's push, the channel's pop.
    if (lk_l2) begin
      l2q_d[l2q_tail] = lk_l2e;
    end
    l2q_cnt_d = l2q_cnt_q + L2W'(lk_l2) - L2W'(l2_pop);
    if (l2_pop) begin
      l2q_head_d = l2q_next;
    end

    // A response to MSHR rm (its open and lined as at the start of the cycle).
    if (rsp_m) begin
      m_arr_d[rm] = 1'b1;
      if (m_lined_q[rm]) begin
        ent_pend_d[m_ent_q[rm]]  = 1'b0;
        ent_valid_d[m_ent_q[rm]] = m_open_q[rm];
        if (m_open_q[rm]) begin
          fill_v_d    = 1'b1;
          fill_e_d    = m_ent_q[rm];
          fill_data_d = l2_rsp_i.data;
        end
      end
    end
    `VMEM_TEST_HOOK(vmem_pipe_mut_lru)  // test builds only (see the contract above)
    `VMEM_TEST_HOOK(vmem_pipe_brk_bank)  // test builds only (see the contract above)
  end

  // The initial LRU order: a higher-numbered entry is older (only the order of valid entries,
  // all of which were touched, is ever used).
  `VMEM_FF(ent_valid_q, ent_valid_d, '0)
  `VMEM_FF(ent_pend_q, ent_pend_d, '0)
  `VMEM_FF(ent_line_q, ent_line_d, '0)
  `VMEM_FF(ent_pins_q, ent_pins_d, '0)
  `VMEM_FF(ent_mshr_q, ent_mshr_d, '0)
  `VMEM_FF(ord_q, ord_d, '0)
  `VMEM_FF(m_busy_q, m_busy_d, '0)
  `VMEM_FF(m_lined_q, m_lined_d, '0)
  `VMEM_FF(m_open_q, m_open_d, '0)
  `VMEM_FF(m_arr_q, m_arr_d, '0)
  `VMEM_FF(m_tgt_q, m_tgt_d, '0)
  `VMEM_FF(m_ent_q, m_ent_d, '0)
  `VMEM_FF(m_id_q, m_id_d, '0)
  `VMEM_FF(lq_head_q, lq_head_d, '0)
  `VMEM_FF(lq_cnt_q, lq_cnt_d, '0)
  `VMEM_FF(rq_head_q, rq_head_d, '0)
  `VMEM_FF(rq_cnt_q, rq_cnt_d, '0)
  `VMEM_FF(l2q_head_q, l2q_head_d, '0)
  `VMEM_FF(l2q_cnt_q, l2q_cnt_d, '0)
  `VMEM_FF(fill_v_q, fill_v_d, 1'b0)
  `VMEM_FF(rr_v_q, rr_v_d, 1'b0)
  `VMEM_FF_EN(rr_src_hit_q, rh.hit, rs_go, 1'b0)

  // Queue payloads, the fill register's and the return register's (no reset: read only while
  // their valid / count says they hold something).
  always_ff @(posedge clk_i) begin
    lq_q        <= lq_d;
    rq_q        <= rq_d;
    l2q_q       <= l2q_d;
    fill_e_q    <= fill_e_d;
    fill_data_q <= fill_data_d;
    rr_q        <= rr_d;
  end

  ////////////////
  // Assertions //
  ////////////////

`ifndef SYNTHESIS
  // Values the assertions compare, computed outside the properties (Verilator 5.006 builds an
  // undeclared variable for a wide operand inside one).
  logic            a_lq_ok, a_rq_ok, a_l2q_ok, a_tgt_ok, a_victim_ok, a_realloc_ok, a_rsp_ok;
  logic            a_idle_ok, a_rr_ok;
  logic [Mshrs-1:0] m_sent_q;    // the MSHR's L2 request was accepted and not yet answered
  logic [Mshrs-1:0] m_sent_d;
  always_comb begin
    m_sent_d = m_sent_q;
    if (l2_pop && !l2h.tag[4] && (l2h.kind != L2Write)) begin
      m_sent_d[MW'(l2h.tag[3:0])] = 1'b1;
    end
    if (rsp_m) begin
      m_sent_d[rm] = 1'b0;
    end
  end
  `VMEM_FF(m_sent_q, m_sent_d, '0)
  // Shadow occupancy of the queues' slots (assertions only): a push never lands on a slot that
  // holds an entry (overflow), a pop always takes one (underflow).
  logic [LookupDepth-1:0] lq_sv_q, lq_sv_d;
  logic [ReturnDepth-1:0] rq_sv_q, rq_sv_d;
  logic [L2Depth-1:0]     l2q_sv_q, l2q_sv_d;
  always_comb begin
    logic [2:0] pn;
    int unsigned slot;
    slot     = 0;
    lq_sv_d  = lq_sv_q;
    rq_sv_d  = rq_sv_q;
    l2q_sv_d = l2q_sv_q;
    a_lq_ok  = 1'b1;
    a_rq_ok  = 1'b1;
    a_l2q_ok = 1'b1;
    if (lk_done) begin
      a_lq_ok = lq_sv_q[lq_head_q];
      lq_sv_d[lq_head_q] = 1'b0;
    end
    pn = '0;
    for (int r = 0; r < 4; r++) begin
      if (push_i[r]) begin
        slot = 32'(lq_slot[pn[1:0]]);
        if (lq_sv_q[slot] && !(lk_done && (slot == 32'(lq_head_q)))) begin
          a_lq_ok = 1'b0;
        end
        lq_sv_d[slot] = 1'b1;
        pn = pn + 3'd1;
      end
    end
    if (rs_go) begin
      a_rq_ok = rq_sv_q[rq_head_q];
      rq_sv_d[rq_head_q] = 1'b0;
    end
    if (lk_rq) begin
      slot = 32'(rq_tail);
      if (rq_sv_q[slot] && !(rs_go && (slot == 32'(rq_head_q)))) begin
        a_rq_ok = 1'b0;
      end
      rq_sv_d[slot] = 1'b1;
    end
    if (l2_pop) begin
      a_l2q_ok = l2q_sv_q[l2q_head_q];
      l2q_sv_d[l2q_head_q] = 1'b0;
    end
    if (lk_l2) begin
      slot = 32'(l2q_tail);
      if (l2q_sv_q[slot] && !(l2_pop && (slot == 32'(l2q_head_q)))) begin
        a_l2q_ok = 1'b0;
      end
      l2q_sv_d[slot] = 1'b1;
    end
    // The L2 queue's count is its occupied slots: a miscount shows here the cycle after, before
    // the channel's valid (count != 0) can show it at the port.
    if (32'(l2q_cnt_q) != 32'($countones(l2q_sv_q))) begin
      a_l2q_ok = 1'b0;
    end
  end
  `VMEM_FF(lq_sv_q, lq_sv_d, '0)
  `VMEM_FF(rq_sv_q, rq_sv_d, '0)
  `VMEM_FF(l2q_sv_q, l2q_sv_d, '0)

  always_comb begin
    // MSHR targets: at most Targets.
    a_tgt_ok = 1'b1;
    for (int m = 0; m < Mshrs; m++) begin
      if (m_tgt_d[m] > TgtW'(Targets)) begin
        a_tgt_ok = 1'b0;
      end
    end
    // The victim of a miss is neither pinned nor pending.
    a_victim_ok = !lk_miss || ((ent_pins_q[victim] == '0) && !ent_pend_q[victim]);
    // An MSHR is not taken while its L2 request is unanswered.
    a_realloc_ok = !lk_alloc || !m_sent_q[free_m];
    // With quiet, a response tagged {0, m} names a busy MSHR waiting for it.
    a_rsp_ok = !(quiet_i && l2_rsp_i.valid && !l2_rsp_i.tag[4]) || rsp_m;
    // Idle zero of the channel.
    a_idle_ok = l2_req_o.valid || (l2_req_o == '0);
    a_rr_ok   = rr_v_q || (rr_ret == '0);
    `VMEM_TEST_HOOK(vmem_pipe_brk_bank_chk)  // test builds only (see the contract above)
  end
`endif

`VMEM_ASSERT(LookupQueue_A, a_lq_ok)
`VMEM_ASSERT(ReturnQueue_A, a_rq_ok)
`VMEM_ASSERT(L2Queue_A, a_l2q_ok)
`VMEM_ASSERT(MshrTargets_A, a_tgt_ok)
`VMEM_ASSERT(VictimFree_A, a_victim_ok)
`VMEM_ASSERT(MshrRealloc_A, a_realloc_ok)
`VMEM_ASSERT(RspMshrBusy_A, a_rsp_ok)
`VMEM_ASSERT(L2IdleZero_A, a_idle_ok)
`VMEM_ASSERT(ReturnIdleZero_A, a_rr_ok)
`VMEM_ASSERT_KNOWN_IF(L2ReqKnown_A, l2_req_o, l2_req_o.valid)

endmodule : vmem_pipe_tcp_bank

`endif  // VMEM_VMEM_PIPE_TCP_BANK_SV
