#!/usr/bin/env bash
# Compares cats-static's predicted misses with Cachegrind's on the same kernel, same geometry.
# Usage: bench/fidelity.sh [--quick] [path/to/cats-static]
#   prints one row per (example, N, optimisation level): D1/LL read and write misses of the
#   kernel function from Cachegrind and from cats-static, and the relative deviation.
# bench/fidelity.sh --plain [options of bench/fidelity_plain.sh]
#   the corpus built the way users build it (plain gcc/clang -O2, inlining on): fidelity_plain.sh
set -euo pipefail
[ "${1:-}" = "--plain" ] && { shift; exec "$(dirname "$0")/fidelity_plain.sh" "$@"; }
cd "$(dirname "$0")/.."
quick=0
[ "${1:-}" = "--quick" ] && { quick=1; shift; }
bin=${1:-build/driver/cats-static}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
D1=32768,8,64
LL=262144,8,64
sizes="100 200 300 400 500"
[ $quick = 1 ] && sizes="100 200"

# example directory | kernel function | macro for the size | extra macros
cases=(
  "matmul-stack|matrix_mul|N|"
  "matmul-static|matrix_mul|N|"
  "matmul-heap|multiply|N|"
  "matmul-ikj|multiply_ikj|N|"
  "jacobi-2d|jacobi_2d|N|-DTSTEPS=4"
  "transpose|transpose|N|"
)

printf "%-14s %4s %3s | %-29s | %-29s | %-29s | %-29s\n" example N opt "D1 read misses (cg/cats/dev)" "D1 write misses" "LL read misses" "LL write misses"
worst=0
for entry in "${cases[@]}"; do
  IFS='|' read -r example kernel macro extra <<<"$entry"
  for n in $sizes; do
    for opt in O0 O2; do
      src=$(ls examples/$example/*.c)
      exe=$work/$example-$n-$opt
      # -fno-inline keeps the kernel a function of its own at -O2, as Cachegrind reports per function;
      # -fno-tree-loop-distribute-patterns keeps zeroing loops in the kernel instead of a memset call.
      # The model is told the same flags.
      flags="-fno-inline -fno-tree-loop-distribute-patterns"
      gcc -$opt $flags -g -D$macro=$n $extra -o "$exe" $src
      valgrind --tool=cachegrind --cache-sim=yes --D1=$D1 --LL=$LL --I1=$D1 \
        --cachegrind-out-file="$exe.cg" "$exe" >/dev/null 2>&1
      python3 bench/cachegrind_misses.py "$exe.cg" > "$exe.cg.json"
      defs="-D $macro=$n"
      [ -n "$extra" ] && defs="$defs -D ${extra#-D}"
      "$bin" simulate examples/$example $defs -O ${opt#O} --cflags="$flags" --D1=$D1 --LL=$LL --format json -o "$exe.cats.json" 2>/dev/null
      python3 - "$exe.cg.json" "$exe.cats.json" "$kernel" "$example" "$n" "$opt" <<'PY'
import json, sys
cg = json.load(open(sys.argv[1]))[sys.argv[3]]
cats = json.load(open(sys.argv[2]))["by_compiled_function"][sys.argv[3]]
pairs = [("D1mr", "D1", "read_misses"), ("D1mw", "D1", "write_misses"), ("DLmr", "LL", "read_misses"), ("DLmw", "LL", "write_misses")]
cells = []
worst = 0.0
for cgk, level, key in pairs:
    a, b = cg[cgk], cats[level][key]
    dev = 0.0 if a == b else (abs(b - a) / max(a, 1) * 100.0)
    if a >= 100:  # deviations of tiny counts are noise
        worst = max(worst, dev)
    cells.append("%9d %9d %6.2f%%" % (a, b, dev))
print("%-14s %4s %3s | %s" % (sys.argv[4], sys.argv[5], sys.argv[6], " | ".join(cells)))
with open(sys.argv[2] + ".worst", "w") as f:
    f.write("%f" % worst)
PY
      w=$(cat "$exe.cats.json.worst")
      worst=$(python3 -c "print(max($worst, $w))")
    done
  done
done
echo "worst deviation on counts >= 100: ${worst}%"
