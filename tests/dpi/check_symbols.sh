#!/usr/bin/env bash
# The functions the generated header (make dpi: target/dpi/include/gcn_vmem_dpi.h) declares are
# exactly the gcn_vmem_* symbols the built libraries export (the staticlib and the cdylib).
# Usage: check_symbols.sh HEADER LIB.a LIB.so
set -euo pipefail
header=$1 staticlib=$2 cdylib=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Prototypes: lines that start with a type and name a gcn_vmem_ function (not the static inline
# helpers, which the header defines itself).
grep -E '^[a-z].*[ *]gcn_vmem_[a-z0-9_]+\(' "$header" | grep -v '^static' \
  | sed -E 's/.*[ *](gcn_vmem_[a-z0-9_]+)\(.*/\1/' | sort -u >"$tmp/declared"
nm -g --defined-only "$staticlib" 2>/dev/null | awk '$2 == "T" && $3 ~ /^gcn_vmem_/ { print $3 }' \
  | sort -u >"$tmp/static"
nm -D --defined-only "$cdylib" | awk '$2 == "T" && $3 ~ /^gcn_vmem_/ { print $3 }' | sort -u >"$tmp/dynamic"
status=0
for lib in static dynamic; do
  if ! diff -u "$tmp/declared" "$tmp/$lib" >"$tmp/diff"; then
    echo "check_symbols: $header and the $lib library differ (- declared only, + exported only):" >&2
    cat "$tmp/diff" >&2
    status=1
  fi
done
[ $status = 0 ] && echo "check_symbols: $(wc -l <"$tmp/declared") functions declared in $header, all exported by both libraries, nothing else"
exit $status
