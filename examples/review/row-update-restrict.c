/* row-update.c with y declared restrict: the compiler keeps y[i] in a register across the
   inner loop j and stores it once per row. The promise holds: main passes three distinct
   arrays. cats-static review gets no hoisting finding here. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 400
#endif

__attribute__((noinline)) void row_update(double *restrict y, const double *a, const double *x, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      y[i] += a[i * n + j] * x[j];
}

int main(void) {
  double *a = (double *)malloc(N * N * sizeof(double));
  double *x = (double *)malloc(N * sizeof(double));
  double *y = (double *)calloc(N, sizeof(double));
  for (int i = 0; i < N * N; i++) a[i] = i % 3;
  for (int j = 0; j < N; j++) x[j] = j % 5;
  row_update(y, a, x, N);
  printf("%f\n", y[N - 1]);
  free(a);
  free(x);
  free(y);
  return 0;
}
