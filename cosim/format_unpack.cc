// Port copying and build selection for the Verilated `format_unpack` (see format_unpack.h).
#include "gcn-vmem/cosim/format_unpack.h"

#include <stdexcept>
#include <string>

#include "Vformat_unpack.h"
#include "Vformat_unpack_fst.h"
#include "Vformat_unpack_vcd.h"
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

std::unique_ptr<Rtl> new_rtl(bool mutant, uint8_t wave, rust::Str path) {
  if (mutant) throw std::invalid_argument("format_unpack has no mutant build (cosim/units.txt)");
  return verilated_rs::open<Ports, Vformat_unpack, Vformat_unpack_fst, Vformat_unpack_vcd>(wave, std::string(path));
}

uint64_t plain_loop(rust::Slice<const PortsIn> inputs, uint64_t rounds) {
  return verilated_rs::plain_loop<Ports, Vformat_unpack>(inputs, rounds);
}

}  // namespace cosim::format_unpack
