// TEST ONLY: swizzle's break-asserts corruption. The text of `VMEM_TEST_HOOK(swizzle_brk) at the
// end of rtl/swizzle.sv's stage-2 always_comb, in the unit's break-asserts build alone (build.rs;
// never in the design: rtl/vmem_prim_pkg.sv). It corrupts the stage-2 register inputs so that
// each assertion (the known-value ones aside) fails on some input, each just past its bound
// (tests/swizzle.rs proves each one fires):
//   a five-dword result counts 6                                   -> CountBound_A
//   a four-dword result counts 0 with dword 0 all ones             -> CountNonZero_A,
//                                                                     ZeroAboveCount0_A
//   a result of c < 4 dwords gets dword c, the first one past its
//   count, all ones                                                -> ZeroAboveCount<c>_A
// Only the assertion on that dword fails, and it stops failing when its bound is loosened by one.
if (s2_d.count == CountW'(5)) begin
  s2_d.count = CountW'(6);
end else begin
  if (s2_d.count == CountW'(4)) begin
    s2_d.count = '0;
  end
  s2_d.result[32*s2_d.count[1:0] +: 32] = '1;
end
