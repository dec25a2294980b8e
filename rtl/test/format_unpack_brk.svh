// TEST ONLY: format_unpack's break-asserts corruption. The text of
// `VMEM_TEST_HOOK(format_unpack_brk) at the end of rtl/format_unpack.sv's stage-2 always_comb, in
// the unit's break-asserts build alone (build.rs; never in the design: rtl/vmem_prim_pkg.sv). It
// corrupts the stage-2 register inputs so that each assertion (the known-value ones aside) fails
// on some input (tests/format_unpack.rs proves each one fires):
//   an invalid pair gets component bit 0 set               -> InvalidZero_A
//   a valid four-component format counts 5                 -> CountBound_A
//   a valid one-component format counts 0                  -> ValidCount_A
if (!s1_q.fmt_valid) begin
  s2_d.components[0] = 1'b1;
end else if (s1_q.count == 3'd4) begin
  s2_d.count = 3'd5;
end else if (s1_q.count == 3'd1) begin
  s2_d.count = 3'd0;
end
