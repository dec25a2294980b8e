# The DPI-C library of the models and its SystemVerilog bench (docs/integrations/dpi.md):
#
#   make dpi [DPI_SEED=s] [DPI_CYCLES=n]
#       the crate rust/dpi (fmt --check, clippy -D warnings, its tests: the generated header and
#       package are current), the staticlib and cdylib, the header's symbol check, the C example,
#       then the bench tests/dpi/dpi_tb.sv (buffer_addr and format_unpack against their models
#       through DPI-C, every output every cycle) under Verilator --binary: it must pass on the RTL
#       as written and fail on buffer_addr's test-only mutant (tests/dpi/run.sh).
#
# Everything lands in target/dpi (Cargo's target dir, the benches, the example). The crate is
# outside the workspace, so `make test` and `make lint` neither build nor lint it.
DPI_DIR    := target/dpi
DPI_LIB    := $(DPI_DIR)/release/libgcn_vmem_dpi.a
DPI_SO     := $(DPI_DIR)/release/libgcn_vmem_dpi.so
DPI_HEADER := rust/dpi/include/gcn_vmem_dpi.h
DPI_CARGO  := $(CARGO) --locked
DPI_MANIFEST := --manifest-path rust/dpi/Cargo.toml --target-dir $(DPI_DIR)
# The libraries a Rust staticlib needs (`cargo rustc -- --print native-static-libs`).
DPI_LDLIBS := -lpthread -ldl -lm
DPI_SEED   ?= 1
DPI_CYCLES ?= 1000000
# The bench's sources, in compilation order: the waivers, the packages, the units, the bench.
DPI_SV := rtl/lint/verilator.vlt tests/dpi/dpi_tb.vlt $(sort $(wildcard rtl/*_pkg.sv)) \
          rust/dpi/include/gcn_vmem_dpi_pkg.sv rtl/buffer_addr.sv rtl/format_unpack.sv tests/dpi/dpi_tb.sv
DPI_VFLAGS := --timing --assert --timescale 1ns/1ps -Wall --top-module dpi_tb
# Verilator's generated C++ at -O2 (its default for the hot code is -Os).
DPI_BUILD  := --binary -j 2 -MAKEFLAGS "OPT_FAST=-O2" -o dpi_tb \
              $(abspath tests/dpi/assert_hook.cc) $(abspath $(DPI_LIB)) -LDFLAGS "$(DPI_LDLIBS)"

.PHONY: dpi dpi-crate dpi-lint

dpi: $(DPI_DIR)/bench/dpi_tb $(DPI_DIR)/bench_mut/dpi_tb $(DPI_DIR)/example $(DPI_DIR)/example_so
	tests/dpi/run.sh $(DPI_DIR) $(DPI_SEED) $(DPI_CYCLES)

# Always run: Cargo decides what to rebuild, and Make re-reads the library's time stamp after.
dpi-crate:
	cd rust/dpi && $(CARGO) fmt -- --check
	$(DPI_CARGO) clippy --release --all-targets $(DPI_MANIFEST) -- -D warnings
	$(DPI_CARGO) test --release $(DPI_MANIFEST)

$(DPI_LIB): dpi-crate
	$(DPI_CARGO) build --release $(DPI_MANIFEST)
	tests/dpi/check_symbols.sh $(DPI_HEADER) $(DPI_LIB) $(DPI_SO)

dpi-lint: deps
	$(VERILATOR) --lint-only $(DPI_VFLAGS) $(DPI_SV)

$(DPI_DIR)/example: tests/dpi/example.c $(DPI_HEADER) $(DPI_LIB)
	$(CXX) -x c++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -Irust/dpi/include tests/dpi/example.c
	$(CC) -std=c11 -Wall -Wextra -Werror -pedantic -Irust/dpi/include tests/dpi/example.c $(DPI_LIB) $(DPI_LDLIBS) -o $@

# The same example against the cdylib (what Questa's and Xcelium's -sv_lib load).
$(DPI_DIR)/example_so: tests/dpi/example.c $(DPI_HEADER) $(DPI_LIB)
	$(CC) -std=c11 -Wall -Wextra -Werror -pedantic -Irust/dpi/include tests/dpi/example.c \
	  -L$(DPI_DIR)/release -lgcn_vmem_dpi -Wl,-rpath,$(abspath $(DPI_DIR)/release) -o $@

# The bench, and the bench on buffer_addr's test-only mutant. Each then checks that the imports
# Verilator generated from the package (Vdpi_tb__Dpi.h) agree with the C header: a C++ unit
# including both fails on any differing extern "C" declaration.
$(DPI_DIR)/bench/dpi_tb $(DPI_DIR)/bench_mut/dpi_tb: $(DPI_DIR)/%/dpi_tb: $(DPI_SV) tests/dpi/assert_hook.cc $(DPI_LIB) | dpi-lint
	rm -rf $(DPI_DIR)/$*
	$(VERILATOR) $(DPI_VFLAGS) $(DPI_BUILD) -Mdir $(DPI_DIR)/$* $(if $(filter bench_mut,$*),-GTestBreakSwizzle=1\'b1) $(DPI_SV) >$(DPI_DIR)/$*.log 2>&1 \
	  || { tail -30 $(DPI_DIR)/$*.log; exit 1; }
	$(CXX) -fsyntax-only -x c++ -I$(DPI_DIR)/$* -I$$($(VERILATOR) --getenv VERILATOR_ROOT)/include/vltstd \
	  -include Vdpi_tb__Dpi.h -include $(DPI_HEADER) /dev/null
