#!/usr/bin/env bash
# Accuracy of the miss model (sim::MissModel) against the simulator: runs the sweep of
# tests/miss_model_test.cpp (kernels and examples at sizes around their D1 and LL breakpoints,
# D1 4 KiB 4-way and LL 64 KiB 8-way with 64-byte lines, -O0 address streams) and prints one row
# per kernel and size with predicted and simulated misses and the relative error.
# Usage: bench/miss_accuracy.sh [path/to/cats_tests]
set -euo pipefail
cd "$(dirname "$0")/.."
tests=${1:-build/tests/cats_tests}
"$tests" "predicted D1 misses: median relative error at most 10 % over a sweep of kernels" -s |
  grep -E "(D1|LL): predicted|median|mean" |
  sed -E 's/^(.*) (D1|LL): predicted ([^,]*), simulated ([^,]*), error (.*)$/| \1 | \2 | \3 | \4 | \5 |/'
