// The generic cxx bridge to every unit's Verilated RTL (see rtl.h).
#include "gcn-vmem/cosim/engine/rtl.h"

#include <sched.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "gcn-vmem/cosim/engine/rtl.rs.h"

namespace gcn_vmem {
namespace {

// The variant codes of the gate-level builds (rtl.h open_rtl): 3, 4 and 5; the others (0–2 and a
// unit's small configuration, 6) are its Verilated RTL.
bool is_gate_level(uint8_t variant) { return variant >= 3 && variant <= 5; }

// The row of `unit` in the table of units.
const gcn_vmem_units::UnitEntry &entry_of(rust::Str unit) {
  const std::string name(unit);
  for (size_t i = 0; i < gcn_vmem_units::kUnitCount; ++i) {
    const auto &entry = gcn_vmem_units::kUnits[i];
    if (name == entry.name) return entry;
  }
  throw std::invalid_argument("no RTL was built for unit `" + name + "` (cosim/units.txt)");
}

// The row of `unit`, whose own library must be current: a stale one (linked from before its
// sources changed) is refused with the command that rebuilds it.
const gcn_vmem_units::UnitEntry &find(rust::Str unit) {
  const auto &entry = entry_of(unit);
  if (entry.stale != nullptr) throw std::runtime_error(entry.stale);
  return entry;
}

}  // namespace

rust::Vec<rust::String> Rtl::take_assertions() {
  rust::Vec<rust::String> names;
  for (const auto &name : sim_->take_assertions()) names.push_back(rust::String(name));
  return names;
}

void Rtl::finish() { sim_->finish(); }

void Rtl::write_coverage(rust::Str path) { sim_->write_coverage(std::string(path)); }

std::unique_ptr<Rtl> open_rtl(rust::Str unit, uint8_t variant, bool traced, rust::Str path, bool x_random,
                              uint64_t x_seed) {
  // A gate-level build is a library of its own, built from the netlist of `make gls`: whether
  // the unit's own library is stale does not matter to it, and a binary without it names the
  // command that builds it.
  const auto &entry = is_gate_level(variant) ? entry_of(unit) : find(unit);
  verilated_rs::Options options;
  options.wave_path = std::string(path);
  options.x_random = x_random;
  options.x_seed = x_seed;
  if (is_gate_level(variant)) {
    if (entry.open_gls == nullptr) {
      throw std::invalid_argument("this binary has no gate-level build of `" + std::string(entry.name) +
                                  "`: run `make gls UNIT=" + entry.name +
                                  "` (it synthesizes the netlist and builds target/gls/build/release/gcn-vmem "
                                  "with it; docs/integrations/gls.md)");
    }
    return std::make_unique<Rtl>(entry.open_gls(variant, traced ? 1 : 0, options));
  }
  return std::make_unique<Rtl>(entry.open(variant, traced ? 1 : 0, options));
}

int32_t pin_to_current_cpu() {
  const int cpu = sched_getcpu();
  if (cpu < 0) return -1;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return sched_setaffinity(0, sizeof set, &set) == 0 ? cpu : -1;
}

uint64_t plain_loop(rust::Str unit, rust::Slice<const uint32_t> inputs, size_t count, uint64_t rounds) {
  return find(unit).plain_loop(inputs.data(), count, rounds);
}

}  // namespace gcn_vmem
