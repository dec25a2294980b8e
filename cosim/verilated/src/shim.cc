#include "verilated/src/lib.rs.h"

#include "verilated.h"
#include "verilated_rs.h"

namespace verilated_rs {

rust::String product_version() { return rust::String(Verilated::productVersion()); }

}  // namespace verilated_rs

// The DPI import of rtl/vmem_prim_pkg.sv, called by every failing VMEM_ASSERT of every model in
// the binary: records the assertion against the Sim evaluating on this thread. A failure outside
// a harness eval (none is expected) is printed rather than lost.
extern "C" void vmem_assert_failed(const char *name) {
  if (verilated_rs::assertion_sink != nullptr) {
    verilated_rs::assertion_sink->emplace_back(name);
  } else {
    VL_PRINTF("%%Error: assertion %s failed outside a gcn-vmem evaluation\n", name);
  }
}
