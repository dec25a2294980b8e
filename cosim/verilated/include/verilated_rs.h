// Verilator runtime glue shared by every unit binding of gcn-vmem (cosim/<unit>.cc).
//
// `Sim<Model, Trace>` owns one VerilatedContext, one Verilated model and, when Trace is
// VerilatedFstC or VerilatedVcdC, one open waveform. It drives the clock the way the lockstep
// contract needs (rust/unit.rs): inputs are set by the caller, then `edge()` evaluates clk_i = 0
// and clk_i = 1 and dumps both edges. Every instance has its own context, so instances on
// different threads do not share simulation state.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

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

// Keeps a benchmark's result alive so the loop that computed it is not optimised out.
inline void consume(uint64_t value) { __asm__ volatile("" : : "r"(value) : "memory"); }

}  // namespace verilated_rs
