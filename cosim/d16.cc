// Port copying and build selection for the Verilated `d16` (see d16.h).
#include "gcn-vmem/cosim/d16.h"

#include <stdexcept>
#include <string>

#include "Vd16.h"
#include "Vd16_fst.h"
#include "Vd16_vcd.h"
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

std::unique_ptr<Rtl> new_rtl(bool mutant, uint8_t wave, rust::Str path) {
  if (mutant) throw std::invalid_argument("d16 has no mutant build (cosim/units.txt)");
  return verilated_rs::open<Ports, Vd16, Vd16_fst, Vd16_vcd>(wave, std::string(path));
}

uint64_t plain_loop(rust::Slice<const PortsIn> inputs, uint64_t rounds) {
  return verilated_rs::plain_loop<Ports, Vd16>(inputs, rounds);
}

}  // namespace cosim::d16
