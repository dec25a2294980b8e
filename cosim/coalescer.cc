// Port copying and build selection for the Verilated `coalescer` (see coalescer.h).
#include "gcn-vmem/cosim/coalescer.h"

#include <algorithm>
#include <string>

#include "coalescer_variants.h"
#include "gcn-vmem/cosim/coalescer.rs.h"

namespace cosim::coalescer {
namespace {

constexpr int kLanes = 64;
constexpr int kAddressBits = 48;

// Writes the low `kAddressBits` bits of `value` at bit `lsb` of a Verilated wide vector
// (32-bit words, word 0 = bits 31:0).
template <class Wide>
void put_address(Wide &wide, int lsb, uint64_t value) {
  for (int bit = 0; bit < kAddressBits;) {
    const int word = (lsb + bit) / 32;
    const int shift = (lsb + bit) % 32;
    const int take = std::min(32 - shift, kAddressBits - bit);
    const uint32_t mask = take == 32 ? ~0u : ((1u << take) - 1) << shift;
    const uint32_t field = static_cast<uint32_t>(value >> bit) << shift;
    wide[word] = (wide[word] & ~mask) | (field & mask);
    bit += take;
  }
}

struct Ports {
  using In = PortsIn;
  using Out = PortsOut;

  template <class M>
  static void apply(M &top, const In &in) {
    top.valid_i = in.valid;
    for (int lane = 0; lane < kLanes; ++lane) put_address(top.addr_i, kAddressBits * lane, in.addr[lane]);
    top.active_i = in.active;
    top.size_i = in.size;
    top.single_i = in.single;
  }

  template <class M>
  static void sample(const M &top, Out &out) {
    out.valid = top.valid_o;
    out.ready = top.ready_o;
    out.addr = top.addr_o;
    out.bytes = top.bytes_o;
    out.lanes = top.lanes_o;
    out.last = top.last_o;
    out.cycles = top.cycles_o;
  }

  static uint64_t checksum(const Out &out) { return out.addr ^ out.lanes ^ out.bytes ^ out.cycles ^ out.ready; }
};

}  // namespace

std::unique_ptr<Rtl> new_rtl(uint8_t variant, uint8_t wave, rust::Str path, bool x_random, uint64_t x_seed) {
  return open_variant<Ports>(variant, wave, verilated_rs::Options{std::string(path), x_random, x_seed});
}

uint64_t plain_loop(rust::Slice<const PortsIn> inputs, uint64_t rounds) {
  return verilated_rs::plain_loop<Ports, Plain>(inputs, rounds);
}

}  // namespace cosim::coalescer
