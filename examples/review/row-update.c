/* y += A x, one row at a time: y[i] does not move in the inner loop j, yet through pointer
   parameters the compiler cannot tell that storing y[i] leaves a[] and x[] alone, so it stores
   y[i] every j instead of once per row (docs/register-model.md, "Promotion and reloads").
   row-update-restrict.c declares y restrict and gets no finding. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 400
#endif

__attribute__((noinline)) void row_update(double *y, const double *a, const double *x, int n) {
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
