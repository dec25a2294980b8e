#!/usr/bin/env bash
# The DPI-C bench's verdict (make dpi; usable from CI once built):
#   1. the bench on the RTL as written must print PASS and exit 0;
#   2. the bench on buffer_addr's test-only mutant (TestBreakSwizzle=1, cosim/units.txt) must
#      fail: exit non-zero with a buffer_addr MISMATCH line.
# Usage: tests/dpi/run.sh DIR SEED CYCLES   (DIR holds bench/dpi_tb and bench_mut/dpi_tb)
# Prints the pass run's cycles, valid vectors and vectors per second (wall clock of the whole
# binary: start, reset, run). Exit 0 when both verdicts hold, 1 otherwise.
set -uo pipefail
dir=${1:?usage: run.sh DIR SEED CYCLES} seed=${2:-1} cycles=${3:-1000000}

start=$(date +%s.%N)
"$dir/bench/dpi_tb" +seed="$seed" +cycles="$cycles" >"$dir/pass.log" 2>&1
rc=$?
end=$(date +%s.%N)
cat "$dir/pass.log"
if [ $rc -ne 0 ] || ! grep -q '^PASS dpi_tb' "$dir/pass.log"; then
  echo "FAIL: the bench failed on the RTL as written (exit $rc): $dir/pass.log" >&2
  exit 1
fi
awk -v s="$start" -v e="$end" '/^PASS dpi_tb/ {
  for (i = 1; i <= NF; i++) {
    if ($i == "buffer_addr") ba = $(i + 1)
    if ($i == "format_unpack") fu = $(i + 1)
  }
  t = e - s
  printf "rate: %.2f s, %.0f vectors/s (buffer_addr and format_unpack together: %.0f valid vectors)\n", t, (ba + fu) / t, ba + fu
}' "$dir/pass.log"

"$dir/bench_mut/dpi_tb" +seed="$seed" +cycles="$cycles" +max_reports=3 >"$dir/mutant.log" 2>&1
rc=$?
head -n 8 "$dir/mutant.log"
if [ $rc -eq 0 ] || ! grep -q '^MISMATCH cycle [0-9]* buffer_addr\.' "$dir/mutant.log"; then
  echo "FAIL: the bench did not catch buffer_addr's TestBreakSwizzle mutant (exit $rc): $dir/mutant.log" >&2
  exit 1
fi
echo "ok: the bench passes on the RTL as written and fails on buffer_addr's TestBreakSwizzle mutant (exit $rc)"
