#!/usr/bin/env bash
# Measures ld.so's lazy binding under Valgrind for the C library functions the simulation calls
# and writes sim/lazy_binding_table.inc (bench/lazy_binding/measure.py says what is in it).
# Usage: bench/lazy_binding/measure.sh [output file]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/../../sim/lazy_binding_table.inc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -DWITH_LIBM -o "$work/probe-libm" "$here/probe.c" -lm
gcc -O2 -o "$work/probe" "$here/probe.c"
for p in probe-libm probe; do
  valgrind --tool=lackey --trace-mem=yes --log-file="$work/$p.lackey" "$work/$p" >/dev/null
done
python3 "$here/measure.py" "$work/probe-libm" "$work/probe-libm.lackey" "$work/probe" "$work/probe.lackey" >"$out"
echo "wrote $out"
