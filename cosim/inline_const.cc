// Port copying and build selection for the Verilated `inline_const` (see inline_const.h).
#include "gcn-vmem/cosim/inline_const.h"

#include <string>

#include "inline_const_variants.h"
#include "gcn-vmem/cosim/inline_const.rs.h"

namespace cosim::inline_const {
namespace {

struct Ports {
  using In = PortsIn;
  using Out = PortsOut;

  template <class M>
  static void apply(M &top, const In &in) {
    top.valid_i = in.valid;
    top.code_i = in.code;
  }

  template <class M>
  static void sample(const M &top, Out &out) {
    out.valid = top.valid_o;
    out.bits = top.bits_o;
  }

  static uint64_t checksum(const Out &out) { return out.bits; }
};

}  // namespace

std::unique_ptr<Rtl> new_rtl(uint8_t variant, uint8_t wave, rust::Str path, bool x_random, uint64_t x_seed) {
  return open_variant<Ports>(variant, wave, verilated_rs::Options{std::string(path), x_random, x_seed});
}

uint64_t plain_loop(rust::Slice<const PortsIn> inputs, uint64_t rounds) {
  return verilated_rs::plain_loop<Ports, Plain>(inputs, rounds);
}

}  // namespace cosim::inline_const
