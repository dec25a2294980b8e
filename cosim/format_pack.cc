// Port copying and build selection for the Verilated `format_pack` (see format_pack.h).
#include "gcn-vmem/cosim/format_pack.h"

#include <stdexcept>
#include <string>

#include "Vformat_pack.h"
#include "Vformat_pack_fst.h"
#include "Vformat_pack_vcd.h"
#include "gcn-vmem/cosim/format_pack.rs.h"

namespace cosim::format_pack {
namespace {

struct Ports {
  using In = PortsIn;
  using Out = PortsOut;

  template <class M>
  static void apply(M &top, const In &in) {
    top.valid_i = in.valid;
    top.dfmt_i = in.dfmt;
    top.nfmt_i = in.nfmt;
    for (int i = 0; i < 4; ++i) top.components_i[i] = in.components[i];
  }

  template <class M>
  static void sample(const M &top, Out &out) {
    out.valid = top.valid_o;
    for (int i = 0; i < 4; ++i) out.data[i] = top.data_o[i];
    out.fmt_valid = top.fmt_valid_o;
  }

  static uint64_t checksum(const Out &out) { return out.data[0] ^ out.data[3] ^ out.fmt_valid; }
};

}  // namespace

std::unique_ptr<Rtl> new_rtl(bool mutant, uint8_t wave, rust::Str path) {
  if (mutant) throw std::invalid_argument("format_pack has no mutant build (cosim/units.txt)");
  return verilated_rs::open<Ports, Vformat_pack, Vformat_pack_fst, Vformat_pack_vcd>(wave, std::string(path));
}

uint64_t plain_loop(rust::Slice<const PortsIn> inputs, uint64_t rounds) {
  return verilated_rs::plain_loop<Ports, Vformat_pack>(inputs, rounds);
}

}  // namespace cosim::format_pack
