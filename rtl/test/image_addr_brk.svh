// TEST ONLY: image_addr's break-asserts corruption. The text of `VMEM_TEST_HOOK(image_addr_brk) at
// the end of rtl/image_addr.sv's stage-2 always_comb, in the unit's break-asserts build alone
// (build.rs; never in the design: rtl/vmem_prim_pkg.sv). It corrupts the stage-2 register inputs
// so that each assertion (the known-value ones aside) fails on some input (tests/image_addr.rs
// proves each one fires):
//   a missing level reports width 1                                  -> LevelMissingZero_A
//   a valid group reports illegal when y[1] is set                   -> GroupValidLegal_A
//   and xa = width, the first column past the row, when it is clear  -> GroupInRow_A
//   an existing level without a valid group reports height 0         -> LevelOkDims_A
//   an odd y without a valid group makes xa odd                      -> XaAligned_A
if (!s1_q.lvl.level_ok) begin
  s2_d.lvl.width = DimW'(1);
end else if (s1_q.lvl.group_valid && s1_q.y[1]) begin
  s2_d.illegal = 1'b1;
end else if (s1_q.lvl.group_valid) begin
  s2_d.lvl.xa = CoordW'(s1_q.lvl.width);
end else begin
  s2_d.lvl.height = '0;
end
// Not on a valid group, so that GroupInRow_A sees xa exactly at the row's end.
if (s1_q.y[0] && !s1_q.lvl.group_valid) begin
  s2_d.lvl.xa[0] = 1'b1;
end
