// TEST ONLY: multi_texel's break-asserts corruption. The text of `VMEM_TEST_HOOK(multi_texel_brk)
// at the end of rtl/multi_texel.sv's stage-2 always_comb, in the unit's break-asserts build alone
// (build.rs; never in the design: rtl/vmem_prim_pkg.sv). It corrupts the stage-2 register inputs
// so that each assertion (the known-value ones aside) fails on some input, each just past its
// bound (tests/multi_texel.rs proves each one fires):
//   an illegal combination gets result bit 0 set                  -> IllegalZero_A
//   a legal four-dword row counts 3 with dword 3 all ones          -> CountRow_A, AboveCountZero3_A
//   a legal row of c = 1 or 2 dwords gets dword c, the first one
//   past its count, all ones                                       -> AboveCountZero<c>_A
// Only the assertion on that dword fails, and it stops failing when its bound is loosened by one.
if (s1_q.illegal) begin
  s2_d.dwords.result[0] = 1'b1;
end else begin
  if (s2_d.dwords.count == 3'd4) begin
    s2_d.dwords.count = 3'd3;
  end
  if (s2_d.dwords.count < 3'd4) begin
    s2_d.dwords.result[32*s2_d.dwords.count[1:0] +: 32] = '1;
  end
end
