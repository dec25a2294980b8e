`ifndef VMEM_FORMAT_UNPACK_SV  // included by the blocks that instantiate it (see rtl/vmem_pipe.sv)
`define VMEM_FORMAT_UNPACK_SV
// Copyright gcn-vmem contributors.
//
// format_unpack: element -> four 32-bit canonical components (format conversion for loads).
//
// Parameters: none.
// Test hook: `VMEM_TEST_HOOK(format_unpack_brk), nothing in the design (rtl/vmem_prim_pkg.sv); the
//   break-asserts build puts rtl/test/format_unpack_brk.svh there, which makes each assertion below
//   fail on some input (tests/format_unpack.rs proves each one fires).
//
// Behaviour (docs/spec.md §1.4, §5 "Unpack", and docs/decisions.md "format_unpack and format_pack"):
//   The element `data_i` (bit k = element bit k; bits above the element's size ignored) is split
//   into the fields of dfmt (§1.4), X first. Each field of w bits becomes component k at
//   components_o[32k+31:32k]:
//     w = 32    the raw bits, whatever the nfmt.
//     unorm     the f32 nearest (ties to even) to v / (2^w - 1), correctly rounded.
//     snorm     max(s / (2^(w-1) - 1), -1.0), correctly rounded.
//     uscaled   the unsigned integer as f32 (exact);  sscaled: the signed integer as f32.
//     uint      zero-extended;  sint: sign-extended.
//     float     f16 / f11 / f10 widened exactly (vmem_fp_pkg; NaN payloads kept, not quieted).
//   Components the format lacks are 0. count_o = the format's component count.
//   fmt_valid_o = format_valid(dfmt, nfmt) (§1.4); when 0: four 0 components and count_o = 0.
//
//   unorm and snorm are computed without a divider by vmem_fp_pkg's norm_to_f32 (the
//   repeated-bit-pattern method described there, shared with multi_texel), one per component.
//
// Latency: 2 cycles. Inputs sampled with valid_i = 1 at rising edge j reach the outputs at edge
//   j+1, with valid_o. A new input is accepted every cycle. Stage 1 (edge j) registers the
//   format decode and each component's exact part: raw, integer and float components final,
//   unorm/snorm ones as the f32 with a truncated mantissa plus a round-up bit; stage 2 (edge
//   j+1) registers the rounded components. Valid flops load every cycle; data flops of a stage
//   load only when that stage's incoming valid is 1, else hold. rst_ni (asynchronous, active
//   low) clears every valid and data flop, outputs included.
//
// Model: rust/format_unpack.rs  Tests: tests/format_unpack.rs  Spec: docs/spec.md §1.4, §5

module format_unpack
  import vmem_fp_pkg::*;
(
  `VMEM_UNIT_CLOCKING,  // clk_i, rst_ni, valid_i
  input  logic [3:0]   dfmt_i,          // data format, SPEC §1.4
  input  logic [2:0]   nfmt_i,          // numeric format, SPEC §1.4
  input  logic [127:0] data_i,          // the element, bit k = element bit k
  output logic         valid_o,
  output logic [127:0] components_o,    // component k (X, Y, Z, W) at 32k+31:32k
  output logic [2:0]   count_o,
  output logic         fmt_valid_o
);

  // Stage 1 register.
  typedef struct packed {
    f32_pre_t [3:0] comp;
    logic [2:0]     count;
    logic           fmt_valid;
  } stage1_t;

  // Stage 2 (output) register: the outputs after valid_o, in port order.
  typedef struct packed {
    logic [127:0] components;
    logic [2:0]   count;
    logic         fmt_valid;
  } stage2_t;

  logic    valid_q;
  stage1_t s1_d, s1_q;
  stage2_t s2_d, s2_q2;

  /////////////////////////////////////////////////
  // Stage 1: decode, extract, exact conversion  //
  /////////////////////////////////////////////////

  fields_t        fields;
  logic           valid_fmt;
  logic [31:0]    field_mask [4];
  logic [31:0]    field_bits [4];
  f32_pre_t [3:0] comp;

  always_comb begin
    fields    = fmt_fields(dfmt_i);
    valid_fmt = fmt_valid(dfmt_i, nfmt_i);
    for (int k = 0; k < 4; k++) begin
      field_mask[k] = 32'((33'd1 << fields[k].width) - 33'd1);
      field_bits[k] = 32'(data_i >> fields[k].lsb) & field_mask[k];
      comp[k]       = valid_fmt ? unpack_component(field_bits[k], fields[k].width, nfmt_e'(nfmt_i))
                                : '0;
    end

    s1_d.comp      = comp;
    s1_d.count     = valid_fmt ? fmt_count(dfmt_i) : 3'd0;
    s1_d.fmt_valid = valid_fmt;
  end

  ///////////////////////
  // Stage 2: rounding //
  ///////////////////////

  logic [127:0] components;

  always_comb begin
    for (int k = 0; k < 4; k++) begin
      components[32*k +: 32] = f32_round(s1_q.comp[k]);
    end

    s2_d.components = components;
    s2_d.count      = s1_q.count;
    s2_d.fmt_valid  = s1_q.fmt_valid;
    `VMEM_TEST_HOOK(format_unpack_brk)  // test builds only (see the contract above)
  end

  ///////////////
  // Registers //
  ///////////////

  `VMEM_UNIT_STAGES(valid_q, s1_q, s1_d, s2_q2, s2_d, {components_o, count_o, fmt_valid_o})

  ////////////////
  // Assertions //
  ////////////////

// Reset drives every output to a value these properties accept; they are disabled while rst_ni
// is low anyway (vmem_prim_pkg.sv).

// At most four components (SPEC §1.4).
`VMEM_ASSERT(CountBound_A, count_o <= 3'd4)
// An invalid pair gives count 0 and four 0 components; a valid one has 1..4 components.
`VMEM_ASSERT(InvalidZero_A, !fmt_valid_o |-> (count_o == 3'd0) && (components_o == '0))
`VMEM_ASSERT(ValidCount_A, (valid_o && fmt_valid_o) |-> (count_o != 3'd0))

endmodule : format_unpack

`endif  // VMEM_FORMAT_UNPACK_SV
