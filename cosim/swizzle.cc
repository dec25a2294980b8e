// Port copying and build selection for the Verilated `swizzle` (see swizzle.h).
#include "gcn-vmem/cosim/swizzle.h"

#include <string>

#include "swizzle_variants.h"
#include "gcn-vmem/cosim/swizzle.rs.h"

namespace cosim::swizzle {
namespace {

struct Ports {
  using In = PortsIn;
  using Out = PortsOut;

  template <class M>
  static void apply(M &top, const In &in) {
    top.valid_i = in.valid;
    for (int i = 0; i < 4; ++i) top.components_i[i] = in.components[i];
    top.count_i = in.count;
    top.dst_sel_i = in.dst_sel;
    top.integer_i = in.integer;
    top.dmask_i = in.dmask;
    top.oor_i = in.oor;
    top.unbound_i = in.unbound;
    top.tfe_i = in.tfe;
  }

  template <class M>
  static void sample(const M &top, Out &out) {
    out.valid = top.valid_o;
    for (int i = 0; i < 4; ++i) out.result[i] = top.result_o[i];
    out.result_count = top.result_count_o;
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

}  // namespace cosim::swizzle
