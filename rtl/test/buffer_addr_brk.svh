// TEST ONLY: buffer_addr's break-asserts corruption. The text of `VMEM_TEST_HOOK(buffer_addr_brk)
// at the end of rtl/buffer_addr.sv's stage-2 always_comb, in the unit's break-asserts build alone
// (build.rs; never in the design: rtl/vmem_prim_pkg.sv). It corrupts the stage-2 register inputs
// so that each assertion fails on some input, each just past its bound (tests/buffer_addr.rs
// proves each one fires):
//   an unbound access reports dword 0 in range                     -> UnboundNotInRange_A
//   an in-range dwordx2 reports only dword 1                       -> InRangePrefix_A
//   an LDS address ending in 2'b11 becomes the largest §2.5 LDS
//   address plus one                                               -> LdsAddressBound_A
if (s1_q.flags.unbound) begin
  s2_d.flags.in_range = 4'b0001;
end else if (s1_q.flags.in_range == 4'b0011) begin
  s2_d.flags.in_range = 4'b0010;
end
// One past the largest LDS address, written apart from LdsAddressBound_A's bound so that a
// loosened bound no longer fires.
if (s1_q.flags.lds_address[1:0] == 2'b11) begin
  s2_d.flags.lds_address = LdsAddrW'(511 * 128 + 65535 + 4095 + 63 * 4 + 1);
end
