// TEST ONLY: image_addr's break-asserts corruption of the stage-2 register input. The text of
// `VMEM_TEST_HOOK(image_addr_brk) at the end of rtl/image_addr.sv's stage-2 always_comb, in the
// unit's break-asserts build alone (build.rs; never in the design: rtl/vmem_prim_pkg.sv); the
// stage-1 register input's corruptions are rtl/test/image_addr_brk_s1.svh. It corrupts the
// outputs so that each output assertion (the known-value ones aside) fails on some input
// (tests/image_addr.rs proves each one fires):
//   a missing level reports width 1                                     -> LevelMissingZero_A
//   a valid group reports illegal when its row index is odd             -> GroupValidLegal_A
//   and xa = width, the first column past the row, when it is even      -> GroupInRow_A
//   an existing level without a valid group reports height 0            -> LevelOkDims_A
if (!s1_q.lvl.level_ok) begin
  s2_d.lvl.width = DimW'(1);
end else if (s1_q.lvl.group_valid && s1_q.row[0]) begin
  s2_d.illegal = 1'b1;
end else if (s1_q.lvl.group_valid) begin
  s2_d.lvl.xa = CoordW'(s1_q.lvl.width);
end else begin
  s2_d.lvl.height = '0;
end
