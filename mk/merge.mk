# A run's results file and the merge of its shards into one verdict (docs/checks.md
# "Regressions across machines"):
#
#   make cosim SEED=s SHARD=k/n RESULTS=path     the run's results as JSON (`cosim --results`,
#                                                passed through GCN_VMEM_RESULTS)
#   make merge RESULTS="r1.json r2.json …" [JUNIT=path] [MERGED_COVERAGE=path] [FLAGS=--require-bins]
#                                                `gcn-vmem merge`: the per-unit table, the bins
#                                                verdict, a JUnit report, one coverage database
RESULTS         ?=
MERGED_COVERAGE ?=

ifneq ($(strip $(RESULTS)),)
cosim: export GCN_VMEM_RESULTS := $(strip $(RESULTS))
endif

.PHONY: merge
merge: build
	@if [ -z "$(strip $(RESULTS))" ]; then \
	  echo "usage: make merge RESULTS=\"r1.json r2.json …\" [JUNIT=path] [MERGED_COVERAGE=path] [FLAGS=--require-bins]" >&2; exit 2; fi
	$(BIN) merge $(RESULTS) $(if $(JUNIT),--junit $(JUNIT)) $(if $(MERGED_COVERAGE),--coverage $(MERGED_COVERAGE)) $(FLAGS)
