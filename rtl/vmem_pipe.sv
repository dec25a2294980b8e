// Copyright gcn-vmem contributors.
//
// vmem_pipe: the VMEM pipeline for buffer instructions (docs/spec.md §14): SQ -> TA -> TCP (L1)
// -> TD -> SQ, with the L2 (TCC) and memory outside, on four tagged channels. Not a
// fixed-latency unit: every interface is valid/ready and the cycle of every event is fixed by
// docs/decisions.md "vmem_pipe", which this block and the model (rust/vmem_pipe.rs) implement
// independently and the harness compares every cycle.
//
// Parameters:
//   TestBreakLru  TEST ONLY. 1: in the TCP, a hit does not make its entry most recently used
//                 (rtl/vmem_pipe_tcp.sv). Results stay right; the victims chosen later, and so
//                 the hits, misses, L2 traffic and timing, differ from the contract: a bug only
//                 a cycle-level comparison catches. Default 0: logic unchanged.
//   TestBreakAsserts  TEST ONLY, every unit's: 1 corrupts what the assertions read so that
//                 each fires. The corruption is chosen per program by the V#'s base address bits
//                 11:6 (iss_vsharp_i[11:6] of the last beat offered, registered as brk_key_q; the
//                 pipe suite draws them uniformly, one V# per program) and reaches the sub-blocks
//                 as test_break_asserts_i: key k in 1..38 corrupts a copy of what one assertion
//                 reads (the copy feeds nothing else: the outputs stay right and only that
//                 assertion fails), at the property's edge: a bound exceeded by exactly one, one
//                 bit of a compared value flipped, a tag one edge early. Keys 1..9 and 38:
//                 rtl/vmem_pipe_ta.sv, 10..17: rtl/vmem_pipe_tcp.sv, 18..37: rtl/vmem_pipe_td.sv
//                 (each file's header lists its keys); 0 and 39..63 are left correct. This file's
//                 one assertion is a known-value check (4-state simulators only). Default 0: the
//                 key stays 0, logic unchanged.
//   In a Verilated simulation each TEST ONLY parameter is also the plusarg of its name
//   (+TestBreakLru, +TestBreakAsserts), read once at time 0: one Verilator build then serves the
//   RTL as written, its mutant and its broken assertions (cosim/units.txt `builds=one`; the
//   pipeline's generated C++ is too large to compile three times). Synthesis, formal and every
//   other tool see the parameters only.
//
// Contract summary (docs/decisions.md "vmem_pipe" is the full text):
//   - Moore outputs: every output is a register or a function of registers; an input in cycle t
//     acts at the edge that ends t. Every payload output is 0 while its valid is 0. Reset
//     (rst_ni low, asynchronous) empties everything and drives every output to 0; iss_ready_o
//     rises at the first edge after release.
//   - Issue: beats of 16 lanes (address dword k/4 and data dword k/4 of group k%4 on beat k),
//     the header on the first beat, iss_last_i on the last; two instruction buffers.
//   - TA: the address stage takes the oldest complete buffer when idle, fewer than 4 instructions
//     are in flight and fewer than 2 are held by the step stage; it feeds one group per cycle to
//     16 buffer_addr (and format_pack for format stores; d16 converts D16 store data as it
//     arrives); group g is available to the step stage 3 cycles after it is fed. The step stage
//     groups lanes as SPEC §7 does (the coalescer's quad_mergeable) and sends bundles of up to 4
//     requests per cycle to the TCP (rtl/vmem_pipe_ta.sv).
//   - TCP: four banks (bits 7:6), 64 fully associative entries each, LRU, 8 tags, in-order
//     accesses, write-through without allocation, atomics in the L2 invalidating a resident line;
//     bank b's L2 requests and responses on channel b (rtl/vmem_pipe_tcp.sv).
//   - TD: when the oldest instruction is complete and the TD idle (cycle s), loads and returning
//     atomics write their VGPRs group-major from s + 4, one write per accepted cycle; done one
//     cycle after the last accepted write, or in s + 1 for instructions without writes; ids
//     finish in order; done carries the instruction's stage cycles and TCP counters
//     (rtl/vmem_pipe_td.sv).
//
// Structure: vmem_pipe_ta (receiver, address stage, step stage), vmem_pipe_tcp (banks, tags, L2
//   channels), vmem_pipe_td (in-flight ids, gather, conversion, VGPR writes, done); a 16-bit
//   cycle counter here stamps events (differences wrap like the 16-bit counters).
//
// Model: rust/vmem_pipe.rs  Spec: docs/spec.md §14  Contract: docs/decisions.md "vmem_pipe"


// The modules instantiated here, for a Verilator run given this file alone (lint without
// -y rtl, from the repository root); each file includes once (its guard).
`ifdef VERILATOR
`include "rtl/vmem_pipe_ta.sv"
`include "rtl/vmem_pipe_tcp.sv"
`include "rtl/vmem_pipe_td.sv"
`endif

module vmem_pipe
  import vmem_pkg::*;
#(
  parameter bit TestBreakLru     = 1'b0,  // TEST ONLY: see the contract above.
  parameter bit TestBreakAsserts = 1'b0   // TEST ONLY: see the contract above.
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              iss_valid_i,
  input  logic              iss_last_i,
  input  logic [1:0]        iss_kind_i,
  input  logic [4:0]        iss_op_i,
  input  logic              iss_wide_i,
  input  logic              iss_sized_i,
  input  logic [1:0]        iss_access_i,
  input  logic [4:0]        iss_bytes_i,
  input  logic [2:0]        iss_count_i,
  input  logic [3:0]        iss_dfmt_i,
  input  logic [2:0]        iss_nfmt_i,
  input  logic [11:0]       iss_dst_sel_i,
  input  logic [1:0]        iss_d16_i,
  input  logic              iss_offen_i,
  input  logic              iss_idxen_i,
  input  logic              iss_glc_i,
  input  logic              iss_tfe_i,
  input  logic [11:0]       iss_offset_i,
  input  logic [7:0]        iss_vdata_i,
  input  logic [31:0]       iss_soffset_i,
  input  logic [127:0]      iss_vsharp_i,
  input  logic [63:0]       iss_exec_i,
  input  logic [15:0][31:0] iss_addr_i,
  input  logic [15:0][31:0] iss_data_i,
  input  logic [3:0]        l2_req_ready_i,
  input  logic [3:0]        l2_rsp_valid_i,
  input  logic [3:0][2:0]   l2_rsp_tag_i,
  input  logic [63:0][31:0] l2_rsp_data_i,
  input  logic              vgpr_ready_i,
  output logic              iss_ready_o,
  output logic [3:0]        l2_req_valid_o,
  output logic [3:0][1:0]   l2_req_kind_o,
  output logic [3:0][2:0]   l2_req_tag_o,
  output logic [3:0][47:0]  l2_req_addr_o,
  output logic [3:0][63:0]  l2_req_mask_o,
  output logic [63:0][31:0] l2_req_data_o,
  output logic [3:0][4:0]   l2_req_op_o,
  output logic [3:0]        l2_req_wide_o,
  output logic [3:0]        l2_req_return_o,
  output logic              vgpr_valid_o,
  output logic [7:0]        vgpr_addr_o,
  output logic [1:0]        vgpr_group_o,
  output logic [15:0]       vgpr_mask_o,
  output logic [15:0][31:0] vgpr_data_o,
  output logic              done_valid_o,
  output logic [15:0]       done_issue_o,
  output logic [15:0]       done_ta_o,
  output logic [15:0]       done_tcp_o,
  output logic [15:0]       done_l2_o,
  output logic [15:0]       done_td_o,
  output logic [15:0]       done_total_o,
  output logic [15:0]       done_requests_o,
  output logic [15:0]       done_hits_o,
  output logic [15:0]       done_misses_o,
  output logic [15:0]       done_conflicts_o
);

  // The test-only knobs: the parameters, or in a Verilated simulation also their plusargs.
  logic break_lru;
  logic break_asserts;
`ifdef VERILATOR
  initial begin
    break_lru     = TestBreakLru || $test$plusargs("TestBreakLru");
    break_asserts = TestBreakAsserts || $test$plusargs("TestBreakAsserts");
  end
`else
  assign break_lru     = TestBreakLru;
  assign break_asserts = TestBreakAsserts;
`endif

  // TEST ONLY: the assertion corruption of the program (see TestBreakAsserts); 0 unless
  // break_asserts.
  logic [5:0] brk_key_q;
  `VMEM_FF(brk_key_q, (break_asserts && iss_valid_i) ? iss_vsharp_i[11:6] : brk_key_q, '0)

  // The cycle stamp: cycle t after reset reads t (mod 2^16).
  logic [15:0] now_q;
  `VMEM_FF(now_q, now_q + 16'd1, '0)

  // The port groups as the sub-blocks take them (vmem_pkg's pipe_iss_t, pipe_l2_req_t,
  // pipe_l2_rsp_t, pipe_vgpr_t, pipe_done_t: the ports in port order).
  logic [1:0]         iss_kind;   // kind 3 (unused) is a load
  pipe_iss_t          iss;
  pipe_l2_req_t [3:0] l2_req;
  pipe_l2_rsp_t [3:0] l2_rsp;
  pipe_vgpr_t         vgpr;
  pipe_done_t         done;

  assign iss_kind = (iss_kind_i == 2'd3) ? PipeLoad : iss_kind_i;
  assign iss = {iss_valid_i, iss_last_i, iss_kind, iss_op_i,
                iss_wide_i, iss_sized_i, iss_access_i, iss_bytes_i, iss_count_i, iss_dfmt_i,
                iss_nfmt_i, iss_dst_sel_i, iss_d16_i, iss_offen_i, iss_idxen_i, iss_glc_i,
                iss_tfe_i, iss_offset_i, iss_vdata_i, iss_soffset_i, iss_vsharp_i, iss_exec_i,
                iss_addr_i, iss_data_i};

  for (genvar b = 0; b < 4; b++) begin : g_l2
    assign l2_rsp[b] = {l2_rsp_valid_i[b], l2_rsp_tag_i[b], l2_rsp_data_i[16*b +: 16]};
    assign {l2_req_valid_o[b], l2_req_kind_o[b], l2_req_tag_o[b], l2_req_addr_o[b],
            l2_req_mask_o[b], l2_req_data_o[16*b +: 16], l2_req_op_o[b], l2_req_wide_o[b],
            l2_req_return_o[b]} = l2_req[b];
  end

  assign {vgpr_valid_o, vgpr_addr_o, vgpr_group_o, vgpr_mask_o, vgpr_data_o} = vgpr;
  assign {done_valid_o, done_issue_o, done_ta_o, done_tcp_o, done_l2_o, done_td_o, done_total_o,
          done_requests_o, done_hits_o, done_misses_o, done_conflicts_o} = done;

  logic               inflight_full;
  pipe_take_t         take;
  pipe_res_t          res;
  logic               bnd_valid;
  pipe_bundle_t       bnd;
  logic               bnd_ready;
  pipe_step_end_t     step_end;
  pipe_ret_t [31:0]   ret;
  logic [3:0]         quiet;
  pipe_ctr_t [3:0]    ctr;

  vmem_pipe_ta u_ta (
    .clk_i,
    .rst_ni,
    .test_break_asserts_i (brk_key_q),
    .now_i           (now_q),
    .iss_i           (iss),
    .iss_ready_o,
    .inflight_full_i (inflight_full),
    .take_o          (take),
    .res_o           (res),
    .bnd_valid_o     (bnd_valid),
    .bnd_o           (bnd),
    .bnd_ready_i     (bnd_ready),
    .step_end_o      (step_end)
  );

  vmem_pipe_tcp u_tcp (
    .clk_i,
    .rst_ni,
    .test_break_lru_i (break_lru),
    .test_break_asserts_i (brk_key_q),
    .now_i          (now_q),
    .take_i         (take.valid),
    .take_id_i      (take.id),
    .bnd_valid_i    (bnd_valid),
    .bnd_i          (bnd),
    .bnd_ready_o    (bnd_ready),
    .l2_req_ready_i,
    .l2_rsp_i       (l2_rsp),
    .l2_req_o       (l2_req),
    .ret_o          (ret),
    .quiet_o        (quiet),
    .ctr_o          (ctr)
  );

  vmem_pipe_td u_td (
    .clk_i,
    .rst_ni,
    .test_break_asserts_i (brk_key_q),
    .now_i           (now_q),
    .take_i          (take),
    .res_i           (res),
    .step_end_i      (step_end),
    .ret_i           (ret),
    .quiet_i         (quiet),
    .ctr_i           (ctr),
    .inflight_full_o (inflight_full),
    .vgpr_ready_i,
    .vgpr_o          (vgpr),
    .done_o          (done)
  );

  ////////////////
  // Assertions //
  ////////////////

// Known values (4-state simulators only; see vmem_prim_pkg.sv).
`VMEM_ASSERT_KNOWN(ValidsKnown_A, {iss_ready_o, l2_req_valid_o, vgpr_valid_o, done_valid_o})

// The interfaces' other properties are asserted where their state lives:
//   issue port (vmem_pipe_ta): IssueBeats_A, IssueHeaderHeld_A, IssueIntoFull_A; bundles:
//     BundleStable_A, StepRequests_A, MergedRequests_A, HeldTables_A;
//   L2 channels (vmem_pipe_tcp, per bank): L2ReqStable_A (valid/ready stability: payload and tag
//     unchanged while valid && !ready), L2TagUnique_A (never a tag that is outstanding),
//     L2RspTag_A (every response matches an outstanding tag), L2ReqAligned_A, L2IdleZero_A,
//     FillPending_A, LineUnique_A, Outstanding_A;
//   VGPR port and done (vmem_pipe_td): VgprHold_A, VgprIdleZero_A, VgprMask_A, VgprAddr_A,
//     DoneIdleZero_A, StartComplete_A, TakeFree_A, TakeInOrder_A, InflightMax_A,
//     StepEndInFlight_A and the counters' Done*_A.

endmodule : vmem_pipe
