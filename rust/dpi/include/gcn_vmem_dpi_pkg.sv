// gcn_vmem_dpi_pkg: the DPI-C imports of the gcn-vmem models (rust/dpi) and their port structs.
//
// GENERATED from the unit table of rust/dpi/lib.rs by its tests; do not edit. Regenerate with
//   GCN_VMEM_DPI_BLESS=1 cargo test --release --manifest-path rust/dpi/Cargo.toml --target-dir target/dpi
// Documentation: docs/integrations/dpi.md
//
// Per unit U: U_in_t and U_out_t, packed structs of its ports named like the RTL ports, the first
// port (valid) at bit 0 (so the struct lists them in reverse); and the imports gcn_vmem_U_new,
// _free, _reset (drives rst_ni: asserted != 0 is low) and _step (one rising edge), which return
// 0 or a negative code (gcn_vmem_dpi_strerror). Link the library libgcn_vmem_dpi.

package gcn_vmem_dpi_pkg;

  import "DPI-C" function int gcn_vmem_dpi_abi_version();
  import "DPI-C" function string gcn_vmem_dpi_strerror(input int code);

  // buffer_addr: latency 2; inputs 303 bits, outputs 74 bits.
  typedef struct packed {
    bit [8:0] lds_size_i;
    bit [8:0] lds_base_i;
    bit [31:0] m0_i;
    bit [5:0] tid_i;
    bit [31:0] vgpr_offset_i;
    bit [31:0] vgpr_index_i;
    bit [31:0] sgpr_offset_i;
    bit lds_i;
    bit [4:0] bytes_i;
    bit [1:0] access_i;
    bit idxen_i;
    bit offen_i;
    bit [11:0] inst_offset_i;
    bit [127:0] vsharp_i;
    bit valid_i;
  } buffer_addr_in_t;
  typedef struct packed {
    bit lds_in_range_o;
    bit [17:0] lds_address_o;
    bit illegal_o;
    bit unbound_o;
    bit [3:0] in_range_o;
    bit [47:0] address_o;
    bit valid_o;
  } buffer_addr_out_t;
  import "DPI-C" function chandle gcn_vmem_buffer_addr_new();
  import "DPI-C" function void gcn_vmem_buffer_addr_free(input chandle handle);
  import "DPI-C" function int gcn_vmem_buffer_addr_reset(input chandle handle, input int asserted, output buffer_addr_out_t outputs);
  import "DPI-C" function int gcn_vmem_buffer_addr_step(input chandle handle, input buffer_addr_in_t inputs, output buffer_addr_out_t outputs);

  // swizzle: latency 2; inputs 155 bits, outputs 132 bits.
  typedef struct packed {
    bit tfe_i;
    bit unbound_i;
    bit [3:0] oor_i;
    bit [3:0] dmask_i;
    bit integer_i;
    bit [11:0] dst_sel_i;
    bit [2:0] count_i;
    bit [127:0] components_i;
    bit valid_i;
  } swizzle_in_t;
  typedef struct packed {
    bit [2:0] result_count_o;
    bit [127:0] result_o;
    bit valid_o;
  } swizzle_out_t;
  import "DPI-C" function chandle gcn_vmem_swizzle_new();
  import "DPI-C" function void gcn_vmem_swizzle_free(input chandle handle);
  import "DPI-C" function int gcn_vmem_swizzle_reset(input chandle handle, input int asserted, output swizzle_out_t outputs);
  import "DPI-C" function int gcn_vmem_swizzle_step(input chandle handle, input swizzle_in_t inputs, output swizzle_out_t outputs);

  // format_unpack: latency 2; inputs 136 bits, outputs 133 bits.
  typedef struct packed {
    bit [127:0] data_i;
    bit [2:0] nfmt_i;
    bit [3:0] dfmt_i;
    bit valid_i;
  } format_unpack_in_t;
  typedef struct packed {
    bit fmt_valid_o;
    bit [2:0] count_o;
    bit [127:0] components_o;
    bit valid_o;
  } format_unpack_out_t;
  import "DPI-C" function chandle gcn_vmem_format_unpack_new();
  import "DPI-C" function void gcn_vmem_format_unpack_free(input chandle handle);
  import "DPI-C" function int gcn_vmem_format_unpack_reset(input chandle handle, input int asserted, output format_unpack_out_t outputs);
  import "DPI-C" function int gcn_vmem_format_unpack_step(input chandle handle, input format_unpack_in_t inputs, output format_unpack_out_t outputs);

  // format_pack: latency 2; inputs 136 bits, outputs 130 bits.
  typedef struct packed {
    bit [127:0] components_i;
    bit [2:0] nfmt_i;
    bit [3:0] dfmt_i;
    bit valid_i;
  } format_pack_in_t;
  typedef struct packed {
    bit fmt_valid_o;
    bit [127:0] data_o;
    bit valid_o;
  } format_pack_out_t;
  import "DPI-C" function chandle gcn_vmem_format_pack_new();
  import "DPI-C" function void gcn_vmem_format_pack_free(input chandle handle);
  import "DPI-C" function int gcn_vmem_format_pack_reset(input chandle handle, input int asserted, output format_pack_out_t outputs);
  import "DPI-C" function int gcn_vmem_format_pack_step(input chandle handle, input format_pack_in_t inputs, output format_pack_out_t outputs);

  // d16: latency 2; inputs 171 bits, outputs 133 bits.
  typedef struct packed {
    bit [31:0] old_i;
    bit [127:0] data_i;
    bit [2:0] count_i;
    bit [2:0] nfmt_i;
    bit hi_i;
    bit [2:0] op_i;
    bit valid_i;
  } d16_in_t;
  typedef struct packed {
    bit illegal_o;
    bit [2:0] result_count_o;
    bit [127:0] result_o;
    bit valid_o;
  } d16_out_t;
  import "DPI-C" function chandle gcn_vmem_d16_new();
  import "DPI-C" function void gcn_vmem_d16_free(input chandle handle);
  import "DPI-C" function int gcn_vmem_d16_reset(input chandle handle, input int asserted, output d16_out_t outputs);
  import "DPI-C" function int gcn_vmem_d16_step(input chandle handle, input d16_in_t inputs, output d16_out_t outputs);

  // image_addr: latency 2; inputs 364 bits, outputs 135 bits.
  typedef struct packed {
    bit [31:0] mipid_i;
    bit [31:0] y_i;
    bit [31:0] x_i;
    bit da_i;
    bit tfe_i;
    bit d16_i;
    bit [3:0] dmask_i;
    bit mip_i;
    bit [1:0] op_i;
    bit r128_i;
    bit [127:0] tsharp_hi_i;
    bit [127:0] tsharp_lo_i;
    bit valid_i;
  } image_addr_in_t;
  typedef struct packed {
    bit illegal_o;
    bit [47:0] address_o;
    bit group_valid_o;
    bit [31:0] xa_o;
    bit [16:0] pitch_o;
    bit [14:0] height_o;
    bit [14:0] width_o;
    bit [3:0] level_o;
    bit level_ok_o;
    bit valid_o;
  } image_addr_out_t;
  import "DPI-C" function chandle gcn_vmem_image_addr_new();
  import "DPI-C" function void gcn_vmem_image_addr_free(input chandle handle);
  import "DPI-C" function int gcn_vmem_image_addr_reset(input chandle handle, input int asserted, output image_addr_out_t outputs);
  import "DPI-C" function int gcn_vmem_image_addr_step(input chandle handle, input image_addr_in_t inputs, output image_addr_out_t outputs);

  // multi_texel: latency 2; inputs 82 bits, outputs 133 bits.
  typedef struct packed {
    bit [63:0] texels_i;
    bit group_valid_i;
    bit [3:0] nfmt_i;
    bit [5:0] dfmt_i;
    bit [3:0] dmask_i;
    bit [1:0] op_i;
    bit valid_i;
  } multi_texel_in_t;
  typedef struct packed {
    bit illegal_o;
    bit [2:0] result_count_o;
    bit [127:0] result_o;
    bit valid_o;
  } multi_texel_out_t;
  import "DPI-C" function chandle gcn_vmem_multi_texel_new();
  import "DPI-C" function void gcn_vmem_multi_texel_free(input chandle handle);
  import "DPI-C" function int gcn_vmem_multi_texel_reset(input chandle handle, input int asserted, output multi_texel_out_t outputs);
  import "DPI-C" function int gcn_vmem_multi_texel_step(input chandle handle, input multi_texel_in_t inputs, output multi_texel_out_t outputs);

  // coalescer: latency 2; inputs 3142 bits, outputs 132 bits.
  typedef struct packed {
    bit single_i;
    bit [3:0] size_i;
    bit [63:0] active_i;
    bit [47:0] addr63_i;
    bit [47:0] addr62_i;
    bit [47:0] addr61_i;
    bit [47:0] addr60_i;
    bit [47:0] addr59_i;
    bit [47:0] addr58_i;
    bit [47:0] addr57_i;
    bit [47:0] addr56_i;
    bit [47:0] addr55_i;
    bit [47:0] addr54_i;
    bit [47:0] addr53_i;
    bit [47:0] addr52_i;
    bit [47:0] addr51_i;
    bit [47:0] addr50_i;
    bit [47:0] addr49_i;
    bit [47:0] addr48_i;
    bit [47:0] addr47_i;
    bit [47:0] addr46_i;
    bit [47:0] addr45_i;
    bit [47:0] addr44_i;
    bit [47:0] addr43_i;
    bit [47:0] addr42_i;
    bit [47:0] addr41_i;
    bit [47:0] addr40_i;
    bit [47:0] addr39_i;
    bit [47:0] addr38_i;
    bit [47:0] addr37_i;
    bit [47:0] addr36_i;
    bit [47:0] addr35_i;
    bit [47:0] addr34_i;
    bit [47:0] addr33_i;
    bit [47:0] addr32_i;
    bit [47:0] addr31_i;
    bit [47:0] addr30_i;
    bit [47:0] addr29_i;
    bit [47:0] addr28_i;
    bit [47:0] addr27_i;
    bit [47:0] addr26_i;
    bit [47:0] addr25_i;
    bit [47:0] addr24_i;
    bit [47:0] addr23_i;
    bit [47:0] addr22_i;
    bit [47:0] addr21_i;
    bit [47:0] addr20_i;
    bit [47:0] addr19_i;
    bit [47:0] addr18_i;
    bit [47:0] addr17_i;
    bit [47:0] addr16_i;
    bit [47:0] addr15_i;
    bit [47:0] addr14_i;
    bit [47:0] addr13_i;
    bit [47:0] addr12_i;
    bit [47:0] addr11_i;
    bit [47:0] addr10_i;
    bit [47:0] addr9_i;
    bit [47:0] addr8_i;
    bit [47:0] addr7_i;
    bit [47:0] addr6_i;
    bit [47:0] addr5_i;
    bit [47:0] addr4_i;
    bit [47:0] addr3_i;
    bit [47:0] addr2_i;
    bit [47:0] addr1_i;
    bit [47:0] addr0_i;
    bit valid_i;
  } coalescer_in_t;
  typedef struct packed {
    bit [4:0] cycles_o;
    bit last_o;
    bit [63:0] lanes_o;
    bit [15:0] bytes_o;
    bit [43:0] addr_o;
    bit ready_o;
    bit valid_o;
  } coalescer_out_t;
  import "DPI-C" function chandle gcn_vmem_coalescer_new();
  import "DPI-C" function void gcn_vmem_coalescer_free(input chandle handle);
  import "DPI-C" function int gcn_vmem_coalescer_reset(input chandle handle, input int asserted, output coalescer_out_t outputs);
  import "DPI-C" function int gcn_vmem_coalescer_step(input chandle handle, input coalescer_in_t inputs, output coalescer_out_t outputs);

  // inline_const: latency 2; inputs 8 bits, outputs 33 bits.
  typedef struct packed {
    bit [6:0] code_i;
    bit valid_i;
  } inline_const_in_t;
  typedef struct packed {
    bit [31:0] bits_o;
    bit valid_o;
  } inline_const_out_t;
  import "DPI-C" function chandle gcn_vmem_inline_const_new();
  import "DPI-C" function void gcn_vmem_inline_const_free(input chandle handle);
  import "DPI-C" function int gcn_vmem_inline_const_reset(input chandle handle, input int asserted, output inline_const_out_t outputs);
  import "DPI-C" function int gcn_vmem_inline_const_step(input chandle handle, input inline_const_in_t inputs, output inline_const_out_t outputs);

  // vmem_pipe: latency 1; inputs 3383 bits, outputs 3249 bits.
  typedef struct packed {
    bit vgpr_ready_i;
    bit [31:0] l2_rsp_data63_i;
    bit [31:0] l2_rsp_data62_i;
    bit [31:0] l2_rsp_data61_i;
    bit [31:0] l2_rsp_data60_i;
    bit [31:0] l2_rsp_data59_i;
    bit [31:0] l2_rsp_data58_i;
    bit [31:0] l2_rsp_data57_i;
    bit [31:0] l2_rsp_data56_i;
    bit [31:0] l2_rsp_data55_i;
    bit [31:0] l2_rsp_data54_i;
    bit [31:0] l2_rsp_data53_i;
    bit [31:0] l2_rsp_data52_i;
    bit [31:0] l2_rsp_data51_i;
    bit [31:0] l2_rsp_data50_i;
    bit [31:0] l2_rsp_data49_i;
    bit [31:0] l2_rsp_data48_i;
    bit [31:0] l2_rsp_data47_i;
    bit [31:0] l2_rsp_data46_i;
    bit [31:0] l2_rsp_data45_i;
    bit [31:0] l2_rsp_data44_i;
    bit [31:0] l2_rsp_data43_i;
    bit [31:0] l2_rsp_data42_i;
    bit [31:0] l2_rsp_data41_i;
    bit [31:0] l2_rsp_data40_i;
    bit [31:0] l2_rsp_data39_i;
    bit [31:0] l2_rsp_data38_i;
    bit [31:0] l2_rsp_data37_i;
    bit [31:0] l2_rsp_data36_i;
    bit [31:0] l2_rsp_data35_i;
    bit [31:0] l2_rsp_data34_i;
    bit [31:0] l2_rsp_data33_i;
    bit [31:0] l2_rsp_data32_i;
    bit [31:0] l2_rsp_data31_i;
    bit [31:0] l2_rsp_data30_i;
    bit [31:0] l2_rsp_data29_i;
    bit [31:0] l2_rsp_data28_i;
    bit [31:0] l2_rsp_data27_i;
    bit [31:0] l2_rsp_data26_i;
    bit [31:0] l2_rsp_data25_i;
    bit [31:0] l2_rsp_data24_i;
    bit [31:0] l2_rsp_data23_i;
    bit [31:0] l2_rsp_data22_i;
    bit [31:0] l2_rsp_data21_i;
    bit [31:0] l2_rsp_data20_i;
    bit [31:0] l2_rsp_data19_i;
    bit [31:0] l2_rsp_data18_i;
    bit [31:0] l2_rsp_data17_i;
    bit [31:0] l2_rsp_data16_i;
    bit [31:0] l2_rsp_data15_i;
    bit [31:0] l2_rsp_data14_i;
    bit [31:0] l2_rsp_data13_i;
    bit [31:0] l2_rsp_data12_i;
    bit [31:0] l2_rsp_data11_i;
    bit [31:0] l2_rsp_data10_i;
    bit [31:0] l2_rsp_data9_i;
    bit [31:0] l2_rsp_data8_i;
    bit [31:0] l2_rsp_data7_i;
    bit [31:0] l2_rsp_data6_i;
    bit [31:0] l2_rsp_data5_i;
    bit [31:0] l2_rsp_data4_i;
    bit [31:0] l2_rsp_data3_i;
    bit [31:0] l2_rsp_data2_i;
    bit [31:0] l2_rsp_data1_i;
    bit [31:0] l2_rsp_data0_i;
    bit [11:0] l2_rsp_tag_i;
    bit [3:0] l2_rsp_valid_i;
    bit [3:0] l2_req_ready_i;
    bit [31:0] iss_data15_i;
    bit [31:0] iss_data14_i;
    bit [31:0] iss_data13_i;
    bit [31:0] iss_data12_i;
    bit [31:0] iss_data11_i;
    bit [31:0] iss_data10_i;
    bit [31:0] iss_data9_i;
    bit [31:0] iss_data8_i;
    bit [31:0] iss_data7_i;
    bit [31:0] iss_data6_i;
    bit [31:0] iss_data5_i;
    bit [31:0] iss_data4_i;
    bit [31:0] iss_data3_i;
    bit [31:0] iss_data2_i;
    bit [31:0] iss_data1_i;
    bit [31:0] iss_data0_i;
    bit [31:0] iss_addr15_i;
    bit [31:0] iss_addr14_i;
    bit [31:0] iss_addr13_i;
    bit [31:0] iss_addr12_i;
    bit [31:0] iss_addr11_i;
    bit [31:0] iss_addr10_i;
    bit [31:0] iss_addr9_i;
    bit [31:0] iss_addr8_i;
    bit [31:0] iss_addr7_i;
    bit [31:0] iss_addr6_i;
    bit [31:0] iss_addr5_i;
    bit [31:0] iss_addr4_i;
    bit [31:0] iss_addr3_i;
    bit [31:0] iss_addr2_i;
    bit [31:0] iss_addr1_i;
    bit [31:0] iss_addr0_i;
    bit [63:0] iss_exec_i;
    bit [127:0] iss_vsharp_i;
    bit [31:0] iss_soffset_i;
    bit [7:0] iss_vdata_i;
    bit [11:0] iss_offset_i;
    bit iss_tfe_i;
    bit iss_glc_i;
    bit iss_idxen_i;
    bit iss_offen_i;
    bit [1:0] iss_d16_i;
    bit [11:0] iss_dst_sel_i;
    bit [2:0] iss_nfmt_i;
    bit [3:0] iss_dfmt_i;
    bit [2:0] iss_count_i;
    bit [4:0] iss_bytes_i;
    bit [1:0] iss_access_i;
    bit iss_sized_i;
    bit iss_wide_i;
    bit [4:0] iss_op_i;
    bit [1:0] iss_kind_i;
    bit iss_last_i;
    bit iss_valid_i;
  } vmem_pipe_in_t;
  typedef struct packed {
    bit [15:0] done_conflicts_o;
    bit [15:0] done_misses_o;
    bit [15:0] done_hits_o;
    bit [15:0] done_requests_o;
    bit [15:0] done_total_o;
    bit [15:0] done_td_o;
    bit [15:0] done_l2_o;
    bit [15:0] done_tcp_o;
    bit [15:0] done_ta_o;
    bit [15:0] done_issue_o;
    bit done_valid_o;
    bit [31:0] vgpr_data15_o;
    bit [31:0] vgpr_data14_o;
    bit [31:0] vgpr_data13_o;
    bit [31:0] vgpr_data12_o;
    bit [31:0] vgpr_data11_o;
    bit [31:0] vgpr_data10_o;
    bit [31:0] vgpr_data9_o;
    bit [31:0] vgpr_data8_o;
    bit [31:0] vgpr_data7_o;
    bit [31:0] vgpr_data6_o;
    bit [31:0] vgpr_data5_o;
    bit [31:0] vgpr_data4_o;
    bit [31:0] vgpr_data3_o;
    bit [31:0] vgpr_data2_o;
    bit [31:0] vgpr_data1_o;
    bit [31:0] vgpr_data0_o;
    bit [15:0] vgpr_mask_o;
    bit [1:0] vgpr_group_o;
    bit [7:0] vgpr_addr_o;
    bit vgpr_valid_o;
    bit [3:0] l2_req_return_o;
    bit [3:0] l2_req_wide_o;
    bit [19:0] l2_req_op_o;
    bit [31:0] l2_req_data63_o;
    bit [31:0] l2_req_data62_o;
    bit [31:0] l2_req_data61_o;
    bit [31:0] l2_req_data60_o;
    bit [31:0] l2_req_data59_o;
    bit [31:0] l2_req_data58_o;
    bit [31:0] l2_req_data57_o;
    bit [31:0] l2_req_data56_o;
    bit [31:0] l2_req_data55_o;
    bit [31:0] l2_req_data54_o;
    bit [31:0] l2_req_data53_o;
    bit [31:0] l2_req_data52_o;
    bit [31:0] l2_req_data51_o;
    bit [31:0] l2_req_data50_o;
    bit [31:0] l2_req_data49_o;
    bit [31:0] l2_req_data48_o;
    bit [31:0] l2_req_data47_o;
    bit [31:0] l2_req_data46_o;
    bit [31:0] l2_req_data45_o;
    bit [31:0] l2_req_data44_o;
    bit [31:0] l2_req_data43_o;
    bit [31:0] l2_req_data42_o;
    bit [31:0] l2_req_data41_o;
    bit [31:0] l2_req_data40_o;
    bit [31:0] l2_req_data39_o;
    bit [31:0] l2_req_data38_o;
    bit [31:0] l2_req_data37_o;
    bit [31:0] l2_req_data36_o;
    bit [31:0] l2_req_data35_o;
    bit [31:0] l2_req_data34_o;
    bit [31:0] l2_req_data33_o;
    bit [31:0] l2_req_data32_o;
    bit [31:0] l2_req_data31_o;
    bit [31:0] l2_req_data30_o;
    bit [31:0] l2_req_data29_o;
    bit [31:0] l2_req_data28_o;
    bit [31:0] l2_req_data27_o;
    bit [31:0] l2_req_data26_o;
    bit [31:0] l2_req_data25_o;
    bit [31:0] l2_req_data24_o;
    bit [31:0] l2_req_data23_o;
    bit [31:0] l2_req_data22_o;
    bit [31:0] l2_req_data21_o;
    bit [31:0] l2_req_data20_o;
    bit [31:0] l2_req_data19_o;
    bit [31:0] l2_req_data18_o;
    bit [31:0] l2_req_data17_o;
    bit [31:0] l2_req_data16_o;
    bit [31:0] l2_req_data15_o;
    bit [31:0] l2_req_data14_o;
    bit [31:0] l2_req_data13_o;
    bit [31:0] l2_req_data12_o;
    bit [31:0] l2_req_data11_o;
    bit [31:0] l2_req_data10_o;
    bit [31:0] l2_req_data9_o;
    bit [31:0] l2_req_data8_o;
    bit [31:0] l2_req_data7_o;
    bit [31:0] l2_req_data6_o;
    bit [31:0] l2_req_data5_o;
    bit [31:0] l2_req_data4_o;
    bit [31:0] l2_req_data3_o;
    bit [31:0] l2_req_data2_o;
    bit [31:0] l2_req_data1_o;
    bit [31:0] l2_req_data0_o;
    bit [63:0] l2_req_mask3_o;
    bit [63:0] l2_req_mask2_o;
    bit [63:0] l2_req_mask1_o;
    bit [63:0] l2_req_mask0_o;
    bit [47:0] l2_req_addr3_o;
    bit [47:0] l2_req_addr2_o;
    bit [47:0] l2_req_addr1_o;
    bit [47:0] l2_req_addr0_o;
    bit [11:0] l2_req_tag_o;
    bit [7:0] l2_req_kind_o;
    bit [3:0] l2_req_valid_o;
    bit iss_ready_o;
  } vmem_pipe_out_t;
  import "DPI-C" function chandle gcn_vmem_vmem_pipe_new();
  import "DPI-C" function void gcn_vmem_vmem_pipe_free(input chandle handle);
  import "DPI-C" function int gcn_vmem_vmem_pipe_reset(input chandle handle, input int asserted, output vmem_pipe_out_t outputs);
  import "DPI-C" function int gcn_vmem_vmem_pipe_step(input chandle handle, input vmem_pipe_in_t inputs, output vmem_pipe_out_t outputs);

endpackage : gcn_vmem_dpi_pkg
