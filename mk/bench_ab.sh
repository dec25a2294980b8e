#!/bin/sh
# A/B of two gcn-vmem binaries on one machine (`make bench-ab A=old B=new`): for each unit and
# round, both run `bench --unit U` at the same time, each pinned to a CPU of its own (the two
# swap CPUs every round), so that both see the machine in the same state; a shared machine's
# state moves cosim/C++ by several hundredths between runs made minutes apart, which hides a
# change of one or two hundredths (docs/perf-history.md "Round 11"). Prints each round's cosim/C++ of
# both, then per unit the medians and the mean of the rounds' differences B - A.
#
# Environment: UNITS (default the units of random vectors, as binary B lists them with
# `gcn-vmem units --open-loop`, or A when B has no such flag), ROUNDS (default 6), VECTORS
# (per bench, default 1500000), CPUS (two CPU numbers, default the last two).
set -eu

usage() {
	echo "usage: $0 BINARY_A BINARY_B (two gcn-vmem binaries, e.g. target/release/gcn-vmem and a copy of an earlier build)" >&2
	exit 2
}
[ $# -eq 2 ] || usage
a=$1
b=$2
for bin in "$a" "$b"; do
	[ -x "$bin" ] || { echo "error: $bin is not an executable gcn-vmem binary; build one with make build and copy target/release/gcn-vmem" >&2; exit 2; }
done
command -v taskset >/dev/null 2>&1 || { echo "error: taskset (util-linux) is missing: apt-get install -y util-linux" >&2; exit 2; }

units=${UNITS:-}
if [ -z "$units" ]; then
	units=$("$b" units --open-loop 2>/dev/null || "$a" units --open-loop 2>/dev/null) || {
		echo "error: neither binary lists its units of random vectors (gcn-vmem units --open-loop); set UNITS=\"unit …\"" >&2
		exit 2
	}
fi
rounds=${ROUNDS:-6}
vectors=${VECTORS:-1500000}
n=$(nproc)
[ "$n" -ge 2 ] || { echo "error: an A/B needs two CPUs; this machine has $n" >&2; exit 2; }
set -- ${CPUS:-$((n - 2)) $((n - 1))}
cpu0=$1
cpu1=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# The cosim/C++ column of one bench row (the row of unit $3, run by binary $2 on CPU $1).
row() {
	taskset -c "$1" "$2" bench --unit "$3" --vectors "$vectors" | awk -v u="$3" '$1 == u { print $9; exit }'
}

echo "round unit A B (cosim/C++; A = $a, B = $b, CPUs $cpu0 and $cpu1, $vectors vectors)"
r=1
while [ "$r" -le "$rounds" ]; do
	for u in $units; do
		if [ $((r % 2)) -eq 1 ]; then ca=$cpu0 cb=$cpu1; else ca=$cpu1 cb=$cpu0; fi
		row "$ca" "$a" "$u" >"$out/a" &
		pa=$!
		row "$cb" "$b" "$u" >"$out/b" &
		pb=$!
		wait "$pa" "$pb"
		[ -s "$out/a" ] && [ -s "$out/b" ] || { echo "error: a bench of $u gave no row (run each binary's bench --unit $u alone to see why)" >&2; exit 1; }
		echo "$r $u $(cat "$out/a") $(cat "$out/b")" | tee -a "$out/rows"
	done
	r=$((r + 1))
done

echo
echo "unit A(median) B(median) mean(B-A)"
for u in $units; do
	awk -v u="$u" '$2 == u { a[++k] = $3; b[k] = $4; d += $4 - $3 }
		function median(x, k,   i, j, t) {
			for (i = 2; i <= k; i++) for (j = i; j > 1 && x[j - 1] > x[j]; j--) { t = x[j]; x[j] = x[j - 1]; x[j - 1] = t }
			return k % 2 ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2
		}
		END { if (k) printf "%s %.3f %.3f %+.3f\n", u, median(a, k), median(b, k), d / k }' "$out/rows"
done
