# The Python package `gcn_vmem_model` (rust/python/, PyO3 + maturin) and the cocotb bench
# (tests/cocotb/): docs/integrations/python.md, docs/integrations/cocotb.md.
#
# make python        a virtual environment (target/python/venv) with the pinned tools, fmt and
#                    clippy of the crate, the wheel built and installed, its tests (pytest)
# make python-bench  calls/s of eval one at a time and in batches (docs/perf.md "Python")
# make cocotb        the cocotb bench of buffer_addr and swizzle under Verilator, on the RTL as
#                    written and on buffer_addr's test-only mutant (which must fail)
#
# The crate builds outside the workspace into its own target directory (target/python/cargo),
# so it never waits on or invalidates the main build.

PY_DIR       := target/python
PY_VENV      := $(PY_DIR)/venv
PY           := $(PY_VENV)/bin/python
PY_CARGO_DIR := $(CURDIR)/$(PY_DIR)/cargo
PY_MANIFEST  := rust/python/Cargo.toml
PY_WHEELS    := $(PY_DIR)/wheels
MATURIN_VERSION := 1.15.0
PYTEST_VERSION  := 8.4.2
# cocotb 2.x needs a newer Verilator than Debian's 5.006; 1.9 supports it.
COCOTB_VERSION  := 1.9.2
# For the tests of eval_batch on numpy arrays (the package itself does not need numpy).
NUMPY_VERSION   := 2.3.5
# The stamp names the pins, so changing one reinstalls.
PY_STAMP     := $(PY_VENV)/tools-maturin$(MATURIN_VERSION)-pytest$(PYTEST_VERSION)-cocotb$(COCOTB_VERSION)-numpy$(NUMPY_VERSION).installed
PY_SOURCES   := $(wildcard rust/python/src/*.rs) rust/python/Cargo.toml rust/python/pyproject.toml \
                $(wildcard rust/*.rs rust/*/*.rs)
# The unit table's source (rust/python/build.rs generates it from the list).
PY_SOURCES   += cosim/units.txt cosim/unit_list.rs
PY_INSTALLED := $(PY_DIR)/wheel.installed

.PHONY: python python-venv python-wheel python-lint python-bench cocotb

python-venv: $(PY_STAMP)
$(PY_STAMP):
	$(call pip_install,$(PY_VENV),maturin==$(MATURIN_VERSION) pytest==$(PYTEST_VERSION) cocotb==$(COCOTB_VERSION) numpy==$(NUMPY_VERSION))
	@rm -f $(PY_VENV)/tools-*.installed && touch $@

# fmt (check) and clippy of the crate.
python-lint: $(PY_STAMP)
	$(CARGO) fmt --manifest-path $(PY_MANIFEST) -- --check
	CARGO_TARGET_DIR=$(PY_CARGO_DIR) $(CARGO) clippy --release --manifest-path $(PY_MANIFEST) --all-targets -- -D warnings

python-wheel: $(PY_INSTALLED)
$(PY_INSTALLED): $(PY_STAMP) $(PY_SOURCES)
	@rm -rf $(PY_WHEELS)
	CARGO_TARGET_DIR=$(PY_CARGO_DIR) $(PY_VENV)/bin/maturin build --release --quiet -m $(PY_MANIFEST) -i $(PY) -o $(PY_WHEELS)
	$(PY_VENV)/bin/pip install --quiet --disable-pip-version-check --force-reinstall --no-deps $(PY_WHEELS)/gcn_vmem_model-*.whl
	@touch $@

# The tests cross-check against target/release/gcn-vmem when it is built (make build) and skip
# those checks otherwise.
python: python-lint python-wheel
	$(PY) -m pytest -q rust/python/tests

PY_BENCH_N ?= 200000
python-bench: python-wheel
	$(PY) rust/python/bench.py --n $(PY_BENCH_N)

# The cocotb bench (tests/cocotb/): Verilator 5.006 (make deps) and the wheel.
COCOTB_VECTORS ?= 20000
cocotb: deps python-wheel
	PATH="$(CURDIR)/$(PY_VENV)/bin:$$PATH" COCOTB_VECTORS=$(COCOTB_VECTORS) $(PY) -m pytest -q tests/cocotb
	@echo "unit vectors cycles seconds vectors/s (the RTL as written)"
	@cat target/cocotb/buffer_addr/rate.txt target/cocotb/swizzle/rate.txt
