#!/usr/bin/env bash
# Speed, side by side in one run: `cats-static simulate` on naive matrix multiply N=500 versus
# the compiled program under `valgrind --tool=cachegrind --cache-sim=yes`, same geometry.
# Then the cache core alone (build/bench/cache_bench) in accesses per second.
# Usage: bench/speed.sh [N] [path/to/cats-static]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-500}
bin=${2:-build/driver/cats-static}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
geometry="--D1=32768,8,64 --LL=262144,8,64"

seconds() { /usr/bin/time -f "%e" "$@" 2>&1 >/dev/null | tail -1; }

gcc -O2 -fno-inline -fno-tree-loop-distribute-patterns -DN="$n" -o "$work/matmul" examples/matmul-heap/matmul.c
cg=$(seconds valgrind --tool=cachegrind --cache-sim=yes $geometry --I1=32768,8,64 --cachegrind-out-file=/dev/null "$work/matmul")
native=$(seconds "$work/matmul")
cats=$(seconds "$bin" simulate examples/matmul-heap -D N="$n" -O 2 --cflags="-fno-inline -fno-tree-loop-distribute-patterns" $geometry --format json -o "$work/out.json")
catsClasses=$(seconds "$bin" simulate examples/matmul-heap -D N="$n" -O 2 --cflags="-fno-inline -fno-tree-loop-distribute-patterns" $geometry --miss-classes --format json -o "$work/out2.json")
accesses=$(python3 -c "import json; print(json.load(open('$work/out.json'))['accesses'])")
echo "naive matrix multiply N=$n, -O2 build, D1 32 KiB/8-way, LL 256 KiB/8-way, 64 B lines"
printf "  %-44s %8s s\n" "native run" "$native"
printf "  %-44s %8s s\n" "valgrind --tool=cachegrind --cache-sim=yes" "$cg"
printf "  %-44s %8s s   (%s accesses, %.0f M/s)\n" "cats-static simulate (analysis included)" "$cats" "$accesses" \
  "$(python3 -c "print($accesses / max($cats, 1e-9) / 1e6)")"
printf "  %-44s %8s s\n" "cats-static simulate --miss-classes" "$catsClasses"
printf "  speed-up over Cachegrind: %.1fx\n" "$(python3 -c "print($cg / max($cats, 1e-9))")"
if [ -x build/bench/cache_bench ]; then
  echo
  echo "cache core alone (Google Benchmark, items_per_second = accesses per second):"
  build/bench/cache_bench --benchmark_min_time=0.5 2>/dev/null | grep -E "^BM_|items_per_second" || true
fi
