/* constprop: a non-static strided-update kernel too big to inline, called from two sites with
   the same constant stride and factor (GCC clones it as axpy_strided.constprop.0 with the
   constants propagated; Cachegrind then names the clone).
   Exercises: interprocedural constant propagation (.constprop clones), a strided access whose
   stride becomes the constant 4 in the clone, noinline so the function stays out of line.
   fidelity-sizes: N 2000 30000 320000
   fidelity-decision: noinline kernel; constprop clone (stride and alpha constant) */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 100000
#endif

__attribute__((noinline)) static void axpy_strided(int n, int stride, double alpha, double *y, const double *x) {
  for (int i = 0; i < n; i += stride) {
    y[i] += alpha * x[i];
    y[i + 1] += alpha * x[i + 1];
  }
}

int main(void) {
  double *x = (double *)malloc(N * sizeof(double));
  double *y = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) {
    x[i] = i % 13;
    y[i] = 1.0;
  }
  axpy_strided(N - 1, 4, 3.0, y, x);
  axpy_strided(N / 2, 4, 3.0, x, y);
  printf("%f %f\n", y[N / 2], x[7]);
  free(x);
  free(y);
  return 0;
}
