"""cocotb bench of one unit (GCN_VMEM_UNIT: buffer_addr or swizzle) under Verilator: random and
corner inputs, valid and idle cycles and a reset in the middle, every output compared after every
rising edge with the Python-bound model (gcn_vmem_model, built by `make python`).

The model's answer for each input comes from one `gcn_vmem_model.eval_batch` call over all the
inputs (the scoreboard); the clocking around it is the units' contract (rust/unit.rs,
rtl/<unit>.sv headers): two register stages, a stage's data load only when the valid entering it
is 1 and hold otherwise, reset clears every register, outputs included.
"""

import os
import random
import time

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

import gcn_vmem_model as g

import stimulus

UNIT = os.environ.get("GCN_VMEM_UNIT", "buffer_addr")
VECTORS = int(os.environ.get("COCOTB_VECTORS", "20000"))
SEED = int(os.environ.get("COCOTB_SEED", "1"))
ASSERT_LOG = os.environ.get("GCN_VMEM_ASSERT_LOG")


class Pipeline:
    """The two register stages of rust/unit.rs's `Pipeline` over output port dicts."""

    def __init__(self, zero):
        self.zero = dict(zero)
        self.stages = [dict(zero), dict(zero)]
        self.in_reset = False

    def set_reset(self, asserted):
        if asserted:
            self.stages = [dict(self.zero), dict(self.zero)]
        self.in_reset = asserted

    def step(self, valid, result):
        valid = valid and not self.in_reset
        s0, s1 = self.stages
        self.stages[1] = dict(s0) if s0["valid_o"] else {**s1, "valid_o": 0}
        self.stages[0] = {**result, "valid_o": 1} if valid else {**s0, "valid_o": 0}

    @property
    def outputs(self):
        return self.stages[1]


def describe(ports):
    return " ".join(f"{k}={v:#x}" for k, v in ports.items())


@cocotb.test()
async def lockstep(dut):
    unit = stimulus.UNITS[UNIT]
    rng = random.Random(SEED)
    inputs = [unit.generate(rng, n) for n in range(VECTORS)]
    expected = g.eval_batch(UNIT, inputs)  # the scoreboard: one call for every input
    # Each result carries the index of its input, for the mismatch message.
    results = [{**unit.out_ports(i, e), "input": n} for n, (i, e) in enumerate(zip(inputs, expected))]
    zero = {**{name: 0 for name in unit.OUTPUTS}, "input": None}
    model = Pipeline(zero)

    cocotb.start_soon(Clock(dut.clk_i, 10, units="ns").start())
    idle = unit.in_ports(inputs[0])

    def drive(ports, valid):
        dut.valid_i.value = int(valid)
        for name, value in ports.items():
            getattr(dut, name).value = value

    async def check(cycle, what):
        await ReadOnly()
        got = {name: int(getattr(dut, name).value) for name in unit.OUTPUTS}
        if ASSERT_LOG and os.path.exists(ASSERT_LOG) and os.path.getsize(ASSERT_LOG):
            raise AssertionError(f"{UNIT}: cycle {cycle}: RTL assertion(s) failed: {open(ASSERT_LOG).read().split()}")
        want = {name: model.outputs[name] for name in unit.OUTPUTS}
        if got != want:
            diff = [k for k in unit.OUTPUTS if got[k] != want[k]]
            n = model.outputs["input"]
            shown = f"the result of input {n}: {inputs[n]}" if n is not None else "after reset"
            raise AssertionError(
                f"{UNIT}: cycle {cycle} ({what}): outputs {diff} differ; expected {shown}\n"
                f"  model {describe(want)}\n  rtl   {describe(got)}")

    # The opening reset: low across one edge, released before the next.
    dut.rst_ni.value = 0
    drive(idle, False)
    model.set_reset(True)
    await RisingEdge(dut.clk_i)
    model.step(False, None)
    await check(-1, "reset")
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    model.set_reset(False)

    reset_at = rng.randrange(VECTORS // 4, VECTORS // 2) if VECTORS > 8 else -1
    cycles = 0
    start = time.perf_counter()
    n = 0
    while n < VECTORS:
        valid = rng.random() < 0.85
        if cycles == reset_at:
            # A reset in the middle: rst_ni low across one edge, inputs still driven.
            dut.rst_ni.value = 0
            model.set_reset(True)
        drive(unit.in_ports(inputs[n]), valid)
        await RisingEdge(dut.clk_i)
        model.step(valid, results[n])
        await check(cycles, f"input {n} driven, {'valid' if valid else 'idle'}")
        await FallingEdge(dut.clk_i)
        if cycles == reset_at:
            dut.rst_ni.value = 1
            model.set_reset(False)
        n += valid
        cycles += 1
    # Drain: the last result reaches the outputs.
    for k in range(2):
        drive(idle, False)
        await RisingEdge(dut.clk_i)
        model.step(False, None)
        await check(cycles + k, "drain")
        await FallingEdge(dut.clk_i)
    elapsed = time.perf_counter() - start
    rate = VECTORS / elapsed
    dut._log.info(f"{UNIT}: {VECTORS} vectors, {cycles + 2} cycles, {elapsed:.1f} s, {rate:,.0f} vectors/s")
    if os.environ.get("GCN_VMEM_RATE_FILE"):
        with open(os.environ["GCN_VMEM_RATE_FILE"], "w") as f:
            f.write(f"{UNIT} {VECTORS} {cycles + 2} {elapsed:.3f} {rate:.0f}\n")
