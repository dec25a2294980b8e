// TEST ONLY: buffer_addr's deliberate mutant (cosim/units.txt `buffer_addr mutant=...`). The text
// of `VMEM_TEST_HOOK(buffer_addr_mut) in rtl/buffer_addr.sv's stage-1 address terms, in the
// unit's mutant build alone (build.rs; never in the design: rtl/vmem_prim_pkg.sv). It drops the
// `index_lsb * E` term of the swizzled address (docs/spec.md §2.3), so that the tests can prove
// the co-simulation harness catches, shrinks and saves a real RTL bug (tests/buffer_addr.rs,
// tests/svg.rs and the README's picture, `make mutants`' reference, the cocotb and DPI-C benches).
if (vs_swizzle_en) begin
  swz_low = {{(SwzLowW-4){1'b0}}, offset_lsb};
end
