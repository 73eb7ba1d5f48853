#!/usr/bin/env bash
# Stencils with a time loop at about 10^10 accesses (issue 9: "finish in seconds"): for each
# kernel, the time-step count that makes 10^10 accesses (from two short runs), then one timed
# `cats-static simulate --compiler gcc -O2` with Cachegrind's geometry. Warping over repeating
# time steps (docs/performance.md, "Warping") is what makes this independent of the step count.
# Usage: bench/warp_stencils.sh [--accesses N] [path/to/cats-static]
set -euo pipefail
orig=$PWD
cd "$(dirname "$0")/.."
target=10000000000
if [ "${1:-}" = "--accesses" ]; then target=$2; shift 2; fi
bin=$(cd "$orig" && realpath -m "${1:-build/driver/cats-static}")
geometry=(--D1=32768,8,64 --LL=262144,8,64)
# kernel=N: arrays from in-cache to several times the last level
set_=(bench/fidelity-corpus/jacobi1d.c=1600000 bench/fidelity-corpus/jacobi2d.c=1400 bench/fidelity-corpus/seidel2d.c=1800
  bench/fidelity-corpus/heat3d.c=130 examples/jacobi-2d=200 examples/jacobi-2d=2000)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

accesses() {  # accesses of one simulation
  "$bin" simulate "$1" -D N="$2" -D TSTEPS="$3" --compiler gcc -O2 "${geometry[@]}" --format json -o "$work/out.json" >/dev/null
  python3 -c "import json; print(json.load(open('$work/out.json'))['accesses'])"
}

printf "%-36s %8s %8s %16s %9s %10s\n" kernel N TSTEPS accesses seconds "G acc/s"
for spec in "${set_[@]}"; do
  src=${spec%=*} n=${spec#*=}
  a2=$(accesses "$src" "$n" 2) a3=$(accesses "$src" "$n" 3)
  per=$((a3 - a2))
  steps=$(( (target - a2) / per + 2 ))
  start=$(date +%s.%N)
  total=$(accesses "$src" "$n" "$steps")
  end=$(date +%s.%N)
  secs=$(python3 -c "print(f'{$end - $start:.2f}')")
  printf "%-36s %8s %8s %16s %9s %10s\n" "$src" "$n" "$steps" "$total" "$secs" "$(python3 -c "print(f'{$total / ($end - $start) / 1e9:.1f}')")"
done
