#include "verilated/src/lib.rs.h"

#include "verilated.h"

namespace verilated_rs {

rust::String product_version() { return rust::String(Verilated::productVersion()); }

}  // namespace verilated_rs
