/* Sums the columns of a row-major matrix: the inner loop i goes down a column, N * 8 bytes
   per iteration, one cache line per element. column-sums-fixed.c walks the rows instead. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 1000
#endif

void column_sums(const double *a, double *sums) {
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      sums[j] += a[i * N + j];
}

int main(void) {
  double *a = (double *)malloc(N * N * sizeof(double));
  double *sums = (double *)calloc(N, sizeof(double));
  for (int i = 0; i < N * N; i++) a[i] = i % 3;
  column_sums(a, sums);
  printf("%f\n", sums[N - 1]);
  free(a);
  free(sums);
  return 0;
}
