#!/usr/bin/env bash
# The DPI-C bench's verdict (make dpi; usable from CI once built):
#   0. the C example gives the expected outputs, on the staticlib and the cdylib alike;
#   1. the bench on the RTL as written must print PASS and exit 0;
#   2. the bench on buffer_addr's test-only mutant (rtl/test/buffer_addr_mut.svh compiled in,
#      cosim/units.txt) must fail: exit non-zero with a buffer_addr MISMATCH line.
# Usage: tests/dpi/run.sh DIR SEED CYCLES   (DIR holds bench/dpi_tb, bench_mut/dpi_tb, example,
# example_so)
# Prints the pass run's cycles, valid vectors and vectors per second (wall clock of the whole
# binary: start, reset, run). Exit 0 when both verdicts hold, 1 otherwise.
set -uo pipefail
dir=${1:?usage: run.sh DIR SEED CYCLES} seed=${2:-1} cycles=${3:-1000000}

# The C example, on the staticlib and on the cdylib: record 3 of a structured buffer at 0x1000
# with 16-byte records, offset 4, is 0x1000 + 3 * 16 + 4 = 0x1034 (SPEC §2.3), two edges later.
"$dir/example" >"$dir/example.log" 2>&1 || { cat "$dir/example.log"; echo "FAIL: $dir/example" >&2; exit 1; }
cat "$dir/example.log"
if ! grep -q '^cycle 1: .* valid_o 1 address_o 0x1034 in_range_o 0x1$' "$dir/example.log" \
   || ! "$dir/example_so" | cmp -s - "$dir/example.log"; then
  echo "FAIL: the C example's output is not the expected one, or differs on the cdylib" >&2
  exit 1
fi

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
  echo "FAIL: the bench did not catch buffer_addr's mutant (exit $rc): $dir/mutant.log" >&2
  exit 1
fi
echo "ok: the bench passes on the RTL as written and fails on buffer_addr's mutant (exit $rc)"
