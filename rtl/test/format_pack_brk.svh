// TEST ONLY: format_pack's break-asserts corruption. The text of `VMEM_TEST_HOOK(format_pack_brk)
// at the end of rtl/format_pack.sv's stage-2 always_comb, in the unit's break-asserts build alone
// (build.rs; never in the design: rtl/vmem_prim_pkg.sv). It corrupts the stage-2 register inputs
// so that each assertion (the known-value ones aside) fails on some input (tests/format_pack.rs
// proves each one fires):
//   a valid pair of dfmt 1..10 gets bit 32 set in `data`, which
//   FieldInElement_A reads (not the register), and so in data_o    -> FieldInElement_A
//   an invalid pair packs data bit 0 set                            -> InvalidZero_A
if (valid_q && s1_q.fmt_valid && (s1_q.dfmt < 4'd11)) begin
  data[32]      = 1'b1;
  s2_d.data[32] = 1'b1;
end
if (!s1_q.fmt_valid) begin
  s2_d.data[0] = 1'b1;
end
