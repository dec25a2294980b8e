// The hook rtl/vmem_prim_pkg.sv's VMEM_ASSERT calls under Verilator, for the cocotb bench: prints
// the failing assertion and appends its name to the file $GCN_VMEM_ASSERT_LOG, which
// tests/cocotb/bench.py reads after every cycle (a failed assertion fails the test).
#include <cstdio>
#include <cstdlib>

extern "C" void vmem_assert_failed(const char* name) {
  std::fprintf(stderr, "ASSERTION %s failed\n", name);
  if (const char* path = std::getenv("GCN_VMEM_ASSERT_LOG")) {
    if (std::FILE* f = std::fopen(path, "a")) {
      std::fprintf(f, "%s\n", name);
      std::fclose(f);
    }
  }
}
