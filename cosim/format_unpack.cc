// Port copying and build selection for the Verilated `format_unpack` (see format_unpack.h).
#include "gcn-vmem/cosim/format_unpack.h"

#include <string>

#include "format_unpack_variants.h"
#include "gcn-vmem/cosim/format_unpack.rs.h"

namespace cosim::format_unpack {
namespace {

struct Ports {
  using In = PortsIn;
  using Out = PortsOut;

  template <class M>
  static void apply(M &top, const In &in) {
    top.valid_i = in.valid;
    top.dfmt_i = in.dfmt;
    top.nfmt_i = in.nfmt;
    for (int i = 0; i < 4; ++i) top.data_i[i] = in.data[i];
  }

  template <class M>
  static void sample(const M &top, Out &out) {
    out.valid = top.valid_o;
    for (int i = 0; i < 4; ++i) out.components[i] = top.components_o[i];
    out.count = top.count_o;
    out.fmt_valid = top.fmt_valid_o;
  }

  static uint64_t checksum(const Out &out) { return out.components[0] ^ out.components[3] ^ out.count; }
};

}  // namespace

std::unique_ptr<Rtl> new_rtl(uint8_t variant, uint8_t wave, rust::Str path, bool x_random, uint64_t x_seed) {
  return open_variant<Ports>(variant, wave, verilated_rs::Options{std::string(path), x_random, x_seed});
}

uint64_t plain_loop(rust::Slice<const PortsIn> inputs, uint64_t rounds) {
  return verilated_rs::plain_loop<Ports, Plain>(inputs, rounds);
}

}  // namespace cosim::format_unpack
