// Copyright gcn-vmem contributors.
//
// vmem_pipe: the VMEM pipeline for buffer instructions and the image loads and stores (docs/spec.md
// §14, §15: IMAGE_LOAD, _MIP, IMAGE_STORE, _MIP): SQ -> TA -> TCP (L1) -> TD -> SQ, with the L2
// (TCC) and memory outside, on four tagged channels. Not a
// fixed-latency unit: every interface is valid/ready and the cycle of every event is fixed by
// docs/decisions.md "vmem_pipe", which this block and the model (rust/vmem_pipe.rs) implement
// independently and the harness compares every cycle.
//
// Parameters (docs/decisions.md "vmem_pipe", "Parameters"; elaboration stops with $fatal on an
// illegal set; the TCP takes them as one vmem_pkg::pipe_cfg_t, the sub-blocks' defaults are
// vmem_pkg::PipeCfgDefault, equal to these):
//   Banks        TCP banks, 2 or 4 (bank = address bits 7:6, or bit 6); channels 2 and 3 present
//                nothing with 2.
//   Lines        lines per bank (fully associative, 64 bytes); more than Mshrs + ReturnDepth.
//   Mshrs        MSHRs per bank, 1 .. 16.
//   Targets      accesses one MSHR serves, at least 1.
//   InFlight     instructions in flight, 1 .. 16.
//   LookupDepth  accesses a bank's lookup queue holds, at least 4.
//   ReturnDepth  accesses a bank's return queue holds, at least 1.
//   L2Depth      requests a bank's L2 request queue holds, at least 1.
//
// Test hooks: none here. The sub-blocks hold empty `VMEM_TEST_HOOK points (rtl/vmem_prim_pkg.sv)
// whose text (rtl/test/vmem_pipe_brk_*.svh, vmem_pipe_mut_lru.svh) only the unit's test build
// compiles; its switches are modules of their own that the test build binds into this one.
//
// Contract summary (docs/decisions.md "vmem_pipe" is the full text):
//   - Moore outputs: every output is a register or a function of registers; an input in cycle t
//     acts at the edge that ends t. Every payload output is 0 while its valid is 0. Reset
//     (rst_ni low, asynchronous) empties everything and drives every output to 0; iss_ready_o
//     rises at the first edge after release. `quiet` (here) is 0 after reset and becomes 1 at the
//     first edge with l2_idle_i: before, no channel presents a request and every response is
//     ignored.
//   - Issue: beats of 16 lanes (address dword k/4 and data dword k/4 of group k%4 on beat k),
//     the header on the first beat, iss_last_i on the last; two instruction buffers.
//   - TA: the address stage takes the oldest complete buffer when idle, fewer than InFlight
//     instructions are in flight and fewer than 2 are held by the step stage, and works 4 cycles
//     on a buffer instruction (16 lanes a cycle), 16 on an image one (a quad a cycle); the step
//     stage sends bundles of up to 4 requests a cycle (rtl/vmem_pipe_ta.sv).
//   - TCP: a bundle's accesses enter the banks' lookup queues when they fit; each bank looks up
//     its head (hit, merge into an MSHR, miss, GLC read, posted store or atomic), queues L2
//     requests and return entries, and reads hits from its single-port line RAM and MSHR data
//     from its register file into its return register (rtl/vmem_pipe_tcp.sv,
//     rtl/vmem_pipe_tcp_bank.sv).
//   - TD: takes the return registers of its gather instruction (at most 4 blocks a cycle) into
//     one of two element buffers, converts 16 lanes a cycle into one of two result buffers,
//     writes VGPRs group-major and shows one done a cycle in order (rtl/vmem_pipe_td.sv).
//
// Structure: vmem_pipe_ta, vmem_pipe_tcp (vmem_pipe_tcp_bank x Banks: vmem_pipe_tcp_ram,
//   vmem_pipe_rf), vmem_pipe_td; a 16-bit cycle counter here stamps events (differences wrap
//   like the 16-bit counters).
//
// Model: rust/vmem_pipe.rs  Spec: docs/spec.md §14, §15  Contract: docs/decisions.md "vmem_pipe"


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
  parameter int unsigned Banks       = 4,
  parameter int unsigned Lines       = 64,
  parameter int unsigned Mshrs       = 16,
  parameter int unsigned Targets     = 8,
  parameter int unsigned InFlight    = 16,
  parameter int unsigned LookupDepth = 4,
  parameter int unsigned ReturnDepth = 32,
  parameter int unsigned L2Depth     = 2
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
  input  logic [7:0][31:0]  iss_rsrc_i,
  input  logic              iss_image_i,
  input  logic [3:0]        iss_dmask_i,
  input  logic              iss_da_i,
  input  logic              iss_a16_i,
  input  logic              iss_mip_i,
  input  logic              iss_r128_i,
  input  logic              iss_lds_i,
  input  logic [31:0]       iss_m0_i,
  input  logic [8:0]        iss_lds_base_i,
  input  logic [8:0]        iss_lds_size_i,
  input  logic [63:0]       iss_exec_i,
  input  logic [15:0][31:0] iss_addr_i,
  input  logic [15:0][31:0] iss_data_i,
  input  logic [3:0]        l2_req_ready_i,
  input  logic [3:0]        l2_rsp_valid_i,
  input  logic [3:0][4:0]   l2_rsp_tag_i,
  input  logic [63:0][31:0] l2_rsp_data_i,
  input  logic              l2_idle_i,
  input  logic              vgpr_ready_i,
  input  logic              lds_ready_i,
  output logic              iss_ready_o,
  output logic [3:0]        l2_req_valid_o,
  output logic [3:0][1:0]   l2_req_kind_o,
  output logic [3:0][4:0]   l2_req_tag_o,
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
  output logic              lds_valid_o,
  output logic [15:0]       lds_mask_o,
  output logic [15:0][17:0] lds_addr_o,
  output logic [15:0][31:0] lds_data_o,
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
  output logic [15:0]       done_merged_o,
  output logic [15:0]       done_conflicts_o,
  output logic [15:0]       done_mshr_wait_o
);

  // Legal parameters (docs/decisions.md "vmem_pipe", "Parameters").
  if ((Banks != 2) && (Banks != 4)) begin : g_bad_banks
    $fatal(1, "vmem_pipe: Banks must be 2 or 4, not %0d", Banks);
  end
  if ((Mshrs < 1) || (Mshrs > 16)) begin : g_bad_mshrs
    $fatal(1, "vmem_pipe: Mshrs must be 1 .. 16, not %0d", Mshrs);
  end
  if ((InFlight < 1) || (InFlight > 16)) begin : g_bad_inflight
    $fatal(1, "vmem_pipe: InFlight must be 1 .. 16, not %0d", InFlight);
  end
  if (Targets < 1) begin : g_bad_targets
    $fatal(1, "vmem_pipe: Targets must be at least 1, not %0d", Targets);
  end
  if (LookupDepth < 4) begin : g_bad_lookup
    $fatal(1, "vmem_pipe: LookupDepth must be at least 4, not %0d", LookupDepth);
  end
  if (ReturnDepth < 1) begin : g_bad_return
    $fatal(1, "vmem_pipe: ReturnDepth must be at least 1, not %0d", ReturnDepth);
  end
  if (L2Depth < 1) begin : g_bad_l2
    $fatal(1, "vmem_pipe: L2Depth must be at least 1, not %0d", L2Depth);
  end
  if (Lines <= Mshrs + ReturnDepth) begin : g_bad_lines
    $fatal(1, "vmem_pipe: Lines (%0d) must exceed Mshrs + ReturnDepth (%0d)", Lines,
           Mshrs + ReturnDepth);
  end

  // The parameters as one value, for the TCP.
  localparam pipe_cfg_t Cfg = pipe_cfg(Banks, Lines, Mshrs, Targets, InFlight, LookupDepth,
                                       ReturnDepth, L2Depth);

  // The cycle stamp: cycle t after reset reads t (mod 2^16).
  logic [15:0] now_q;
  `VMEM_FF(now_q, now_q + 16'd1, '0)

  // Quiet after reset: 1 from the first edge with l2_idle_i, until the next reset.
  logic quiet_q;
  `VMEM_FF(quiet_q, quiet_q | l2_idle_i, 1'b0)

  // The port groups as the sub-blocks take them (vmem_pkg's pipe_iss_t, pipe_l2_req_t,
  // pipe_l2_rsp_t, pipe_vgpr_t, pipe_done_t: the ports in port order).
  logic [1:0]         iss_kind;   // kind 3 (unused) is a load
  pipe_iss_t          iss;
  pipe_l2_req_t [3:0] l2_req;
  pipe_l2_rsp_t [3:0] l2_rsp;
  pipe_vgpr_t         vgpr;
  pipe_lds_t          lds;
  pipe_done_t         done;

  assign iss_kind = (iss_kind_i == 2'd3) ? PipeLoad : iss_kind_i;
  assign iss = {iss_valid_i, iss_last_i, iss_kind, iss_op_i,
                iss_wide_i, iss_sized_i, iss_access_i, iss_bytes_i, iss_count_i, iss_dfmt_i,
                iss_nfmt_i, iss_dst_sel_i, iss_d16_i, iss_offen_i, iss_idxen_i, iss_glc_i,
                iss_tfe_i, iss_offset_i, iss_vdata_i, iss_soffset_i, iss_rsrc_i[3:0],
                iss_rsrc_i[7:4], iss_image_i, iss_dmask_i, iss_da_i, iss_a16_i, iss_mip_i,
                iss_r128_i, iss_lds_i, iss_m0_i, iss_lds_base_i, iss_lds_size_i, iss_exec_i,
                iss_addr_i, iss_data_i};

  for (genvar c = 0; c < 4; c++) begin : g_l2
    assign l2_rsp[c] = {l2_rsp_valid_i[c], l2_rsp_tag_i[c], l2_rsp_data_i[16*c +: 16]};
    assign {l2_req_valid_o[c], l2_req_kind_o[c], l2_req_tag_o[c], l2_req_addr_o[c],
            l2_req_mask_o[c], l2_req_data_o[16*c +: 16], l2_req_op_o[c], l2_req_wide_o[c],
            l2_req_return_o[c]} = l2_req[c];
  end

  assign {vgpr_valid_o, vgpr_addr_o, vgpr_group_o, vgpr_mask_o, vgpr_data_o} = vgpr;
  assign {lds_valid_o, lds_mask_o, lds_addr_o, lds_data_o} = lds;
  assign {done_valid_o, done_issue_o, done_ta_o, done_tcp_o, done_l2_o, done_td_o, done_total_o,
          done_requests_o, done_hits_o, done_misses_o, done_merged_o, done_conflicts_o,
          done_mshr_wait_o} = done;

  logic                    inflight_full;
  pipe_take_t              take;
  pipe_res_t               res;
  logic                    bnd_valid;
  pipe_bundle_t            bnd;
  logic                    bnd_ready;
  pipe_step_end_t          step_end;
  pipe_acc_ev_t            acc;
  pipe_rr_t [3:0]          rr;
  logic [3:0]              rr_take;
  logic [PipeIdW-1:0]      done_id;
  pipe_ctr_t               ctr;
  logic [PipeMaxIds-1:0]   posted_zero;

  vmem_pipe_ta #(.InFlight(InFlight)) u_ta (
    .clk_i,
    .rst_ni,
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

  vmem_pipe_tcp #(.Cfg(Cfg)) u_tcp (
    .clk_i,
    .rst_ni,
    .now_i          (now_q),
    .quiet_i        (quiet_q),
    .take_i         (take.valid),
    .take_id_i      (take.id),
    .bnd_valid_i    (bnd_valid),
    .bnd_i          (bnd),
    .bnd_ready_o    (bnd_ready),
    .acc_o          (acc),
    .l2_req_ready_i,
    .l2_rsp_i       (l2_rsp),
    .l2_req_o       (l2_req),
    .rr_o           (rr),
    .rr_take_i      (rr_take),
    .done_id_i      (done_id),
    .ctr_o          (ctr),
    .posted_zero_o  (posted_zero)
  );

  vmem_pipe_td #(.InFlight(InFlight)) u_td (
    .clk_i,
    .rst_ni,
    .now_i           (now_q),
    .take_i          (take),
    .res_i           (res),
    .step_end_i      (step_end),
    .acc_i           (acc),
    .rr_i            (rr),
    .rr_take_o       (rr_take),
    .done_id_o       (done_id),
    .ctr_i           (ctr),
    .posted_zero_i   (posted_zero),
    .inflight_full_o (inflight_full),
    .vgpr_ready_i,
    .vgpr_o          (vgpr),
    .lds_ready_i,
    .lds_o           (lds),
    .done_o          (done)
  );

  ////////////////
  // Assertions //
  ////////////////

  // Environment (the testbench's SQ and L2): the issue port's properties are asserted in
  // vmem_pipe_ta (IssueBeats_A, IssueHeaderHeld_A, IssueIntoFull_A), the L2's responses in
  // vmem_pipe_tcp_bank (RspMshrBusy_A) and vmem_pipe_tcp (RspChannel_A, PostedAcks_A).
// Known values (4-state simulators only; see vmem_prim_pkg.sv).
`VMEM_ASSERT_KNOWN(ValidsKnown_A, {iss_ready_o, l2_req_valid_o, vgpr_valid_o, lds_valid_o,
                                   done_valid_o})

endmodule : vmem_pipe
