/* A streaming dot product: both vectors are read once, 8 bytes per iteration. Nothing to
   fix: `cats-static review` must report no finding. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 100000
#endif

double dot(const double *x, const double *y) {
  double s = 0.0;
  for (int i = 0; i < N; i++) s += x[i] * y[i];
  return s;
}

int main(void) {
  double *x = (double *)malloc(N * sizeof(double));
  double *y = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) {
    x[i] = i % 3;
    y[i] = i % 5;
  }
  printf("%f\n", dot(x, y));
  free(x);
  free(y);
  return 0;
}
