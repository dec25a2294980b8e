// The hook rtl/vmem_prim_pkg.sv's VMEM_ASSERT calls under Verilator (the harness has its own in
// cosim/verilated/include/verilated_rs.h): prints the failing assertion and counts it for
// tests/dpi/dpi_tb.sv, which fails the run on any.
#include <cstdio>

static int failures = 0;

extern "C" void vmem_assert_failed(const char* name) {
  ++failures;
  if (failures <= 10) std::fprintf(stderr, "ASSERTION %s failed\n", name);
}

extern "C" int dpi_tb_assert_failures() { return failures; }
