// vmem_prim_pkg: the assertion, register, port and test-hook macros every gcn-vmem unit uses, and
// the hook through which a failing assertion reaches the co-simulation harness.
//
// One place decides what is compiled (as OpenTitan's prim_assert.sv and prim_flop_macros.sv do):
//
//   `VMEM_ASSERT(Name, Prop)        a named concurrent assertion, sampled on clk_i's rising edge
//                                   and disabled while rst_ni is low. A failure calls
//                                   vmem_prim_pkg::vmem_assert_failed("Name"), which the harness
//                                   (cosim/verilated/include/verilated_rs.h) records with the
//                                   unit and the cycle; other simulators print it through $error.
//   `VMEM_ASSERT_KNOWN(Name, Sig)   Sig carries no X or Z bit. Compiled for 4-state simulators
//                                   only: Verilator is 2-state, where $isunknown is constant 0,
//                                   so the check could never fail there. In Verilator the X runs
//                                   (`make cosim XSEEDS=n`: random initial state and random values
//                                   for every X assignment) stand in for it. Left out
//                                   under FORMAL too (`make formal`: 2-state, and Yosys's
//                                   read_slang has no $isunknown).
//   `VMEM_ASSERT_KNOWN_IF(Name, Sig, En)   as above, checked only when En is 1.
//   `VMEM_FF(q, d, ResetValue)      a register with active-low asynchronous reset: q takes
//                                   ResetValue while rst_ni is low, d on every rising clk_i
//                                   edge otherwise (a register that holds feeds q back into d).
//   `VMEM_FF_EN(q, d, En, ResetValue)   as VMEM_FF, but q takes d only on edges where En is 1
//                                   and holds otherwise.
//   `VMEM_STAGE_FF(valid_q, valid_d, q, d)   one register stage of a unit (docs/spec.md
//                                   "Clocking of units"): the valid flop valid_q takes valid_d on
//                                   every edge, the data flop q takes d only when valid_d is 1 and
//                                   holds otherwise; reset clears both.
//   `VMEM_UNIT_CLOCKING             the ports every unit's port list opens with (docs/spec.md
//                                   "Clocking of units"), one bit each, in this order: input
//                                   clk_i, input rst_ni (asynchronous, active low), input valid_i.
//                                   The unit's other inputs follow, then valid_o and its other
//                                   outputs (the harness's port-list check:
//                                   cosim/build/port_list.rs).
//   `VMEM_UNIT_STAGES(valid_q, s1_q, s1_d, s2_q, s2_d, Outputs)   the two stages of a unit of
//                                   latency 2 (its ports valid_i, valid_o): valid_i -> valid_q ->
//                                   valid_o, s1_d -> s1_q and s2_d -> s2_q (VMEM_STAGE_FF each);
//                                   Outputs, the output ports after valid_o concatenated in port
//                                   order, are s2_q. With them the unit's known-value checks:
//                                   ValidKnown_A (valid_o) and OutputsKnown_A (Outputs, while
//                                   valid_o).
//   `VMEM_TEST_HOOK(name)           a test-only hook point (docs/spec.md §14 "Hardware, not only
//                                   behaviour"): nothing at all in the design, whatever the tool.
//                                   Only a test build that defines VMEM_TEST_HOOKS and
//                                   VMEM_TEST_<name> (Verilator +define+) gets the text of
//                                   rtl/test/<name>.svh in its place, read from the repository
//                                   root (run there, or pass -I<root>). build.rs defines them for a
//                                   unit's break-asserts build (hooks <unit>_brk*) and mutant build
//                                   (<unit>_mut*): cosim/build/units.rs, CONTRIBUTING.md "Adding a
//                                   unit". A hook point is one line, and the code it stands for
//                                   corrupts or mutates only what is already there: no port, no
//                                   parameter, no register of its own (a test build's switch, a
//                                   plusarg read once at time 0, is its only variable).
//
// Nothing of the assertions is compiled under SYNTHESIS. Verilator evaluates them only with
// --assert (build.rs passes it to every build). This file defines macros at file scope, so it
// must be read before the units in the same compilation unit: Verilator's default, yosys-slang's
// --single-unit. It is named *_pkg.sv so every tool's package list picks it up first.
//
// Spec: docs/spec.md "Clocking of units"  Harness: cosim/verilated/include/verilated_rs.h

`ifndef VMEM_PRIM_MACROS
`define VMEM_PRIM_MACROS

`define VMEM_FF(q_, d_, rst_value_, clk_ = clk_i, rst_n_ = rst_ni) \
  always_ff @(posedge clk_ or negedge rst_n_) begin \
    if (!rst_n_) begin \
      q_ <= rst_value_; \
    end else begin \
      q_ <= d_; \
    end \
  end

`define VMEM_FF_EN(q_, d_, en_, rst_value_, clk_ = clk_i, rst_n_ = rst_ni) \
  always_ff @(posedge clk_ or negedge rst_n_) begin \
    if (!rst_n_) begin \
      q_ <= rst_value_; \
    end else if (en_) begin \
      q_ <= d_; \
    end \
  end

`define VMEM_STAGE_FF(valid_q_, valid_d_, q_, d_, clk_ = clk_i, rst_n_ = rst_ni) \
  `VMEM_FF(valid_q_, valid_d_, 1'b0, clk_, rst_n_) \
  `VMEM_FF_EN(q_, d_, valid_d_, '0, clk_, rst_n_)

`define VMEM_UNIT_CLOCKING \
  input  logic clk_i, \
  input  logic rst_ni, \
  input  logic valid_i

`define VMEM_UNIT_STAGES(valid_q_, s1_q_, s1_d_, s2_q_, s2_d_, outputs_) \
  `VMEM_STAGE_FF(valid_q_, valid_i, s1_q_, s1_d_) \
  `VMEM_STAGE_FF(valid_o, valid_q_, s2_q_, s2_d_) \
  assign outputs_ = s2_q_; \
  `VMEM_ASSERT_KNOWN(ValidKnown_A, valid_o) \
  `VMEM_ASSERT_KNOWN_IF(OutputsKnown_A, outputs_, valid_o)

// Test builds only: see `VMEM_TEST_HOOK above. The design sees the empty definition.
`ifdef VMEM_TEST_HOOKS
  `define VMEM_TEST_HOOK(name_) `ifdef VMEM_TEST_``name_ `include `"rtl/test/name_.svh`" `endif
`else
  `define VMEM_TEST_HOOK(name_)
`endif

`ifdef SYNTHESIS
  `define VMEM_ASSERT(name_, prop_, clk_ = clk_i, rst_n_ = rst_ni)
  `define VMEM_ASSERT_KNOWN(name_, sig_, clk_ = clk_i, rst_n_ = rst_ni)
  `define VMEM_ASSERT_KNOWN_IF(name_, sig_, en_, clk_ = clk_i, rst_n_ = rst_ni)
`else
  `define VMEM_ASSERT(name_, prop_, clk_ = clk_i, rst_n_ = rst_ni) \
    name_: assert property (@(posedge clk_) disable iff (!(rst_n_)) (prop_)) \
      else vmem_prim_pkg::vmem_assert_failed(`"name_`");
  // 2-state tools: Verilator, and the property proofs (`make formal` reads the RTL with
  // FORMAL defined; its Yosys frontend has no $isunknown). See the contract above.
  `ifdef VERILATOR
    `define VMEM_TWO_STATE
  `endif
  `ifdef FORMAL
    `define VMEM_TWO_STATE
  `endif
  `ifdef VMEM_TWO_STATE
    `define VMEM_ASSERT_KNOWN(name_, sig_, clk_ = clk_i, rst_n_ = rst_ni)
    `define VMEM_ASSERT_KNOWN_IF(name_, sig_, en_, clk_ = clk_i, rst_n_ = rst_ni)
  `else
    `define VMEM_ASSERT_KNOWN(name_, sig_, clk_ = clk_i, rst_n_ = rst_ni) \
      `VMEM_ASSERT(name_, !$isunknown(sig_), clk_, rst_n_)
    `define VMEM_ASSERT_KNOWN_IF(name_, sig_, en_, clk_ = clk_i, rst_n_ = rst_ni) \
      `VMEM_ASSERT(name_, (en_) |-> !$isunknown(sig_), clk_, rst_n_)
  `endif
`endif

`endif  // VMEM_PRIM_MACROS

package vmem_prim_pkg;

`ifndef SYNTHESIS
`ifdef VERILATOR
  // Implemented once for every model of a binary by the harness (verilated_rs.h): it records
  // the failing assertion against the simulation that is evaluating.
  import "DPI-C" function void vmem_assert_failed(input string name);
`else
  function automatic void vmem_assert_failed(input string name);
    $error("assertion %s failed", name);
  endfunction
`endif
`endif

endpackage : vmem_prim_pkg

// Test builds only (`VMEM_TEST_HOOK above): the pipeline's test switches, modules of their own
// that the test build binds into vmem_pipe (rtl/test/vmem_pipe_brk_mode.svh,
// vmem_pipe_mut_mode.svh); nothing in any other build.
`VMEM_TEST_HOOK(vmem_pipe_brk_mode)
`VMEM_TEST_HOOK(vmem_pipe_mut_mode)
