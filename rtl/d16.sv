`ifndef VMEM_D16_SV  // included by the blocks that instantiate it (see rtl/vmem_pipe.sv)
`define VMEM_D16_SV
// Copyright gcn-vmem contributors.
//
// d16: 16-bit packing of D16 loads and stores (VGPR halves <-> components).
//
// Parameters: none.
// Test hook: `VMEM_TEST_HOOK(d16_brk), nothing in the design (rtl/vmem_prim_pkg.sv); the
//   break-asserts build puts rtl/test/d16_brk.svh there, which makes each assertion below fail just
//   past its bound (tests/d16.rs proves each one fires).
//
// Behaviour (docs/spec.md §6 and docs/decisions.md "d16"); k = min(count_i, 4) for the format ops;
// float-like nfmts are 0, 1, 2, 3, 7 and the reserved 6; integer ones are 4 (uint), 5 (sint):
//   op 0 LOAD_FORMAT   component i < k is data_i[32i+31:32i]; half i = f32 -> f16 (float-like,
//                      vmem_fp_pkg) or its low 16 bits (integer); result dword j = {half 2j+1,
//                      half 2j}, halves i >= k are 0 (an odd last half leaves 31:16 at 0);
//                      result_count = ceil(k/2).
//   op 1 LOAD_UBYTE    v = zext(data_i[7:0]);   result[31:0] = hi_i ? {v, old_i[15:0]}
//   op 2 LOAD_SBYTE    v = sext(data_i[7:0]);                       : {old_i[31:16], v};
//   op 3 LOAD_SHORT    v = data_i[15:0];        result_count = 1.
//   op 4 STORE_FORMAT  half i < k is data_i[16i+15:16i]; component i = f16 -> f32 (float-like,
//                      exact), zero- (uint) or sign-extended (sint); components i >= k are 0;
//                      result = the four components; result_count = 4.
//   op 5 STORE_BYTE    result[7:0]  = hi_i ? data_i[23:16] : data_i[7:0];  result_count = 1.
//   op 6 STORE_SHORT   result[15:0] = hi_i ? data_i[31:16] : data_i[15:0]; result_count = 1.
//   op 7 reserved      illegal_o; result 0, result_count 0.
//   Result bits not named above are 0. illegal_o is also raised by the format ops for count 0
//   (no halves: loads give result_count 0, stores four 0 components and result_count 4),
//   count > 4 (taken as 4) and nfmt 6 (converted as float-like). hi_i is ignored by the format
//   ops; nfmt_i and count_i by the byte/short ops.
//
// Latency: 2 cycles. Inputs sampled with valid_i = 1 at rising edge j reach the outputs at edge
//   j+1, with valid_o. A new input is accepted every cycle. Stage 1 (edge j) registers the
//   decode (op, conversion kind, result_count, illegal) and the operands, with the halves or
//   components at and beyond k already cleared; stage 2 (edge j+1) registers the converted and
//   packed result. Valid flops load every cycle; data flops of a stage load only when that
//   stage's incoming valid is 1, else hold. rst_ni (asynchronous, active low) clears every
//   valid and data flop, outputs included.
//
// Model: rust/d16.rs  Tests: tests/d16.rs  Spec: docs/spec.md §6

module d16
  import vmem_pkg::*;
  import vmem_fp_pkg::*;
(
  `VMEM_UNIT_CLOCKING,  // clk_i, rst_ni, valid_i
  input  logic [2:0]   op_i,            // see the table above
  input  logic         hi_i,            // byte/short ops: the high half / byte 2
  input  logic [2:0]   nfmt_i,          // format ops: numeric format, SPEC §1.4
  input  logic [2:0]   count_i,         // format ops: component / half count
  input  logic [127:0] data_i,          // dword i at 32i+31:32i
  input  logic [31:0]  old_i,           // byte/short loads: the VGPR's previous value
  output logic         valid_o,
  output logic [127:0] result_o,        // dword i at 32i+31:32i
  output logic [2:0]   result_count_o,
  output logic         illegal_o
);

  // How a format op converts a half / component.
  typedef enum logic [1:0] {
    ConvFloat = 2'd0,   // f16 <-> f32 (float-like nfmts, reserved 6 included)
    ConvUint  = 2'd1,   // low 16 bits / zero-extend
    ConvSint  = 2'd2    // low 16 bits / sign-extend
  } conv_e;

  // Stage 1 register.
  typedef struct packed {
    d16_op_e      op;
    logic         hi;
    conv_e        conv;
    logic [127:0] operand;       // data_i, halves / components at and beyond k cleared
    logic [31:0]  old;
    logic [2:0]   result_count;
    logic         illegal;
  } stage1_t;

  // Stage 2 (output) register: the outputs after valid_o, in port order.
  typedef struct packed {
    dwords_t dwords;    // result, result_count
    logic    illegal;
  } stage2_t;

  logic    valid_q;
  stage1_t s1_d, s1_q;
  stage2_t s2_d, s2_q2;

  ////////////////////////////////////////
  // Stage 1: decode, count, operands   //
  ////////////////////////////////////////

  d16_op_e      op;
  logic [2:0]   k;              // min(count, 4)
  logic         fmt_illegal;    // count 0, count > 4 or nfmt 6, on a format op
  conv_e        conv;
  logic [127:0] lane32_mask;    // components i < k of a format load
  logic [63:0]  lane16_mask;    // halves i < k of a format store
  logic [127:0] operand;
  logic [2:0]   result_count;
  logic         illegal;

  always_comb begin
    op          = d16_op_e'(op_i);
    k           = (count_i > 3'd4) ? 3'd4 : count_i;
    fmt_illegal = (count_i == 3'd0) || (count_i > 3'd4) || (nfmt_e'(nfmt_i) == NfmtReserved);

    unique case (nfmt_e'(nfmt_i))
      NfmtUint: conv = ConvUint;
      NfmtSint: conv = ConvSint;
      default:  conv = ConvFloat;   // unorm, snorm, uscaled, sscaled, float, reserved
    endcase

    lane32_mask = '0;
    lane16_mask = '0;
    for (int i = 0; i < 4; i++) begin
      if (3'(i) < k) begin
        lane32_mask[32*i +: 32] = '1;
        lane16_mask[16*i +: 16] = '1;
      end
    end

    operand      = '0;
    result_count = 3'd0;
    illegal      = 1'b0;
    unique case (op)
      D16LoadFormat: begin
        operand      = data_i & lane32_mask;
        result_count = (k + 3'd1) >> 1;
        illegal      = fmt_illegal;
      end
      D16StoreFormat: begin
        operand      = {64'd0, data_i[63:0] & lane16_mask};
        result_count = 3'd4;
        illegal      = fmt_illegal;
      end
      D16LoadUbyte, D16LoadSbyte, D16LoadShort, D16StoreByte, D16StoreShort: begin
        operand      = {96'd0, data_i[31:0]};
        result_count = 3'd1;
      end
      D16Reserved: illegal = 1'b1;
      default:     illegal = 1'b1;
    endcase

    s1_d = '{op: op, hi: hi_i, conv: conv, operand: operand, old: old_i,
             result_count: result_count, illegal: illegal};
  end

  //////////////////////////////////
  // Stage 2: convert and pack    //
  //////////////////////////////////

  logic [15:0]  half_v;         // the 16-bit value of a byte/short load
  logic [15:0]  load_half [4];  // LOAD_FORMAT: half i
  logic [31:0]  store_comp [4]; // STORE_FORMAT: component i
  logic [15:0]  store_half [4];
  logic [127:0] result;

  always_comb begin
    for (int i = 0; i < 4; i++) begin
      load_half[i]  = (s1_q.conv == ConvFloat) ? f32_to_f16(s1_q.operand[32*i +: 32])
                                               : s1_q.operand[32*i +: 16];
      store_half[i] = s1_q.operand[16*i +: 16];
      unique case (s1_q.conv)
        ConvUint: store_comp[i] = {16'd0, store_half[i]};
        ConvSint: store_comp[i] = {{16{store_half[i][15]}}, store_half[i]};
        default:  store_comp[i] = f16_to_f32(store_half[i]);
      endcase
    end

    unique case (s1_q.op)
      D16LoadUbyte: half_v = {8'd0, s1_q.operand[7:0]};
      D16LoadSbyte: half_v = {{8{s1_q.operand[7]}}, s1_q.operand[7:0]};
      default:      half_v = s1_q.operand[15:0];   // D16LoadShort (unused by the other ops)
    endcase

    result = '0;
    unique case (s1_q.op)
      D16LoadFormat: begin
        result[63:0] = {load_half[3], load_half[2], load_half[1], load_half[0]};
      end
      D16LoadUbyte, D16LoadSbyte, D16LoadShort: begin
        result[31:0] = s1_q.hi ? {half_v, s1_q.old[15:0]} : {s1_q.old[31:16], half_v};
      end
      D16StoreFormat: begin
        result = {store_comp[3], store_comp[2], store_comp[1], store_comp[0]};
      end
      D16StoreByte:  result[7:0]  = s1_q.hi ? s1_q.operand[23:16] : s1_q.operand[7:0];
      D16StoreShort: result[15:0] = s1_q.hi ? s1_q.operand[31:16] : s1_q.operand[15:0];
      D16Reserved:   result = '0;
      default:       result = '0;
    endcase

    s2_d.dwords.result = result;
    s2_d.dwords.count  = s1_q.result_count;
    s2_d.illegal       = s1_q.illegal;
    `VMEM_TEST_HOOK(d16_brk)  // test builds only (see the contract above)
  end

  ///////////////
  // Registers //
  ///////////////

  `VMEM_UNIT_STAGES(valid_q, s1_q, s1_d, s2_q2, s2_d, {result_o, result_count_o, illegal_o})

  ////////////////
  // Assertions //
  ////////////////

// Reset drives every output to a value these properties accept; they are disabled while rst_ni
// is low anyway (vmem_prim_pkg.sv).

// At most four result dwords.
`VMEM_ASSERT(CountBound_A, result_count_o <= 3'd4)
// Every dword at or beyond result_count is 0: one assertion per dword, so that each is proven to
// fire at its own edge (result_count = i).
`VMEM_ASSERT(ResultBeyondCount0_A, (result_count_o <= 3'd0) |-> (result_o[31:0] == '0))
`VMEM_ASSERT(ResultBeyondCount1_A, (result_count_o <= 3'd1) |-> (result_o[63:32] == '0))
`VMEM_ASSERT(ResultBeyondCount2_A, (result_count_o <= 3'd2) |-> (result_o[95:64] == '0))
`VMEM_ASSERT(ResultBeyondCount3_A, (result_count_o <= 3'd3) |-> (result_o[127:96] == '0))

endmodule : d16

`endif  // VMEM_D16_SV
