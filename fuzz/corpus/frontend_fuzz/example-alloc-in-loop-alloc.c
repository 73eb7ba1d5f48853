/* An anti-pattern from the C.A.T.S. paper: a scratch buffer allocated in every iteration. */
#include <stdio.h>
#include <stdlib.h>

#ifndef LEN
#define LEN 10000
#endif
#ifndef ITERS
#define ITERS 50
#endif

void smooth(int iters, int n, const double *in, double *out) {
  for (int it = 0; it < iters; it++) {
    double *tmp = malloc(n * sizeof(double));
    for (int i = 0; i < n; i++) tmp[i] = 2.0 * in[i];
    for (int i = 0; i < n; i++) out[i] += tmp[i];
    free(tmp);
  }
}

int main(void) {
  double *in = malloc(LEN * sizeof(double));
  double *out = calloc(LEN, sizeof(double));
  for (int i = 0; i < LEN; i++) in[i] = i;
  smooth(ITERS, LEN, in, out);
  printf("%f\n", out[LEN - 1]);
  free(in);
  free(out);
  return 0;
}
