`ifndef VMEM_SWIZZLE_SV  // included by the blocks that instantiate it (see rtl/vmem_pipe.sv)
`define VMEM_SWIZZLE_SV
// Copyright gcn-vmem contributors.
//
// swizzle: component selection of a load: expansion, dst_sel, out-of-range and unbound zeroing,
// DMASK compaction and the TFE status dword.
//
// Parameters: none.
// Test hook: `VMEM_TEST_HOOK(swizzle_brk), nothing in the design (rtl/vmem_prim_pkg.sv); the
//   break-asserts build puts rtl/test/swizzle_brk.svh there, which makes each assertion below fail
//   just past its bound (tests/swizzle.rs proves each one fires).
//
// Behaviour (docs/spec.md §3, plus the project's decisions where the spec is silent):
//   Component k (X, Y, Z, W = 0..3) is components_i[32k+31:32k] when k < count_i, else 0
//     (a count above 4 means all four are present).
//   Channel c (R, G, B, A = 0..3) takes dst_sel_i[3c+2:3c] (codes as docs/spec.md §1.1):
//     0 SEL_0, 2 and 3 (reserved) -> 0
//     1 SEL_1                     -> 0x00000001 when integer_i (uint/sint), else 0x3F800000
//     4..7 R, G, B, A             -> component (code - 4), or 0 when oor_i[code - 4] is set
//     unbound_i makes every channel 0, SEL_1 included.
//   dmask' = dmask_i, or 0001 when dmask_i = 0. The channels enabled in dmask' go, in R, G, B, A
//     order, to result dwords 0, 1, ... (dword i at result_o[32i+31:32i]); with tfe_i one status
//     dword, always 0, follows them. result_count_o = popcount(dmask') + tfe_i (1..5); the port
//     carries dwords 0..3 only, since a fifth dword can only be the all-zero status dword.
//     Result dwords at and above result_count_o are 0. Out-of-range and unbound inputs still
//     write their (zero) data dwords and count them.
//
// Latency: 2 cycles. Inputs sampled with valid_i = 1 at rising edge j reach the outputs at edge
//   j+1, with valid_o. A new input is accepted every cycle. Stage 1 (edge j) registers the four
//   selected channels, dmask' and tfe; stage 2 (edge j+1) registers the compacted result and its
//   count. Valid flops load every cycle; data flops of a stage load only when that stage's
//   incoming valid is 1, else hold. rst_ni (asynchronous, active low) clears every valid and data
//   flop, outputs included.
//
// Model: rust/swizzle.rs  Tests: tests/swizzle.rs  Spec: docs/spec.md §3

module swizzle
  import vmem_pkg::dwords_t;
(
  `VMEM_UNIT_CLOCKING,  // clk_i, rst_ni, valid_i
  input  logic [127:0] components_i,    // X, Y, Z, W at bits 32k+31:32k (from format_unpack)
  input  logic [2:0]   count_i,         // components present; above 4 = all four
  input  logic [11:0]  dst_sel_i,       // x at 2:0, y at 5:3, z at 8:6, w at 11:9 (SPEC §1.1)
  input  logic         integer_i,       // 1: uint/sint nfmt; 0: float-like
  input  logic [3:0]   dmask_i,         // bit c enables channel c; 0 acts as 0001
  input  logic [3:0]   oor_i,           // bit k: component k is out of range
  input  logic         unbound_i,
  input  logic         tfe_i,
  output logic         valid_o,
  output logic [127:0] result_o,        // dword i at bits 32i+31:32i
  output logic [2:0]   result_count_o   // data dwords + TFE status dword, 1..5
);

  // Widths and constants local to this unit.
  localparam int unsigned DstSelW    = 3;              // one dst_sel field (SPEC §1.1)
  localparam int unsigned CountW     = 3;              // result_count: up to 4 data + 1 status
  localparam logic [31:0] OneFloat   = 32'h3F80_0000;  // SEL_1, float-like nfmts (1.0f)
  localparam logic [31:0] OneInteger = 32'h0000_0001;  // SEL_1, uint/sint nfmts

  // dst_sel codes (SPEC §1.1).
  typedef enum logic [DstSelW-1:0] {
    DstSel0    = 3'd0,
    DstSel1    = 3'd1,
    DstSelRsv2 = 3'd2,  // reserved, reads as SEL_0
    DstSelRsv3 = 3'd3,  // reserved, reads as SEL_0
    DstSelR    = 3'd4,
    DstSelG    = 3'd5,
    DstSelB    = 3'd6,
    DstSelA    = 3'd7
  } dst_sel_e;

  // Stage 1 register: the four channels after dst_sel and zeroing, and what compaction needs.
  typedef struct packed {
    logic [127:0] channels;  // R, G, B, A at bits 32c+31:32c
    logic [3:0]   dmask;     // dmask' (never 0)
    logic         tfe;
  } stage1_t;

  logic    valid_q;
  stage1_t s1_d, s1_q;
  dwords_t s2_d, s2_q2;   // stage 2 (output) register: result, result_count

  ///////////////////////////////////////////////////
  // Stage 1: expansion and dst_sel (§3 steps 1-3) //
  ///////////////////////////////////////////////////

  logic [127:0] expanded;   // components absent from the format (k >= count) read as 0
  logic [31:0]  sel_one;    // the SEL_1 constant of this nfmt class
  logic [127:0] channels;
  logic [3:0]   dmask_eff;

  always_comb begin
    expanded = components_i;
    for (int unsigned k = 0; k < 4; k++) begin
      if (count_i <= CountW'(k)) begin
        expanded[32*k +: 32] = 32'd0;
      end
    end

    sel_one = integer_i ? OneInteger : OneFloat;

    channels = '0;
    for (int unsigned c = 0; c < 4; c++) begin
      unique case (dst_sel_e'(dst_sel_i[DstSelW*c +: DstSelW]))
        DstSel0, DstSelRsv2, DstSelRsv3: channels[32*c +: 32] = 32'd0;
        DstSel1: channels[32*c +: 32] = sel_one;
        DstSelR: channels[32*c +: 32] = oor_i[0] ? 32'd0 : expanded[ 0 +: 32];
        DstSelG: channels[32*c +: 32] = oor_i[1] ? 32'd0 : expanded[32 +: 32];
        DstSelB: channels[32*c +: 32] = oor_i[2] ? 32'd0 : expanded[64 +: 32];
        DstSelA: channels[32*c +: 32] = oor_i[3] ? 32'd0 : expanded[96 +: 32];
        default: channels[32*c +: 32] = 32'd0;
      endcase
    end

    // Unbound: every channel 0, SEL_1 included (§3 step 3, §1.1).
    if (unbound_i) begin
      channels = '0;
    end

    dmask_eff = (dmask_i == 4'b0000) ? 4'b0001 : dmask_i;
  end

  // Stage 1 register input (VMEM_STAGE_FF loads it when valid_i is 1).
  always_comb begin
    s1_d.channels = channels;
    s1_d.dmask    = dmask_eff;
    s1_d.tfe      = tfe_i;
  end

  //////////////////////////////////////////////////////
  // Stage 2: DMASK compaction and TFE (§3 steps 4-5) //
  //////////////////////////////////////////////////////

  logic [127:0]      result;
  logic [CountW-1:0] data_count;  // enabled channels written so far; finally popcount(dmask')

  always_comb begin
    result     = '0;
    data_count = '0;
    for (int unsigned c = 0; c < 4; c++) begin
      if (s1_q.dmask[c]) begin
        // data_count <= c <= 3 here, so its low two bits index the dword.
        result[32*data_count[1:0] +: 32] = s1_q.channels[32*c +: 32];
        data_count = data_count + CountW'(1);
      end
    end

    // The TFE status dword sits at index data_count and is always 0 (§3 step 5): `result` already
    // holds 0 there (or it is the unported fifth dword), so only the count changes.
    s2_d.result = result;
    s2_d.count  = data_count + CountW'(s1_q.tfe);
    `VMEM_TEST_HOOK(swizzle_brk)  // test builds only (see the contract above)
  end

  ///////////////
  // Registers //
  ///////////////

  `VMEM_UNIT_STAGES(valid_q, s1_q, s1_d, s2_q2, s2_d, {result_o, result_count_o})

  ////////////////
  // Assertions //
  ////////////////

// Reset drives every output to a value these properties accept; they are disabled while rst_ni
// is low anyway (vmem_prim_pkg.sv).

// At most four data dwords and one status dword (§3 "up to five result dwords").
`VMEM_ASSERT(CountBound_A, result_count_o <= CountW'(5))
// dmask' is never 0, so a valid result has at least one dword.
`VMEM_ASSERT(CountNonZero_A, valid_o |-> (result_count_o != '0))
// Result dwords at and above result_count are 0 (also after reset: count 0, result 0): one
// assertion per dword, so that each is proven to fire at its own edge (result_count = i).
`VMEM_ASSERT(ZeroAboveCount0_A, (result_count_o <= CountW'(0)) |-> (result_o[31:0] == 32'd0))
`VMEM_ASSERT(ZeroAboveCount1_A, (result_count_o <= CountW'(1)) |-> (result_o[63:32] == 32'd0))
`VMEM_ASSERT(ZeroAboveCount2_A, (result_count_o <= CountW'(2)) |-> (result_o[95:64] == 32'd0))
`VMEM_ASSERT(ZeroAboveCount3_A, (result_count_o <= CountW'(3)) |-> (result_o[127:96] == 32'd0))

endmodule : swizzle

`endif  // VMEM_SWIZZLE_SV
