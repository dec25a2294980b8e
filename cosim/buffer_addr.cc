// Port copying and build selection for the Verilated `buffer_addr` (see buffer_addr.h).
#include "gcn-vmem/cosim/buffer_addr.h"

#include <string>

#include "buffer_addr_variants.h"
#include "gcn-vmem/cosim/buffer_addr.rs.h"

namespace cosim::buffer_addr {
namespace {

struct Ports {
  using In = PortsIn;
  using Out = PortsOut;

  template <class M>
  static void apply(M &top, const In &in) {
    top.valid_i = in.valid;
    top.vsharp_i[0] = static_cast<uint32_t>(in.vsharp_lo);
    top.vsharp_i[1] = static_cast<uint32_t>(in.vsharp_lo >> 32);
    top.vsharp_i[2] = static_cast<uint32_t>(in.vsharp_hi);
    top.vsharp_i[3] = static_cast<uint32_t>(in.vsharp_hi >> 32);
    top.inst_offset_i = in.inst_offset;
    top.offen_i = in.offen;
    top.idxen_i = in.idxen;
    top.access_i = in.access;
    top.bytes_i = in.bytes;
    top.lds_i = in.lds;
    top.sgpr_offset_i = in.sgpr_offset;
    top.vgpr_index_i = in.vgpr_index;
    top.vgpr_offset_i = in.vgpr_offset;
    top.tid_i = in.tid;
    top.m0_i = in.m0;
    top.lds_base_i = in.lds_base;
    top.lds_size_i = in.lds_size;
  }

  template <class M>
  static void sample(const M &top, Out &out) {
    out.valid = top.valid_o;
    out.address = top.address_o;
    out.in_range = top.in_range_o;
    out.unbound = top.unbound_o;
    out.illegal = top.illegal_o;
    out.lds_address = top.lds_address_o;
    out.lds_in_range = top.lds_in_range_o;
  }

  static uint64_t checksum(const Out &out) { return out.address ^ out.in_range ^ out.lds_address; }
};

}  // namespace

std::unique_ptr<Rtl> new_rtl(uint8_t variant, uint8_t wave, rust::Str path, bool x_random, uint64_t x_seed) {
  return open_variant<Ports>(variant, wave, verilated_rs::Options{std::string(path), x_random, x_seed});
}

uint64_t plain_loop(rust::Slice<const PortsIn> inputs, uint64_t rounds) {
  return verilated_rs::plain_loop<Ports, Plain>(inputs, rounds);
}

}  // namespace cosim::buffer_addr
