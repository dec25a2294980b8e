// Port copying and build selection for the Verilated `multi_texel` (see multi_texel.h).
#include "gcn-vmem/cosim/multi_texel.h"

#include <stdexcept>
#include <string>

#include "Vmulti_texel.h"
#include "Vmulti_texel_fst.h"
#include "Vmulti_texel_vcd.h"
#include "gcn-vmem/cosim/multi_texel.rs.h"

namespace cosim::multi_texel {
namespace {

struct Ports {
  using In = PortsIn;
  using Out = PortsOut;

  template <class M>
  static void apply(M &top, const In &in) {
    top.valid_i = in.valid;
    top.op_i = in.op;
    top.dmask_i = in.dmask;
    top.dfmt_i = in.dfmt;
    top.nfmt_i = in.nfmt;
    top.group_valid_i = in.group_valid;
    top.texels_i = in.texels;
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
  if (mutant) throw std::invalid_argument("multi_texel has no mutant build (cosim/units.txt)");
  return verilated_rs::open<Ports, Vmulti_texel, Vmulti_texel_fst, Vmulti_texel_vcd>(wave, std::string(path));
}

uint64_t plain_loop(rust::Slice<const PortsIn> inputs, uint64_t rounds) {
  return verilated_rs::plain_loop<Ports, Vmulti_texel>(inputs, rounds);
}

}  // namespace cosim::multi_texel
