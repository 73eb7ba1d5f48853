#!/usr/bin/env bash
# Speed of the scaling analysis (docs/polyhedral.md, "Speed"):
#  1. a 30-point `scale` without --simulate against one `simulate` at the largest point, on the
#     naive matrix multiply (formulas are derived once and evaluated per point; the target is
#     well under a tenth of the simulation);
#  2. deriving the count formulas (`analyze --counts`) of 30 PolyBench-like kernels
#     (bench/gen_kernels.py), each kernel on its own and all together (target: < 30 s in all).
# Usage: bench/scale_speed.sh [path/to/cats-static]   (LARGEST=N changes the largest point, default 500)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/driver/cats-static}
largest=${LARGEST:-500}
seconds() { /usr/bin/time -f "%e" "$@" 2>&1 >/dev/null | tail -1; }

kernel=examples/matmul-heap/matmul.c
scale_s=$(seconds "$bin" scale "$kernel" --entry multiply -D "n=50..$largest" --points 30 --metric accesses --metric bytes --metric misses_D1)
sim_s=$(seconds "$bin" simulate "$kernel" --entry multiply -D "n=$largest")
echo "1. matmul (--entry multiply), n = 50..$largest"
printf "   scale, 30 points, no --simulate:  %8s s\n" "$scale_s"
printf "   simulate at n = %-5s            %8s s\n" "$largest" "$sim_s"
awk -v a="$scale_s" -v b="$sim_s" 'BEGIN { if (b > 0) printf "   ratio:                            %8.4f (target < 0.1)\n", a / b }'
echo "   how the predicted values were obtained (cells per method, all points and groups):"
"$bin" scale "$kernel" --entry multiply -D "n=50..$largest" --points 30 --metric accesses --metric bytes --metric misses_D1 --format csv |
  awk -F, 'NR > 1 { m = $8 == "" ? "none" : $8; n[$5 " " m]++ } END { for (k in n) printf "     %-24s %6d\n", k, n[k] }' | sort

kernels=$(mktemp -d)
python3 bench/gen_kernels.py "$kernels"
echo "2. analyze --counts on 30 kernels ($kernels)"
total=0
for f in "$kernels"/*.c; do
  s=$(seconds "$bin" analyze "$f" --counts)
  total=$(awk -v t="$total" -v s="$s" 'BEGIN { print t + s }')
  printf "   %-20s %6s s\n" "$(basename "$f" .c)" "$s"
done
printf "   sum over the 30 kernels:  %8s s (target < 30 s)\n" "$total"
printf "   all 30 in one run:        %8s s\n" "$(seconds "$bin" analyze "$kernels" --counts)"
rm -rf "$kernels"
