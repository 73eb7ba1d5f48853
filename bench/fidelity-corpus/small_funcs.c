/* small_funcs: a grid update written with tiny accessor functions (get/set/idx), one marked
   always_inline and one noinline, on a static 2-D array stored as 1-D.
   Exercises: the small-function inliner (tiny static helpers disappear into their caller) next
   to a noinline helper that stays a call per element (Cachegrind names it on its own).
   fidelity-sizes: N 40 180 570
   fidelity-decision: tiny helpers inlined; noinline put called per element (its own function); index via idx() return value */
#include <stdio.h>

#ifndef N
#define N 300
#endif

static double grid[N * N];
static double rowsum[N];

static inline __attribute__((always_inline)) int idx(int i, int j) { return i * N + j; }

static double get(int i, int j) { return grid[idx(i, j)]; }

__attribute__((noinline)) static void put(int i, int j, double v) { grid[idx(i, j)] = v; }

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      put(i, j, (i + j) % 10);
  for (int i = 0; i < N; i++) {
    double s = 0.0;
    for (int j = 0; j < N; j++)
      s += get(i, j);
    rowsum[i] = s;
  }
  for (int j = 0; j < N; j++)
    for (int i = 1; i < N; i++)
      put(i, j, get(i - 1, j) + get(i, j));
  printf("%f %f\n", rowsum[N / 2], grid[N * N - 1]);
  return 0;
}
