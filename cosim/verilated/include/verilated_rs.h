// Verilator runtime glue shared by every unit of gcn-vmem: the C++ that build.rs generates for
// each unit (its port copying and variant selection) instantiates the templates below.
//
// `Sim<Model, Trace>` owns one VerilatedContext, one Verilated model and, when Trace is
// VerilatedFstC, one open FST waveform. It drives the clock and the asynchronous
// reset the way the lockstep contract needs (rust/unit.rs): inputs are set by the caller, then
// `edge()` evaluates clk_i = 0 and clk_i = 1 and dumps both; `set_reset()` moves rst_ni between
// edges and dumps once. Every dump advances the time by one unit, so the harness can write its
// own waveform on the same time base (cosim/engine/wave.rs). Every instance has its own context, so
// instances on different threads do not share simulation state.
//
// Assertions: the RTL's VMEM_ASSERT (rtl/vmem_prim_pkg.sv) calls the DPI function
// vmem_assert_failed(name) when a property fails; it is defined once per binary (src/shim.cc)
// and appends the name to the failures of the Sim that is evaluating on this thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "verilated.h"
#include "verilated_cov.h"
#include "verilated_fst_c.h"

namespace verilated_rs {

// The failing-assertion list of the Sim evaluating on this thread (null outside an eval).
inline thread_local std::vector<std::string> *assertion_sink = nullptr;

// How to open a simulation: the waveform (`wave_path` is ignored when untraced) and, when
// `x_random` is set, Verilator's randomisation of unknown values: every register's initial value
// and every X assignment become random (randReset(2), the API form of +verilator+rand+reset+2),
// reproducible from `x_seed`. Needs a model verilated with --x-assign/--x-initial unique.
// `plusargs` reach the model as its command line ($test$plusargs): a `builds=one` unit's
// test-only parameters (cosim/units.txt).
struct Options {
  std::string wave_path;
  bool x_random = false;
  uint64_t x_seed = 0;
  std::vector<std::string> plusargs;
};

// Model: a Verilated top with clk_i and rst_ni ports. Trace: void (untraced) or VerilatedFstC
// (model verilated with --trace-fst); a VCD is converted from the FST by the harness.
template <class Model, class Trace = void>
class Sim {
 public:
  // Creates the context and model, settles it once with clk_i = 1 and rst_ni = 1 (so that the
  // first set_reset(true) is a real falling edge of rst_ni), and opens the waveform. Throws
  // std::runtime_error when the waveform file cannot be opened.
  explicit Sim(const Options &options) : ctx_(new VerilatedContext) {
    ctx_->traceEverOn(kTraced);
    if (options.x_random) {
      // Before the model exists: its constructor draws the initial values.
      ctx_->randReset(2);
      ctx_->randSeed(static_cast<int>(options.x_seed & 0x7fffffff));
    }
    {
      // Always set, even empty: $test$plusargs aborts on a context without a command line.
      std::vector<const char *> argv{"gcn-vmem"};
      for (const std::string &arg : options.plusargs) argv.push_back(arg.c_str());
      ctx_->commandArgs(static_cast<int>(argv.size()), argv.data());
    }
    top_.reset(new Model(ctx_.get(), "top"));
    top_->clk_i = 1;
    top_->rst_ni = 1;
    eval();
    if constexpr (kTraced) {
      trace_.reset(new Trace);
      top_->trace(trace_.get(), 99);
      trace_->open(options.wave_path.c_str());
      if (!trace_->isOpen()) {
        throw std::runtime_error("cannot open waveform file " + options.wave_path);
      }
    }
  }

  Sim(const Sim &) = delete;
  Sim &operator=(const Sim &) = delete;

  // Verilator 5.006 unregisters a model's scopes (the DPI import creates some) from the
  // *thread's* current context, which is whichever context this thread constructed last, possibly
  // one already destroyed; point it at this model's own context first, or the destructor locks a
  // dead mutex.
  ~Sim() {
    finish();
    Verilated::threadContextp(ctx_.get());
    trace_.reset();
    top_.reset();
  }

  // The model's ports, to set inputs before `edge()` and read outputs after it.
  Model &top() { return *top_; }

  // One clock cycle: clk_i low (inputs settle), then the rising edge.
  void edge() {
    top_->clk_i = 0;
    eval();
    dump();
    top_->clk_i = 1;
    eval();
    dump();
  }

  // Drives rst_ni between clock edges (asserted = low): the asynchronous reset acts at once.
  void set_reset(bool asserted) {
    top_->rst_ni = asserted ? 0 : 1;
    eval();
    dump();
  }

  // Asserts rst_ni, holds it across one rising edge, releases it.
  void reset() {
    set_reset(true);
    edge();
    set_reset(false);
  }

  // Assertion failures since the last take, oldest first.
  size_t failures() const { return failures_.size(); }
  std::vector<std::string> take_failures() { return std::move(failures_); }

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

  void eval() {
    assertion_sink = &failures_;
    top_->eval();
    assertion_sink = nullptr;
  }

  void dump() {
    if constexpr (kTraced) {
      trace_->dump(ctx_->time());
    }
    ctx_->timeInc(1);
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> top_;
  std::conditional_t<kTraced, std::unique_ptr<Trace>, std::unique_ptr<int>> trace_;
  std::vector<std::string> failures_;
  bool finished_ = false;
};

// One simulated instance of a unit, whatever its ports: the harness's generic cxx bridge
// (cosim/engine/rtl.rs) binds it as `type Rtl;`. Ports travel as 32-bit words: every port starts
// at a word of its own, bit 0 of the port at bit 0 of that word, words least significant first
// (the layout build.rs generates on both sides from the unit's port list).
class Rtl {
 public:
  virtual ~Rtl() = default;
  // Drives rst_ni between edges (asserted = low; asynchronous: registers clear at once and
  // stay clear across edges until it is released) and writes the outputs right after into
  // `out`. Returns the number of assertion failures not yet taken.
  virtual uint32_t set_reset(bool asserted, uint32_t *out) = 0;
  // Applies `in`, raises the clock once, writes the outputs after the edge into `out`. Returns
  // the number of assertion failures not yet taken.
  virtual uint32_t step(const uint32_t *in, uint32_t *out) = 0;
  // The names of the assertions that failed since the last call, oldest first.
  virtual std::vector<std::string> take_assertions() = 0;
  // Runs final blocks and closes the waveform; no step may follow.
  virtual void finish() = 0;
  // Writes the context's coverage database to `path`.
  virtual void write_coverage(const std::string &path) = 0;
};

// Ports: a unit's port copier (generated by build.rs), a struct with
//   static constexpr size_t kInWords, kOutWords;
//   template <class M> static void apply(M &top, const uint32_t *in);
//   template <class M> static void sample(const M &top, uint32_t *out);
template <class Ports, class Model, class Trace>
class Shim final : public Rtl {
 public:
  explicit Shim(const Options &options) : sim_(options) {}
  uint32_t set_reset(bool asserted, uint32_t *out) override {
    sim_.set_reset(asserted);
    Ports::sample(sim_.top(), out);
    return static_cast<uint32_t>(sim_.failures());
  }
  uint32_t step(const uint32_t *in, uint32_t *out) override {
    Ports::apply(sim_.top(), in);
    sim_.edge();
    Ports::sample(sim_.top(), out);
    return static_cast<uint32_t>(sim_.failures());
  }
  std::vector<std::string> take_assertions() override { return sim_.take_failures(); }
  void finish() override { sim_.finish(); }
  void write_coverage(const std::string &path) override { sim_.write_coverage(path); }

 private:
  Sim<Model, Trace> sim_;
};

// Opens one of a variant's builds: wave 0 untraced, 1 FST written to options.wave_path. Fst is
// void when the variant has no traced build. Throws std::invalid_argument for a wave code
// without a build, std::runtime_error if the file won't open.
template <class Ports, class Plain, class Fst>
std::unique_ptr<Rtl> open(uint8_t wave, const Options &options) {
  if (wave == 0) return std::make_unique<Shim<Ports, Plain, void>>(options);
  if constexpr (!std::is_void_v<Fst>) {
    if (wave == 1) return std::make_unique<Shim<Ports, Fst, VerilatedFstC>>(options);
  }
  if (wave == 1) {
    throw std::invalid_argument("this RTL variant is built untraced only (no waveform)");
  }
  throw std::invalid_argument("unknown waveform kind " + std::to_string(wave));
}

// Keeps a benchmark's result alive so the loop that computed it is not optimised out.
inline void consume(uint64_t value) { __asm__ volatile("" : : "r"(value) : "memory"); }

// The benchmark baseline: a plain C++ loop that resets a fresh untraced model, then drives every
// input (`count` of them, Ports::kInWords words each) `rounds` times. Returns the nanoseconds
// the loop took (reset excluded); the outputs feed a checksum so nothing is optimised out.
template <class Ports, class Plain>
uint64_t plain_loop(const uint32_t *inputs, size_t count, uint64_t rounds) {
  Sim<Plain, void> sim(Options{});
  sim.reset();
  uint32_t out[Ports::kOutWords] = {};
  uint64_t sum = 0;
  const auto start = std::chrono::steady_clock::now();
  for (uint64_t r = 0; r < rounds; ++r) {
    for (size_t i = 0; i < count; ++i) {
      Ports::apply(sim.top(), inputs + i * Ports::kInWords);
      sim.edge();
      Ports::sample(sim.top(), out);
      for (size_t k = 0; k < Ports::kOutWords; ++k) sum += out[k];
    }
  }
  const auto stop = std::chrono::steady_clock::now();
  consume(sum);
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start).count());
}

}  // namespace verilated_rs
