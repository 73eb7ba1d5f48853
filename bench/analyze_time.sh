#!/usr/bin/env bash
# Wall time and peak memory of `cats-static analyze` on every example (median of 5 runs),
# and the trace size in events. Usage: bench/analyze_time.sh [path/to/cats-static]
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/driver/cats-static}
printf "%-16s %10s %12s %8s\n" example "median s" "peak RSS MB" events
for dir in examples/*/; do
  target=${dir%/}
  [ -d "$target/src" ] && target="$target/src"
  samples=$(for run in 1 2 3 4 5; do
    /usr/bin/time -f "%e %M" "$bin" analyze "$target" --dump trace -o /dev/null 2>&1 >/dev/null | tail -1
  done | sort -n)
  median=$(echo "$samples" | sed -n 3p | cut -d' ' -f1)
  rss=$(echo "$samples" | cut -d' ' -f2 | sort -n | tail -1)
  events=$("$bin" analyze "$target" --dump trace 2>/dev/null | grep -cE '"kind": "(access|alloc|free)"' || true)
  printf "%-16s %10s %12s %8s\n" "$(basename "${dir%/}")" "$median" "$((rss / 1024))" "$events"
done

# A synthetic program far larger than the examples: K kernels of a 3-deep loop nest with a
# stencil and a struct field each, all called from main, in one translation unit.
kernels=${KERNELS:-400}
big=$(mktemp -d)/synthetic.c
{
  echo "#include <stdlib.h>"
  echo "struct cell { double v[4]; double w; int tag; };"
  for k in $(seq 1 "$kernels"); do
    cat <<C
void kernel_$k(int n, double *restrict a, const double *b, struct cell *c) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++) {
      for (int q = 0; q < 4; q++) c[i * n + j].v[q] += b[(i - 1) * n + j] + b[(i + 1) * n + j];
      if (c[i * n + j].tag > $k) a[j * n + i] = c[i * n + j].w * b[i * n + j - 1];
    }
}
C
  done
  echo "int main(void) { int n = 512; double *a = malloc(8 * n * n); double *b = malloc(8 * n * n);"
  echo "  struct cell *c = malloc(sizeof(struct cell) * n * n);"
  for k in $(seq 1 "$kernels"); do echo "  kernel_$k(n, a, b, c);"; done
  echo "  free(a); free(b); free(c); return 0; }"
} > "$big"
/usr/bin/time -f "%e %M" "$bin" analyze "$big" --dump trace -o /dev/null 2>"$big.time" >/dev/null
read -r seconds rss < <(tail -1 "$big.time")
events=$("$bin" analyze "$big" --dump trace 2>/dev/null | grep -cE '"kind": "(access|alloc|free)"' || true)
printf "%-16s %10s %12s %8s   (%d kernels, %d lines)\n" "synthetic" "$seconds" "$((rss / 1024))" "$events" "$kernels" "$(wc -l < "$big")"
