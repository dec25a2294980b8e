// Port copying and variant selection for the Verilated `buffer_addr` (see buffer_addr.h).
#include "gcn-vmem/cosim/buffer_addr.h"

#include <chrono>
#include <stdexcept>
#include <string>

#include "Vbuffer_addr.h"
#include "Vbuffer_addr_fst.h"
#include "Vbuffer_addr_vcd.h"
#include "gcn-vmem/cosim/buffer_addr.rs.h"
#include "verilated_rs.h"
#ifdef COSIM_HAS_MUTANT
#include "Vbuffer_addr_mut.h"
#include "Vbuffer_addr_mut_fst.h"
#include "Vbuffer_addr_mut_vcd.h"
#endif

namespace cosim::buffer_addr {
namespace {

template <class M>
inline void apply(M &top, const PortsIn &in) {
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
inline void sample(const M &top, PortsOut &out) {
  out.valid = top.valid_o;
  out.address = top.address_o;
  out.in_range = top.in_range_o;
  out.unbound = top.unbound_o;
  out.illegal = top.illegal_o;
  out.lds_address = top.lds_address_o;
  out.lds_in_range = top.lds_in_range_o;
}

template <class M, class Trace>
class Impl final : public Rtl {
 public:
  explicit Impl(const std::string &path) : sim_(path) {}
  void reset() override { sim_.reset(); }
  void step(const PortsIn &in, PortsOut &out) override {
    apply(sim_.top(), in);
    sim_.edge();
    sample(sim_.top(), out);
  }
  void finish() override { sim_.finish(); }
  void write_coverage(rust::Str path) override { sim_.write_coverage(std::string(path)); }

 private:
  verilated_rs::Sim<M, Trace> sim_;
};

template <class Plain, class Fst, class Vcd>
std::unique_ptr<Rtl> make(uint8_t wave, const std::string &path) {
  switch (wave) {
    case 0:
      return std::make_unique<Impl<Plain, void>>(path);
    case 1:
      return std::make_unique<Impl<Fst, VerilatedFstC>>(path);
    case 2:
      return std::make_unique<Impl<Vcd, VerilatedVcdC>>(path);
    default:
      throw std::invalid_argument("unknown waveform kind " + std::to_string(wave));
  }
}

}  // namespace

std::unique_ptr<Rtl> new_rtl(bool mutant, uint8_t wave, rust::Str path) {
  const std::string p(path);
  if (!mutant) return make<Vbuffer_addr, Vbuffer_addr_fst, Vbuffer_addr_vcd>(wave, p);
#ifdef COSIM_HAS_MUTANT
  return make<Vbuffer_addr_mut, Vbuffer_addr_mut_fst, Vbuffer_addr_mut_vcd>(wave, p);
#else
  throw std::invalid_argument("buffer_addr has no mutant variant (cosim/units.txt)");
#endif
}

uint64_t plain_loop(rust::Slice<const PortsIn> inputs, uint64_t rounds) {
  verilated_rs::Sim<Vbuffer_addr, void> sim("");
  sim.reset();
  PortsOut out{};
  uint64_t sum = 0;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t r = 0; r < rounds; ++r) {
    for (const PortsIn &in : inputs) {
      apply(sim.top(), in);
      sim.edge();
      sample(sim.top(), out);
      sum += out.address ^ out.in_range ^ out.lds_address;
    }
  }
  const auto stop = std::chrono::steady_clock::now();
  verilated_rs::consume(sum);
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count());
}

}  // namespace cosim::buffer_addr
