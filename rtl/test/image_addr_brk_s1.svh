// TEST ONLY: image_addr's break-asserts corruption of the stage-1 register input. The text of
// `VMEM_TEST_HOOK(image_addr_brk_s1) at the end of rtl/image_addr.sv's stage-1 register-input
// always_comb, in the unit's break-asserts build alone (build.rs; never in the design:
// rtl/vmem_prim_pkg.sv); the stage-2 corruptions are rtl/test/image_addr_brk.svh. Each value lands
// just past the bound its assertion checks (tests/image_addr.rs proves each one fires):
//   a valid group of ops 0-3 reports height = y, the row just past the level -> GroupInColumn_A
//   a valid group of op 4 reports layers = slice, the layer just past it      -> GroupInLayers_A
//   a mip sum that is not 3D's, at a level >= 1, gets bit 31 (2^31 and up)    -> MipSumNarrow_A
//   a tiled 256B_S or 4KB_S block gets in_block (within) bit K (the block's size);
//   a linear surface at a level >= 1, in_block bit 0 (its block has no bytes)  -> WithinBlock_A
if (s1_d.lvl.group_valid && !op_i[2]) begin
  s1_d.lvl.height = y_i[DimW-1:0];
end else if (s1_d.lvl.group_valid) begin
  s1_d.lvl.layers = slice[LayersW-1:0];
end
if (!s1_d.is3d && (s1_d.lvl.level != '0)) begin
  s1_d.mip_sum[MipSum2dW] = 1'b1;
end
if (s1_d.scale == ScaleK8) begin
  s1_d.in_block[8] = 1'b1;
end else if (s1_d.scale == ScaleK12) begin
  s1_d.in_block[12] = 1'b1;
end else if (!tiled && (s1_d.lvl.level != '0)) begin
  s1_d.in_block[0] = 1'b1;
end
