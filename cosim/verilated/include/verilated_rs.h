// Verilator runtime glue shared by every unit binding of gcn-vmem (cosim/<unit>.cc).
//
// `Sim<Model, Trace>` owns one VerilatedContext, one Verilated model and, when Trace is
// VerilatedFstC or VerilatedVcdC, one open waveform. It drives the clock the way the lockstep
// contract needs (rust/unit.rs): inputs are set by the caller, then `edge()` evaluates clk_i = 0
// and clk_i = 1 and dumps both edges. Every instance has its own context, so instances on
// different threads do not share simulation state.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "rust/cxx.h"
#include "verilated.h"
#include "verilated_cov.h"
#include "verilated_fst_c.h"
#include "verilated_vcd_c.h"

namespace verilated_rs {

// Model: a Verilated top with clk_i and rst_ni ports. Trace: void (untraced), VerilatedFstC
// (model verilated with --trace-fst) or VerilatedVcdC (--trace).
template <class Model, class Trace = void>
class Sim {
 public:
  // Creates the context and model; `wave_path` is ignored when Trace is void. Throws
  // std::runtime_error when the waveform file cannot be opened.
  explicit Sim(const std::string &wave_path) : ctx_(new VerilatedContext) {
    ctx_->traceEverOn(kTraced);
    top_.reset(new Model(ctx_.get(), "top"));
    top_->clk_i = 0;
    top_->rst_ni = 1;
    if constexpr (kTraced) {
      trace_.reset(new Trace);
      top_->trace(trace_.get(), 99);
      trace_->open(wave_path.c_str());
      if (!trace_->isOpen()) {
        throw std::runtime_error("cannot open waveform file " + wave_path);
      }
    }
    (void)wave_path;
  }

  Sim(const Sim &) = delete;
  Sim &operator=(const Sim &) = delete;

  ~Sim() { finish(); }

  // The model's ports, to set inputs before `edge()` and read outputs after it.
  Model &top() { return *top_; }

  // One clock cycle: clk_i low (inputs settle), then the rising edge.
  void edge() {
    top_->clk_i = 0;
    top_->eval();
    dump();
    top_->clk_i = 1;
    top_->eval();
    dump();
  }

  // Asserts rst_ni (asynchronous) across one rising edge, then releases it.
  void reset() {
    top_->rst_ni = 0;
    edge();
    top_->rst_ni = 1;
  }

  // Writes the context's coverage database (models verilated with --coverage; an empty
  // database otherwise).
  void write_coverage(const std::string &path) {
    ctx_->coveragep()->write(path.c_str());
  }

  // Flushes and closes the waveform and runs final blocks. Idempotent.
  void finish() {
    if (finished_) return;
    finished_ = true;
    top_->final();
    if constexpr (kTraced) {
      if (trace_) trace_->close();
    }
  }

 private:
  static constexpr bool kTraced = !std::is_void_v<Trace>;

  void dump() {
    if constexpr (kTraced) {
      trace_->dump(ctx_->time());
    }
    ctx_->timeInc(1);
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> top_;
  std::conditional_t<kTraced, std::unique_ptr<Trace>, std::unique_ptr<int>> trace_;
  bool finished_ = false;
};

// The simulation object a unit's cxx bridge binds as `type Rtl;` (each unit's header says
// `using Rtl = verilated_rs::RtlBase<PortsIn, PortsOut>;`). In and Out are the bridge's shared
// structs of the unit's ports; they only need to be complete where a Shim is instantiated.
template <class In, class Out>
class RtlBase {
 public:
  virtual ~RtlBase() = default;
  // Holds rst_ni low across one rising edge: every register, outputs included, becomes 0.
  virtual void reset() = 0;
  // Applies `in`, raises the clock once, writes the outputs after the edge into `out`.
  virtual void step(const In &in, Out &out) = 0;
  // Runs final blocks and closes the waveform; no step may follow.
  virtual void finish() = 0;
  // Writes the context's coverage database to `path`.
  virtual void write_coverage(rust::Str path) = 0;
};

// Ports: the unit's port copier, a struct with
//   using In = …; using Out = …;
//   template <class M> static void apply(M &top, const In &in);
//   template <class M> static void sample(const M &top, Out &out);
//   static uint64_t checksum(const Out &out);
template <class Ports, class Model, class Trace>
class Shim final : public RtlBase<typename Ports::In, typename Ports::Out> {
 public:
  explicit Shim(const std::string &path) : sim_(path) {}
  void reset() override { sim_.reset(); }
  void step(const typename Ports::In &in, typename Ports::Out &out) override {
    Ports::apply(sim_.top(), in);
    sim_.edge();
    Ports::sample(sim_.top(), out);
  }
  void finish() override { sim_.finish(); }
  void write_coverage(rust::Str path) override { sim_.write_coverage(std::string(path)); }

 private:
  Sim<Model, Trace> sim_;
};

// Opens one of a unit's three builds: wave 0 untraced, 1 FST, 2 VCD written to `path`.
// Throws std::invalid_argument for another wave code, std::runtime_error if the file won't open.
template <class Ports, class Plain, class Fst, class Vcd>
std::unique_ptr<RtlBase<typename Ports::In, typename Ports::Out>> open(uint8_t wave, const std::string &path) {
  switch (wave) {
    case 0:
      return std::make_unique<Shim<Ports, Plain, void>>(path);
    case 1:
      return std::make_unique<Shim<Ports, Fst, VerilatedFstC>>(path);
    case 2:
      return std::make_unique<Shim<Ports, Vcd, VerilatedVcdC>>(path);
    default:
      throw std::invalid_argument("unknown waveform kind " + std::to_string(wave));
  }
}

// Keeps a benchmark's result alive so the loop that computed it is not optimised out.
inline void consume(uint64_t value) { __asm__ volatile("" : : "r"(value) : "memory"); }

// The benchmark baseline: a plain C++ loop that resets a fresh untraced model, then drives every
// input `rounds` times. Returns the nanoseconds the loop took (reset excluded); the outputs feed
// a checksum so nothing is optimised out.
template <class Ports, class Plain>
uint64_t plain_loop(rust::Slice<const typename Ports::In> inputs, uint64_t rounds) {
  Sim<Plain, void> sim("");
  sim.reset();
  typename Ports::Out out{};
  uint64_t sum = 0;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t r = 0; r < rounds; ++r) {
    for (const auto &in : inputs) {
      Ports::apply(sim.top(), in);
      sim.edge();
      Ports::sample(sim.top(), out);
      sum += Ports::checksum(out);
    }
  }
  const auto stop = std::chrono::steady_clock::now();
  consume(sum);
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count());
}

}  // namespace verilated_rs
