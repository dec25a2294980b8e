// Port copying and build selection for the Verilated `image_addr` (see image_addr.h).
#include "gcn-vmem/cosim/image_addr.h"

#include <string>

#include "image_addr_variants.h"
#include "gcn-vmem/cosim/image_addr.rs.h"

namespace cosim::image_addr {
namespace {

struct Ports {
  using In = PortsIn;
  using Out = PortsOut;

  template <class M>
  static void apply(M &top, const In &in) {
    top.valid_i = in.valid;
    for (int i = 0; i < 4; ++i) top.tsharp_lo_i[i] = in.tsharp_lo[i];
    for (int i = 0; i < 4; ++i) top.tsharp_hi_i[i] = in.tsharp_hi[i];
    top.r128_i = in.r128;
    top.op_i = in.op;
    top.mip_i = in.mip;
    top.dmask_i = in.dmask;
    top.d16_i = in.d16;
    top.tfe_i = in.tfe;
    top.da_i = in.da;
    top.x_i = in.x;
    top.y_i = in.y;
    top.mipid_i = in.mipid;
  }

  template <class M>
  static void sample(const M &top, Out &out) {
    out.valid = top.valid_o;
    out.level_ok = top.level_ok_o;
    out.level = top.level_o;
    out.width = top.width_o;
    out.height = top.height_o;
    out.pitch = top.pitch_o;
    out.xa = top.xa_o;
    out.group_valid = top.group_valid_o;
    out.address = top.address_o;
    out.illegal = top.illegal_o;
  }

  static uint64_t checksum(const Out &out) { return out.address ^ out.xa ^ out.pitch; }
};

}  // namespace

std::unique_ptr<Rtl> new_rtl(uint8_t variant, uint8_t wave, rust::Str path, bool x_random, uint64_t x_seed) {
  return open_variant<Ports>(variant, wave, verilated_rs::Options{std::string(path), x_random, x_seed});
}

uint64_t plain_loop(rust::Slice<const PortsIn> inputs, uint64_t rounds) {
  return verilated_rs::plain_loop<Ports, Plain>(inputs, rounds);
}

}  // namespace cosim::image_addr
