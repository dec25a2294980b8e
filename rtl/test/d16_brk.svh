// TEST ONLY: d16's break-asserts corruption. The text of `VMEM_TEST_HOOK(d16_brk) at the end of
// rtl/d16.sv's stage-2 always_comb, in the unit's break-asserts build alone (build.rs; never in
// the design: rtl/vmem_prim_pkg.sv). It corrupts the stage-2 register inputs so that each
// assertion (the known-value ones aside) fails on some input, each just past its bound
// (tests/d16.rs proves each one fires):
//   a four-dword result counts 5 when its conversion is float-like      -> CountBound_A
//   any other four-dword result counts 3 with dword 3 all ones          -> ResultBeyondCount3_A
//   a result of c < 4 dwords gets dword c, the first one past its count,
//   all ones                                                            -> ResultBeyondCount<c>_A
// Only the assertion on that dword fails, and it stops failing when its bound is loosened by one.
if ((s1_q.result_count == 3'd4) && (s1_q.conv == ConvFloat)) begin
  s2_d.dwords.count = 3'd5;
end else begin
  if (s2_d.dwords.count == 3'd4) begin
    s2_d.dwords.count = 3'd3;
  end
  if (s2_d.dwords.count < 3'd4) begin
    s2_d.dwords.result[32*s2_d.dwords.count[1:0] +: 32] = '1;
  end
end
