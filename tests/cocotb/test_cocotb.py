"""Builds rtl/<unit>.sv under Verilator with cocotb's runner and runs bench.py on it (`make cocotb`):
buffer_addr and swizzle as written must pass; buffer_addr's test-only mutant (its test hook
rtl/test/buffer_addr_mut.svh compiled in, as build.rs builds it; cosim/units.txt) must fail. Each run's vectors/s goes to target/cocotb/<name>/rate.txt."""

import os
import pathlib

import warnings

import pytest

with warnings.catch_warnings():
    # cocotb 1.9 marks its Python runner experimental; 2.x (which needs a newer Verilator) keeps it.
    warnings.simplefilter("ignore", UserWarning)
    from cocotb.runner import get_results, get_runner

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BUILD = ROOT / "target" / "cocotb"


def run(name, unit, hooks=(), vectors=None):
    build_dir = BUILD / name
    build_dir.mkdir(parents=True, exist_ok=True)
    packages = sorted((ROOT / "rtl").glob("*_pkg.sv"))
    runner = get_runner("verilator")
    # Test hooks (rtl/vmem_prim_pkg.sv `VMEM_TEST_HOOK`): rtl/test/<hook>.svh in place of the
    # unit's hook point, included from the repository root.
    defines = {"VMEM_TEST_HOOKS": 1, **{f"VMEM_TEST_{h}": 1 for h in hooks}} if hooks else {}
    runner.build(
        sources=[*packages, ROOT / "rtl" / f"{unit}.sv"],
        hdl_toplevel=unit,
        includes=[ROOT],
        defines=defines,
        # The waivers of the project's lint, assertions on, the DPI hook of VMEM_ASSERT.
        build_args=[str(ROOT / "rtl" / "lint" / "verilator.vlt"), "--assert", "-Wno-fatal",
                    str(HERE / "assert_hook.cc")],
        build_dir=build_dir,
        always=False,
    )
    log = build_dir / "assertions.log"
    log.unlink(missing_ok=True)
    rate = build_dir / "rate.txt"
    rate.unlink(missing_ok=True)
    env = {"GCN_VMEM_UNIT": unit, "GCN_VMEM_ASSERT_LOG": str(log), "GCN_VMEM_RATE_FILE": str(rate),
           "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}
    if vectors is not None:
        env["COCOTB_VECTORS"] = str(vectors)
    results = build_dir / "results.xml"
    results.unlink(missing_ok=True)
    # cocotb's runner refuses results_xml under pytest (it names the file after the pytest test
    # and raises on a failing testcase); this test reads the counts itself.
    saved = os.environ.pop("PYTEST_CURRENT_TEST", None)
    try:
        runner.test(hdl_toplevel=unit, test_module="bench", test_dir=build_dir, build_dir=build_dir, extra_env=env,
                    results_xml=str(results))
    finally:
        if saved is not None:
            os.environ["PYTEST_CURRENT_TEST"] = saved
    tests, failed = get_results(results)
    if rate.exists():
        print(f"{name}: {rate.read_text().strip()}")
    return tests, failed


@pytest.mark.parametrize("unit", ["buffer_addr", "swizzle"])
def test_rtl_as_written_passes(unit):
    assert run(unit, unit) == (1, 0)


def test_buffer_addr_mutant_fails():
    # The mutant drops the index_lsb * E term of the swizzled address (rtl/test/buffer_addr_mut.svh).
    tests, failed = run("buffer_addr_mutant", "buffer_addr", hooks=["buffer_addr_mut"], vectors=2000)
    assert (tests, failed) == (1, 1), "the bench did not catch buffer_addr's mutant"
