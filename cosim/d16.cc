// Port copying and build selection for the Verilated `d16` (see d16.h).
#include "gcn-vmem/cosim/d16.h"

#include <string>

#include "d16_variants.h"
#include "gcn-vmem/cosim/d16.rs.h"

namespace cosim::d16 {
namespace {

struct Ports {
  using In = PortsIn;
  using Out = PortsOut;

  template <class M>
  static void apply(M &top, const In &in) {
    top.valid_i = in.valid;
    top.op_i = in.op;
    top.hi_i = in.hi;
    top.nfmt_i = in.nfmt;
    top.count_i = in.count;
    for (int i = 0; i < 4; ++i) top.data_i[i] = in.data[i];
    top.old_i = in.old;
  }

  template <class M>
  static void sample(const M &top, Out &out) {
    out.valid = top.valid_o;
    for (int i = 0; i < 4; ++i) out.result[i] = top.result_o[i];
    out.result_count = top.result_count_o;
    out.illegal = top.illegal_o;
  }

  static uint64_t checksum(const Out &out) { return out.result[0] ^ out.result[3] ^ out.result_count; }
};

}  // namespace

std::unique_ptr<Rtl> new_rtl(uint8_t variant, uint8_t wave, rust::Str path, bool x_random, uint64_t x_seed) {
  return open_variant<Ports>(variant, wave, verilated_rs::Options{std::string(path), x_random, x_seed});
}

uint64_t plain_loop(rust::Slice<const PortsIn> inputs, uint64_t rounds) {
  return verilated_rs::plain_loop<Ports, Plain>(inputs, rounds);
}

}  // namespace cosim::d16
