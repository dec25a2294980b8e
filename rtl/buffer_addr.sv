`ifndef VMEM_BUFFER_ADDR_SV  // included by the blocks that instantiate it (see rtl/vmem_pipe.sv)
`define VMEM_BUFFER_ADDR_SV
// Copyright gcn-vmem contributors.
//
// buffer_addr: per-lane MUBUF/MTBUF buffer address calculator with range check and LDS address.
//
// Parameters: none.
// Test hooks: nothing in the design (rtl/vmem_prim_pkg.sv `VMEM_TEST_HOOK).
//   `VMEM_TEST_HOOK(buffer_addr_brk): the break-asserts build puts rtl/test/buffer_addr_brk.svh
//   there, which makes each assertion below fail just past its bound (tests/buffer_addr.rs proves
//   each one fires).
//   `VMEM_TEST_HOOK(buffer_addr_mut): the mutant build (cosim/units.txt `mutant=`) puts
//   rtl/test/buffer_addr_mut.svh there, a deliberate bug (the swizzled address loses its
//   `index_lsb * E` term) by which the tests prove the harness catches a broken RTL.
//
// Behaviour (docs/spec.md §2, plus the project's decisions where the spec is silent):
//   index  = (idxen ? vgpr_index : 0) + (add_tid_en ? tid : 0)            32 bits, wraps
//   offset = (offen ? vgpr_offset : 0) + inst_offset                       32 bits, wraps
//   stride = {dfmt, stride} (18 bits) when add_tid_en and the access is non_format, atomic or
//            reserved; else the V#'s 14-bit stride.
//   address = (base + sgpr_offset + buffer_offset) mod 2^48, buffer_offset exact:
//     linear   index * stride + offset
//     swizzled (index_msb * stride + offset_msb * E) * S + index_lsb * E + offset_lsb
//              E = 2 << element_size, S = 8 << index_stride
//   and address[1:0] = 0 when bytes >= 4 (the literal count, legal or not).
//   in_range: one bit per dword of the access (max(1, ceil(bytes/4)) dwords, the rest 0), from
//     the §2.4 buffer kind: scratch (never out), structured with tid (index >= num_records),
//     structured (vgpr_index >= num_records, stride != 0), raw (last byte of the checked range
//     >= num_records, exact 34-bit sums; per dword for non-format dwordx2/x3/x4, one verdict
//     otherwise). All 0 when unbound or when bytes is not one of 1, 2, 4, 8, 12, 16.
//   unbound = dfmt == 0 and not (add_tid_en and the access is non_format/atomic/reserved).
//   illegal = reserved access, or bytes not in {1, 2, 4, 8, 12, 16}, or swizzle_en and any of
//     bytes > E, offset_lsb + bytes > E, stride mod E != 0. Other outputs still computed.
//   lds (lds_i = 1): lds_address = lds_base * 128 + m0[15:0] + inst_offset + tid * 4 (18 bits,
//     exact); lds_in_range = lds_address + 4 <= (lds_base + lds_size) * 128. lds_i = 0: both 0.
//   V# bits not named above (cache_swizzle, dst_sel, nfmt, nv, type, reserved) are ignored.
//
// Latency: 2 cycles. Inputs sampled with valid_i = 1 at rising edge j reach the outputs at edge
//   j+1, with valid_o. A new input is accepted every cycle. Stage 1 (edge j) registers decode,
//   index/offset, the stride product, range verdicts, flags and the LDS outputs; stage 2 (edge
//   j+1) registers the final 48-bit sum and alignment mask. Valid flops load every cycle; data
//   flops of a stage load only when that stage's incoming valid is 1, else hold. rst_ni
//   (asynchronous, active low) clears every valid and data flop, outputs included.
//
// Model: rust/buffer_addr.rs  Tests: tests/buffer_addr.rs  Spec: docs/spec.md §2

module buffer_addr
  import vmem_pkg::*;
(
  `VMEM_UNIT_CLOCKING,  // clk_i, rst_ni, valid_i
  input  logic [127:0] vsharp_i,        // V# per SPEC §1.1 (bit k = field bit k)
  input  logic [11:0]  inst_offset_i,
  input  logic         offen_i,
  input  logic         idxen_i,
  input  logic [1:0]   access_i,        // 0 format, 1 non_format, 2 atomic, 3 reserved
  input  logic [4:0]   bytes_i,         // access size as a plain count: legal values 1,2,4,8,12,16
  input  logic         lds_i,
  input  logic [31:0]  sgpr_offset_i,
  input  logic [31:0]  vgpr_index_i,
  input  logic [31:0]  vgpr_offset_i,
  input  logic [5:0]   tid_i,
  input  logic [31:0]  m0_i,            // only [15:0] used
  input  logic [8:0]   lds_base_i,
  input  logic [8:0]   lds_size_i,
  output logic         valid_o,
  output logic [47:0]  address_o,
  output logic [3:0]   in_range_o,
  output logic         unbound_o,
  output logic         illegal_o,
  output logic [17:0]  lds_address_o,
  output logic         lds_in_range_o
);

  // Widths local to this unit.
  localparam int unsigned LdsAddrW  = 18;  // lds_address (§2.5): 511*128 + 65535 + 4095 + 252
  localparam int unsigned SwzLowW   = 10;  // index_lsb * E + offset_lsb <= 63*16 + 15
  localparam int unsigned RangeW    = 34;  // exact raw range sums (§2.4)

  // The outputs final after stage 1, in port order (stage 2 passes them through).
  typedef struct packed {
    logic [3:0]          in_range;
    logic                unbound;
    logic                illegal;
    logic [LdsAddrW-1:0] lds_address;
    logic                lds_in_range;
  } flags_t;

  // Stage 1 register: everything stage 2 needs, and the already-final flags.
  typedef struct packed {
    logic [AddrW-1:0]    base;          // V# base
    logic [31:0]         sgpr_offset;
    logic [AddrW-1:0]    product;       // (swizzled ? index_msb : index) * stride, mod 2^48
    logic [31:0]         addend;        // swizzled ? offset_msb * E : offset
    logic [SwzLowW-1:0]  swz_low;       // swizzled ? index_lsb * E + offset_lsb : 0
    logic                swizzle_en;
    logic [1:0]          index_stride;  // log2(S) - 3
    logic                align_dword;   // bytes >= 4: force address[1:0] = 0
    flags_t              flags;
  } stage1_t;

  // Stage 2 (output) register: the outputs after valid_o, in port order.
  typedef struct packed {
    logic [AddrW-1:0]    address;
    flags_t              flags;
  } stage2_t;

  logic    valid_q;
  stage1_t s1_d, s1_q;
  stage2_t s2_d, s2_q2;

  ///////////////////////////////
  // Stage 1: V# decode (§1.1) //
  ///////////////////////////////

  logic [AddrW-1:0]          vs_base;
  logic [VsStrideW-1:0]      vs_stride;
  logic                      vs_swizzle_en;
  logic [VsNumRecordsW-1:0]  vs_num_records;
  logic [VsDfmtW-1:0]        vs_dfmt;
  logic [VsElementSizeW-1:0] vs_element_size;
  logic [VsIndexStrideW-1:0] vs_index_stride;
  logic                      vs_add_tid_en;

  assign vs_base         = vsharp_i[VsBaseLsb        +: VsBaseW];
  assign vs_stride       = vsharp_i[VsStrideLsb      +: VsStrideW];
  assign vs_swizzle_en   = vsharp_i[VsSwizzleEnBit];
  assign vs_num_records  = vsharp_i[VsNumRecordsLsb  +: VsNumRecordsW];
  assign vs_dfmt         = vsharp_i[VsDfmtLsb        +: VsDfmtW];
  assign vs_element_size = vsharp_i[VsElementSizeLsb +: VsElementSizeW];
  assign vs_index_stride = vsharp_i[VsIndexStrideLsb +: VsIndexStrideW];
  assign vs_add_tid_en   = vsharp_i[VsAddTidEnBit];

  // The V# fields this unit has no use for (§1.1: no effect on addressing or range), and m0's
  // upper half (§2.5 uses only m0[15:0]).
  logic unused_inputs;
  assign unused_inputs = ^{vsharp_i[VsCacheSwzBit],
                           vsharp_i[VsDstSelLsb +: VsDstSelW],
                           vsharp_i[VsNfmtLsb +: VsNfmtW],
                           vsharp_i[127:120],      // nv, type and reserved bits
                           m0_i[31:16]};

  ////////////////////////////////////////////////////////
  // Stage 1: access decode, index, offset, stride (§2) //
  ////////////////////////////////////////////////////////

  access_e               access;
  logic                  access_reserved;
  logic                  non_format_like;  // non_format or reserved (not atomic, not format)
  logic                  stride_ext;       // §2.2 18-bit stride; also the §1.1 exception
  logic [StrideExtW-1:0] stride;
  logic [31:0]           index;
  logic [31:0]           offset;
  logic [3:0]            dword_mask;       // dwords of the access; 0 for a reserved bytes count
  logic                  bytes_reserved;

  always_comb begin
    access          = access_e'(access_i);
    access_reserved = 1'b0;
    non_format_like = 1'b0;
    unique case (access)
      AccessFormat:    ;
      AccessNonFormat: non_format_like = 1'b1;
      AccessAtomic:    ;
      AccessReserved: begin
        access_reserved = 1'b1;
        non_format_like = 1'b1;
      end
      default: ;
    endcase

    stride_ext = vs_add_tid_en & (access != AccessFormat);
    stride     = stride_ext ? {vs_dfmt, vs_stride} : {{VsDfmtW{1'b0}}, vs_stride};

    index  = (idxen_i ? vgpr_index_i : 32'd0) + (vs_add_tid_en ? {26'd0, tid_i} : 32'd0);
    offset = (offen_i ? vgpr_offset_i : 32'd0) + {20'd0, inst_offset_i};

    bytes_reserved = 1'b0;
    dword_mask     = 4'b0000;
    unique case (bytes_i)
      5'd1, 5'd2, 5'd4: dword_mask = 4'b0001;
      5'd8:             dword_mask = 4'b0011;
      5'd12:            dword_mask = 4'b0111;
      5'd16:            dword_mask = 4'b1111;
      default:          bytes_reserved = 1'b1;
    endcase
  end

  ///////////////////////////////////
  // Stage 1: address terms (§2.3) //
  ///////////////////////////////////

  logic [3:0]         elem_mask;    // E - 1
  logic [4:0]         elem_bytes;   // E
  logic [5:0]         index_mask;   // S - 1
  logic [31:0]        index_msb;    // index / S
  logic [5:0]         index_lsb;    // index % S
  logic [3:0]         offset_lsb;   // offset % E
  logic [SwzLowW-1:0] index_lsb_e;  // index_lsb * E
  logic [31:0]        mul_index;
  logic [AddrW-1:0]   product;
  logic [31:0]        addend;
  logic [SwzLowW-1:0] swz_low;

  always_comb begin
    elem_mask = 4'h1;
    unique case (vs_element_size)
      2'd0:    elem_mask = 4'h1;
      2'd1:    elem_mask = 4'h3;
      2'd2:    elem_mask = 4'h7;
      2'd3:    elem_mask = 4'hf;
      default: elem_mask = 4'h1;
    endcase
    elem_bytes = {1'b0, elem_mask} + 5'd1;

    index_mask = 6'h07;
    unique case (vs_index_stride)
      2'd0:    index_mask = 6'h07;
      2'd1:    index_mask = 6'h0f;
      2'd2:    index_mask = 6'h1f;
      2'd3:    index_mask = 6'h3f;
      default: index_mask = 6'h07;
    endcase

    index_msb   = index >> ({1'b0, vs_index_stride} + 3'd3);
    index_lsb   = index[5:0] & index_mask;
    offset_lsb  = offset[3:0] & elem_mask;
    index_lsb_e = {{(SwzLowW-6){1'b0}}, index_lsb} << ({1'b0, vs_element_size} + 3'd1);

    if (vs_swizzle_en) begin
      mul_index = index_msb;
      addend    = offset & ~{28'd0, elem_mask};  // offset_msb * E
      swz_low   = index_lsb_e + {{(SwzLowW-4){1'b0}}, offset_lsb};
    end else begin
      mul_index = index;
      addend    = offset;
      swz_low   = '0;
    end
    `VMEM_TEST_HOOK(buffer_addr_mut)  // test builds only (see the contract above)

    // Exact product is at most 50 bits; only its value mod 2^48 reaches the address.
    product = {{(AddrW-32){1'b0}}, mul_index} * {{(AddrW-StrideExtW){1'b0}}, stride};
  end

  /////////////////////////////////////////////////
  // Stage 1: flags and range check (§2.3, §2.4) //
  /////////////////////////////////////////////////

  logic              unbound;
  logic              illegal;
  logic              swz_illegal;
  logic [5:0]        swz_end;       // offset_lsb + bytes
  logic [RangeW-1:0] offset_x;      // offset, exact width
  logic [RangeW-1:0] num_records_x; // num_records, exact width
  logic              raw_out_all;   // [offset, offset + bytes - 1] reaches num_records
  logic [3:0]        raw_out_dw;    // dword i: [offset + 4i, offset + 4i + 3] reaches it
  logic [3:0]        out_of_range;
  logic [3:0]        in_range;

  always_comb begin
    unbound = (vs_dfmt == DfmtInvalid) & ~stride_ext;

    swz_end     = {2'b0, offset_lsb} + {1'b0, bytes_i};
    swz_illegal = (bytes_i > elem_bytes) | (swz_end > {1'b0, elem_bytes}) |
                  (|(stride[3:0] & elem_mask));
    illegal     = access_reserved | bytes_reserved | (vs_swizzle_en & swz_illegal);

    // Raw checks: hi >= num_records, written as hi + 1 > num_records (bytes >= 1 when legal).
    offset_x      = {{(RangeW-32){1'b0}}, offset};
    num_records_x = {{(RangeW-32){1'b0}}, vs_num_records};
    raw_out_all   = (offset_x + {{(RangeW-5){1'b0}}, bytes_i}) > num_records_x;
    raw_out_dw[0] = (offset_x + RangeW'(4))  > num_records_x;
    raw_out_dw[1] = (offset_x + RangeW'(8))  > num_records_x;
    raw_out_dw[2] = (offset_x + RangeW'(12)) > num_records_x;
    raw_out_dw[3] = (offset_x + RangeW'(16)) > num_records_x;

    out_of_range = 4'b0000;
    if (vs_add_tid_en && !idxen_i) begin
      // Scratch: no check.
      out_of_range = 4'b0000;
    end else if (vs_add_tid_en && idxen_i) begin
      // Structured with tid: one verdict on the tid-inclusive index.
      out_of_range = {4{index >= vs_num_records}};
    end else if (idxen_i && (stride != '0)) begin
      // Structured: one verdict on the VGPR index alone.
      out_of_range = {4{vgpr_index_i >= vs_num_records}};
    end else if (non_format_like && (bytes_i > 5'd4)) begin
      // Raw, non-format dwordx2/x3/x4: per dword.
      out_of_range = raw_out_dw;
    end else begin
      // Raw, non-format of one dword or less, format, atomic: all or nothing.
      out_of_range = {4{raw_out_all}};
    end

    in_range = dword_mask & ~out_of_range & {4{~unbound}};
  end

  /////////////////////////////////
  // Stage 1: LDS address (§2.5) //
  /////////////////////////////////

  logic [LdsAddrW-1:0] lds_address;
  logic                lds_in_range;
  logic [LdsAddrW:0]   lds_end;  // (lds_base + lds_size) * 128, exact

  always_comb begin
    lds_address = {2'b0, lds_base_i, 7'd0} + {2'b0, m0_i[15:0]} + {6'd0, inst_offset_i} +
                  {10'd0, tid_i, 2'b00};
    lds_end     = {2'b0, {1'b0, lds_base_i} + {1'b0, lds_size_i}, 7'd0};
    lds_in_range = ({1'b0, lds_address} + 19'd4) <= lds_end;
    if (!lds_i) begin
      lds_address  = '0;
      lds_in_range = 1'b0;
    end
  end

  // Stage 1 register input (VMEM_STAGE_FF loads it when valid_i is 1).
  always_comb begin
    s1_d.base         = vs_base;
    s1_d.sgpr_offset  = sgpr_offset_i;
    s1_d.product      = product;
    s1_d.addend       = addend;
    s1_d.swz_low      = swz_low;
    s1_d.swizzle_en   = vs_swizzle_en;
    s1_d.index_stride = vs_index_stride;
    s1_d.align_dword  = bytes_i >= 5'd4;
    s1_d.flags.in_range     = in_range;
    s1_d.flags.unbound      = unbound;
    s1_d.flags.illegal      = illegal;
    s1_d.flags.lds_address  = lds_address;
    s1_d.flags.lds_in_range = lds_in_range;
  end

  /////////////////////////////////////////////
  // Stage 2: final sum and alignment (§2.3) //
  /////////////////////////////////////////////

  logic [AddrW-1:0] linear_sum;     // product + addend
  logic [AddrW-1:0] buffer_offset;  // mod 2^48
  logic [AddrW-1:0] address;

  always_comb begin
    linear_sum = s1_q.product + {{(AddrW-32){1'b0}}, s1_q.addend};
    if (s1_q.swizzle_en) begin
      buffer_offset = (linear_sum << ({1'b0, s1_q.index_stride} + 3'd3)) +
                      {{(AddrW-SwzLowW){1'b0}}, s1_q.swz_low};
    end else begin
      buffer_offset = linear_sum;
    end
    address = s1_q.base + {{(AddrW-32){1'b0}}, s1_q.sgpr_offset} + buffer_offset;
    if (s1_q.align_dword) begin
      address[1:0] = 2'b00;
    end

    s2_d.address = address;
    s2_d.flags   = s1_q.flags;
    `VMEM_TEST_HOOK(buffer_addr_brk)  // test builds only (see the contract above)
  end

  ///////////////
  // Registers //
  ///////////////

  `VMEM_UNIT_STAGES(valid_q, s1_q, s1_d, s2_q2, s2_d,
                    {address_o, in_range_o, unbound_o, illegal_o, lds_address_o, lds_in_range_o})

  ////////////////
  // Assertions //
  ////////////////

// Reset drives every output to a value these properties accept; they are disabled while rst_ni
// is low anyway (vmem_prim_pkg.sv).

// An unbound V# is never in range (§2.4).
`VMEM_ASSERT(UnboundNotInRange_A, unbound_o |-> (in_range_o == 4'b0000))
// in_range is a run of in-range dwords from dword 0: dword ranges grow with i.
`VMEM_ASSERT(InRangePrefix_A, in_range_o inside {4'b0000, 4'b0001, 4'b0011, 4'b0111, 4'b1111})
// lds_address never exceeds its 18-bit exact bound (§2.5).
`VMEM_ASSERT(LdsAddressBound_A, lds_address_o <= LdsAddrW'(511 * 128 + 65535 + 4095 + 63 * 4))

endmodule : buffer_addr

`endif  // VMEM_BUFFER_ADDR_SV
