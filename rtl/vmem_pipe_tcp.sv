`ifndef VMEM_VMEM_PIPE_TCP_SV  // included by the blocks that instantiate it (see rtl/vmem_pipe.sv)
`define VMEM_VMEM_PIPE_TCP_SV
// Copyright gcn-vmem contributors.
//
// vmem_pipe_tcp: the TCP (L1) of vmem_pipe (docs/decisions.md "vmem_pipe", "TCP (L1): banks that
// look up independently, MSHRs, lines as the reorder buffer"): the bundle's split into accesses,
// its acceptance, the banks (vmem_pipe_tcp_bank, one per L2 channel) and the per-instruction TCP
// counters. Sub-block of rtl/vmem_pipe.sv.
//
// Parameters: Cfg, vmem_pipe's parameters as one value (vmem_pkg::pipe_cfg_t, checked there).
// Banks = 2: channels 2 and 3 present nothing and their inputs are ignored.
//
// Bundle: the requests to one bank and one line form one access (atomics one each), in the order
// of their first request; the bank of a request is address bits 7:6 (Banks = 4) or bit 6. A
// store access carries its requests' bytes over the line (a later request's bytes over an
// earlier one's). The bundle is accepted (bnd_ready_o) when every bank's accesses fit the free
// entries of its lookup queue at the start of the cycle; they enter the queues at that edge.
//
// Counters per instruction id (cleared at its take): requests, conflicts (per bundle the most
// accesses to one bank, minus 1) and its posted accesses outstanding (stores, atomics without
// GLC: counted at acceptance, one less per acknowledgement) here; hits, merges, misses, MSHR
// waits, the first and last cycle one of its accesses was at a lookup-queue head, the first
// cycle one of its L2 requests was accepted and the last cycle a response to one arrived, from
// the banks' events. ctr_o is the counters of done_id_i after this cycle's events, and
// posted_zero_o says, per id, that no posted access is outstanding after them (the TD decides a
// done at the edge, for the next cycle).
//
// Spec: docs/spec.md §14 "TCP (L1)"  Contract: docs/decisions.md "vmem_pipe"

`ifdef VERILATOR
`include "rtl/vmem_pipe_tcp_bank.sv"
`endif

module vmem_pipe_tcp
  import vmem_pkg::*;
#(
  parameter pipe_cfg_t Cfg = PipeCfgDefault
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,           // async, active low
  input  logic [15:0]               now_i,            // cycle stamp
  input  logic                      quiet_i,
  // The address stage takes an instruction (its counters start from 0)
  input  logic                      take_i,
  input  logic [PipeIdW-1:0]        take_id_i,
  // Bundles from the TA
  input  logic                      bnd_valid_i,
  input  pipe_bundle_t              bnd_i,
  output logic                      bnd_ready_o,
  output pipe_acc_ev_t              acc_o,            // an accepted bundle's returning accesses
  // L2 channels, channel c at element c
  input  logic [3:0]                l2_req_ready_i,
  input  pipe_l2_rsp_t [3:0]        l2_rsp_i,
  output pipe_l2_req_t [3:0]        l2_req_o,
  // Return registers, for the TD
  output pipe_rr_t [3:0]            rr_o,
  input  logic [3:0]                rr_take_i,
  // Counters, for the TD's done
  input  logic [PipeIdW-1:0]        done_id_i,
  output pipe_ctr_t                 ctr_o,
  output logic [PipeMaxIds-1:0]     posted_zero_o
);

  localparam int unsigned PostW = 8;   // posted accesses of one instruction: at most 128

  // A store request's bytes (mask, data) written over its access's line at block blk.
  function automatic pipe_acc_t put_bytes(pipe_acc_t a, logic [1:0] blk, logic [15:0] mask,
                                          logic [127:0] data);
    for (int y = 0; y < 16; y++) begin
      if (mask[y]) begin
        a.mask[16*blk + y]          = 1'b1;
        a.data[8*(16*blk + y) +: 8] = data[8*y +: 8];
      end
    end
    return a;
  endfunction

  // At least k of the four bits set (k = 1..4): an OR of the ANDs of every k of them (one
  // term per 4-bit mask m with k bits; the others 0), reduced as one OR.
  function automatic logic at_least(logic [3:0] v, int unsigned k);
    logic [15:1] term;
    for (int m = 1; m < 16; m++) begin
      term[m] = (32'($countones(4'(m))) == k) && ((v & 4'(m)) == 4'(m));
    end
    return |term;
  endfunction

  // The banks' events of one cycle that name instruction `id`, summed over the banks.
  typedef struct packed {
    logic       at_head;   // one of its accesses is at a lookup-queue head
    logic [4:0] hits;
    logic [4:0] merged;
    logic [4:0] misses;
    logic [2:0] mwait;
    logic       l2a;       // the L2 accepted one of its requests
    logic       rsp;       // a response to one of its requests arrived
    logic [2:0] acks;      // acknowledgements of its posted requests
  } ev_sum_t;

  function automatic ev_sum_t ev_sum(pipe_bank_ev_t [3:0] ev, logic [PipeIdW-1:0] id);
    ev_sum_t s;
    s = '0;
    for (int b = 0; b < 4; b++) begin
      if (ev[b].head_valid && (ev[b].head_id == id)) begin
        s.at_head = 1'b1;
        s.hits    = s.hits + {2'b00, ev[b].hit};
        s.merged  = s.merged + {2'b00, ev[b].merge};
        s.misses  = s.misses + {2'b00, ev[b].miss};
        s.mwait   = s.mwait + {2'b00, ev[b].mwait};
      end
      s.l2a  = s.l2a | (ev[b].l2_acc && (ev[b].l2_acc_id == id));
      s.rsp  = s.rsp | (ev[b].rsp_ok && (ev[b].rsp_id == id));
      s.acks = s.acks + {2'b00, ev[b].ack && (ev[b].rsp_id == id)};
    end
    return s;
  endfunction

  ////////////////////////////
  // The bundle's accesses  //
  ////////////////////////////

  logic [3:0]        rv;            // request r is valid
  logic [3:0][1:0]   rbank;
  logic [3:0]        lead;          // request r is the first of its access
  logic [3:0][3:0]   same;          // [q][r], q < r: valid requests to one line (not atomics)
  logic [3:0][3:0]   member;        // [r][m]: request m is in the access led by r
  logic              b_atomic;
  pipe_acc_t [3:0]   acc;           // the access led by request r
  logic [3:0][3:0]   push;          // [bank][r]
  logic [3:0][2:0]   lk_free;
  logic              fits;
  logic [3:0][4:1]   over;          // [bank][k]: k or more accesses, fewer than k entries free
  logic [4:2][3:0]   conf_b;        // [k][bank]: k or more accesses to the bank
  logic [2:0]        n_req, n_ret, n_post;
  logic [1:0]        n_conf;        // the most accesses to one bank, minus 1 (0 for none)
  logic [3:1]        conf_ge;

  always_comb begin
    b_atomic = bnd_i.kind == PipeAtomic;
    for (int r = 0; r < 4; r++) begin
      rv[r]    = bnd_valid_i & bnd_i.req[r].valid;
      rbank[r] = (Cfg.banks == 4) ? bnd_i.req[r].addr[7:6] : {1'b0, bnd_i.req[r].addr[6]};
    end
    // Each request against the earlier ones, all compares side by side: a request leads its
    // access when no earlier one is to its line; the members of the access led by r are r and
    // the later requests to r's line.
    same = '0;
    for (int r = 0; r < 4; r++) begin
      for (int q = 0; q < r; q++) begin
        same[q][r] = !b_atomic && rv[q] && rv[r] &&
                     (bnd_i.req[q].addr[47:6] == bnd_i.req[r].addr[47:6]);
      end
    end
    for (int r = 0; r < 4; r++) begin
      lead[r] = rv[r];
      for (int q = 0; q < r; q++) begin
        lead[r] = lead[r] && !same[q][r];
      end
    end
    for (int r = 0; r < 4; r++) begin
      for (int m = 0; m < 4; m++) begin
        member[r][m] = lead[r] && ((m == r) || ((m > r) && same[r][m]));
      end
    end

    for (int r = 0; r < 4; r++) begin
      acc[r]      = '0;
      acc[r].id   = bnd_i.id;
      acc[r].kind = bnd_i.kind;
      acc[r].glc  = bnd_i.glc;
      acc[r].op   = bnd_i.op;
      acc[r].wide = bnd_i.wide;
      acc[r].addr = b_atomic ? bnd_i.req[r].addr : {bnd_i.req[r].addr[47:6], 6'd0};
      if (b_atomic) begin
        acc[r].data[127:0] = bnd_i.req[r].data;
      end
      for (int m = 0; m < 4; m++) begin
        if (member[r][m]) begin
          acc[r].nreq   = acc[r].nreq + 3'd1;
          acc[r].req[m] = '{valid: 1'b1, quad: bnd_i.req[m].quad, lanes: bnd_i.req[m].lanes,
                            second: bnd_i.req[m].second,
                            blk: b_atomic ? 2'd0 : bnd_i.req[m].addr[5:4]};
          if (!b_atomic) begin
            acc[r] = put_bytes(acc[r], bnd_i.req[m].addr[5:4], bnd_i.req[m].mask,
                               bnd_i.req[m].data);
          end
        end
      end
    end

    // fits: per bank, at least k accesses only where at least k entries are free (k = 1..4),
    // each a function of the four push bits, not of their sum; the sixteen terms reduced as one
    // OR. n_conf likewise: at least k + 1 accesses to some bank (conf_ge[k]).
    for (int b = 0; b < 4; b++) begin
      for (int r = 0; r < 4; r++) begin
        push[b][r] = lead[r] && (rbank[r] == 2'(b)) && (b < Cfg.banks);
      end
      for (int k = 1; k <= 4; k++) begin
        over[b][k] = at_least(push[b], k) && (lk_free[b] < 3'(k));
      end
      for (int k = 2; k <= 4; k++) begin
        conf_b[k][b] = at_least(push[b], k);
      end
    end
    fits = ~|over;
    for (int k = 1; k <= 3; k++) begin
      conf_ge[k] = |conf_b[k + 1];
    end
    n_conf = conf_ge[3] ? 2'd3 : (conf_ge[2] ? 2'd2 : {1'b0, conf_ge[1]});
    bnd_ready_o = fits;

    n_req  = '0;
    n_ret  = '0;
    n_post = '0;
    for (int r = 0; r < 4; r++) begin
      n_req = n_req + {2'b00, rv[r]};
      if (lead[r]) begin
        if ((bnd_i.kind == PipeStore) || (b_atomic && !bnd_i.glc)) begin
          n_post = n_post + 3'd1;
        end else begin
          n_ret = n_ret + 3'd1;
        end
      end
    end
  end

  logic accept;
  assign accept = bnd_valid_i & fits;
  assign acc_o  = '{valid: accept, id: accept ? bnd_i.id : '0, nret: accept ? n_ret : 3'd0};

  ///////////
  // Banks //
  ///////////

  pipe_bank_ev_t [3:0]        ev;
  logic [PipeMaxIds-1:0]      posted_zero_q;

  for (genvar b = 0; b < 4; b++) begin : g_bank
    if (b < Cfg.banks) begin : g_on
      vmem_pipe_tcp_bank #(
        .Lines(Cfg.lines), .Mshrs(Cfg.mshrs), .Targets(Cfg.targets), .InFlight(Cfg.inflight),
        .LookupDepth(Cfg.lookup_depth), .ReturnDepth(Cfg.return_depth), .L2Depth(Cfg.l2_depth)
      ) u_bank (
        .clk_i,
        .rst_ni,
        .quiet_i,
        .push_i         (push[b] & {4{accept}}),
        .acc_i          (acc),
        .lk_free_o      (lk_free[b]),
        .ev_o           (ev[b]),
        .posted_zero_i  (posted_zero_q),
        .l2_req_ready_i (l2_req_ready_i[b]),
        .l2_rsp_i       (l2_rsp_i[b]),
        .l2_req_o       (l2_req_o[b]),
        .rr_o           (rr_o[b]),
        .rr_take_i      (rr_take_i[b])
      );
    end else begin : g_off
      // Banks = 2: channel b presents nothing; its inputs are not used.
      assign lk_free[b]  = 3'd4;
      assign ev[b]       = '0;
      assign l2_req_o[b] = '0;
      assign rr_o[b]     = '0;
      logic unused_channel;
      assign unused_channel = ^{l2_req_ready_i[b], l2_rsp_i[b], rr_take_i[b]};
    end
  end

  //////////////
  // Counters //
  //////////////

  pipe_ctr_t [Cfg.inflight-1:0]        ctr_q, ctr_d;
  logic [Cfg.inflight-1:0][PostW-1:0]  post_q, post_d;
  ev_sum_t [Cfg.inflight-1:0]          evs;   // this cycle's bank events, per instruction

  always_comb begin
    for (int i = 0; i < Cfg.inflight; i++) begin
      evs[i] = ev_sum(ev, PipeIdW'(i));
    end
  end

  always_comb begin
    ctr_d  = ctr_q;
    post_d = post_q;
    for (int i = 0; i < Cfg.inflight; i++) begin
      ev_sum_t e;
      e = evs[i];
      if (take_i && (take_id_i == PipeIdW'(i))) begin
        ctr_d[i]  = '0;
        post_d[i] = '0;
      end
      if (accept && (bnd_i.id == PipeIdW'(i))) begin
        ctr_d[i].n.requests  = ctr_d[i].n.requests + 16'(n_req);
        ctr_d[i].n.conflicts = ctr_d[i].n.conflicts + 16'(n_conf);
        post_d[i]            = post_d[i] + PostW'(n_post);
      end
      post_d[i]            = post_d[i] - PostW'(e.acks);
      ctr_d[i].n.hits      = ctr_d[i].n.hits + 16'(e.hits);
      ctr_d[i].n.merged    = ctr_d[i].n.merged + 16'(e.merged);
      ctr_d[i].n.misses    = ctr_d[i].n.misses + 16'(e.misses);
      ctr_d[i].n.mshr_wait = ctr_d[i].n.mshr_wait + 16'(e.mwait);
      if (e.at_head) begin
        if (!ctr_d[i].tcp_any) begin
          ctr_d[i].tcp_first = now_i;
        end
        ctr_d[i].tcp_any  = 1'b1;
        ctr_d[i].tcp_last = now_i;
      end
      if (e.l2a) begin
        if (!ctr_d[i].l2_any) begin
          ctr_d[i].l2_first = now_i;
        end
        ctr_d[i].l2_any = 1'b1;
      end
      if (e.rsp) begin
        ctr_d[i].l2_last = now_i;
      end
    end
  end

  // posted_zero_o[i] is post_d[i] == 0, with the bundle's acceptance as the last gate: the
  // count before it (cleared at a take, less this cycle's acknowledgements) is 0, and the bundle
  // accepted, if it is i's, adds no posted access. The two are equal because an acknowledgement
  // answers a request accepted in an earlier cycle (a lookup and an L2 round trip after it), so
  // the count before the acceptance is never below 0.
  always_comb begin
    logic [PostW-1:0] rest;
    posted_zero_q = '1;
    posted_zero_o = '1;
    for (int i = 0; i < Cfg.inflight; i++) begin
      rest = ((take_i && (take_id_i == PipeIdW'(i))) ? '0 : post_q[i]) - PostW'(evs[i].acks);
      posted_zero_q[i] = post_q[i] == '0;
      posted_zero_o[i] = (rest == '0) &&
                         !(accept && (bnd_i.id == PipeIdW'(i)) && (n_post != 3'd0));
    end
  end

  assign ctr_o = ctr_d[done_id_i];

  `VMEM_FF(ctr_q, ctr_d, '0)
  `VMEM_FF(post_q, post_d, '0)

  ////////////////
  // Assertions //
  ////////////////

`ifndef SYNTHESIS
  logic a_post_ok;
  always_comb begin
    // An acknowledgement never takes an instruction's posted count below 0 (checked per id:
    // its count before the edge covers this cycle's acknowledgements).
    a_post_ok = 1'b1;
    for (int i = 0; i < Cfg.inflight; i++) begin
      logic [2:0] acks;
      acks = evs[i].acks;
      `VMEM_TEST_HOOK(vmem_pipe_brk_tcp)  // test builds only (rtl/vmem_prim_pkg.sv)
      if ({1'b0, PostW'(acks)} > {1'b0, post_q[i]} + ((accept && (bnd_i.id == PipeIdW'(i)))
                                                      ? (PostW + 1)'(n_post) : '0)) begin
        a_post_ok = 1'b0;
      end
    end
  end
`endif

`VMEM_ASSERT(PostedAcks_A, a_post_ok)

// Environment (the testbench's L2): with quiet, a response on channel c comes only for a channel
// of a bank.
`ifndef SYNTHESIS
  logic a_rsp_channel_ok;
  always_comb begin
    a_rsp_channel_ok = !quiet_i || (Cfg.banks == 4) || !(l2_rsp_i[2].valid || l2_rsp_i[3].valid);
    `VMEM_TEST_HOOK(vmem_pipe_brk_tcp_rsp)  // test builds only (rtl/vmem_prim_pkg.sv)
  end
`endif
`VMEM_ASSERT(RspChannel_A, a_rsp_channel_ok)

endmodule : vmem_pipe_tcp

`endif  // VMEM_VMEM_PIPE_TCP_SV
