#!/usr/bin/env bash
# Instructions per access of the cache engines (Callgrind), per stream: stable where wall times
# are not. Each case runs cache_replay twice (A and 2A accesses after the warm-up) and prints the
# difference divided by A.
# Usage: bench/cache_ir.sh [path/to/cache_replay] (default build/bench/cache_replay)
set -euo pipefail
replay=${1:-build/bench/cache_replay}
accesses=1000000
refs() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$replay" "$@" 2>&1 | sed -n 's/.*I *refs: *//p' | tr -d ,; }
printf '%-8s %-14s %-7s %12s\n' engine inclusion stream "Ir/access"
for engine in mru general; do
  for inclusion in non-inclusive inclusive exclusive; do
    for stream in hits stride lines llhits random matmul; do
      one=$(refs "$engine" "$inclusion" "$stream" "$accesses")
      two=$(refs "$engine" "$inclusion" "$stream" $((2 * accesses)))
      printf '%-8s %-14s %-7s %12.1f\n' "$engine" "$inclusion" "$stream" "$(echo "($two - $one) / $accesses" | bc -l)"
    done
  done
done
