/* two-passes.c with its two passes fused by hand: each element of a and b is used by both
   statements while its line is in the cache. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 200000
#endif

void two_passes(const double *a, double *b, double *c, double s) {
  for (int i = 0; i < N; i++) {
    b[i] = a[i] * s;
    c[i] = b[i] + a[i];
  }
}

int main(void) {
  double *a = (double *)malloc(N * sizeof(double));
  double *b = (double *)malloc(N * sizeof(double));
  double *c = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) a[i] = i % 7;
  two_passes(a, b, c, 0.5);
  printf("%f\n", c[N - 1]);
  free(a);
  free(b);
  free(c);
  return 0;
}
