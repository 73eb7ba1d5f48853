/* Like two-passes.c, but the second pass reads b[i + 1], which the first pass writes one
   iteration later: fused, the second statement would read b[i + 1] before it is written.
   The fusion is illegal; `cats-static review` reports it and recommends nothing. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 200000
#endif

void two_passes(const double *a, double *b, double *c, double s) {
  for (int i = 0; i < N; i++)
    b[i] = a[i] * s;
  for (int i = 0; i < N; i++)
    c[i] = b[i + 1] + a[i];
}

int main(void) {
  double *a = (double *)malloc(N * sizeof(double));
  double *b = (double *)malloc((N + 1) * sizeof(double));
  double *c = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) a[i] = i % 7;
  b[N] = 0.0;
  two_passes(a, b, c, 0.5);
  printf("%f\n", c[N - 1]);
  free(a);
  free(b);
  free(c);
  return 0;
}
