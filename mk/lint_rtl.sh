#!/bin/sh
# `make lint-rtl`: `verilator --lint-only -Wall` on every unit as written and on each of its
# test-only variants (the break-asserts hooks rtl/test/<unit>_brk*.svh, the mutant hooks
# rtl/test/<unit>_mut*.svh), as many at a time as the machine has CPUs. Each command is printed;
# the first one that fails is named again at the end and the script exits 1.
#
# Usage: mk/lint_rtl.sh VERILATOR UNIT...
set -eu
[ $# -ge 2 ] || { echo "usage: $0 VERILATOR UNIT..." >&2; exit 2; }
verilator=$1
shift
pkgs=$(ls rtl/*_pkg.sv | sort | tr '\n' ' ')
list=$(mktemp)
failed=$(mktemp)
trap 'rm -f "$list" "$failed"' EXIT
for u in "$@"; do
	echo "$u" >>"$list"
	for v in brk mut; do
		hooks=$(cd rtl/test && ls "${u}_$v.svh" "${u}_${v}"_*.svh 2>/dev/null | sed 's/\.svh$//' | tr '\n' ' ' | sed 's/ *$//')
		[ -n "$hooks" ] && echo "$u $hooks" >>"$list"
	done
done
# One line a lint: the unit, then the hooks of a variant (none: the RTL as written); no line
# may end in a blank, which xargs -L reads as continued on the next.
export verilator pkgs failed
xargs -P "$(nproc 2>/dev/null || echo 2)" -L 1 sh -c '
	u=$1; shift
	defines=""
	[ $# -gt 0 ] && defines="+define+VMEM_TEST_HOOKS $(printf "+define+VMEM_TEST_%s " "$@")"
	echo "verilator --lint-only -Wall $defines rtl/$u.sv"
	# shellcheck disable=SC2086  # the defines and packages are lists of words
	"$verilator" --lint-only -Wall $defines --top-module "$u" -y rtl rtl/lint/verilator.vlt $pkgs "rtl/$u.sv" ||
		echo "verilator --lint-only -Wall $defines rtl/$u.sv" >>"$failed"
' lint <"$list"
if [ -s "$failed" ]; then
	echo "error: the lint failed (warnings above) for:" >&2
	cat "$failed" >&2
	exit 1
fi
