/* matvec_t: transposed matrix-vector product x = A^T y with arrays as parameters.
   Exercises: a column walk of A (stride N doubles) that thrashes D1 and then LL as N grows;
   the model once vectorised this loop where GCC -O2 leaves it scalar (parameters may alias).
   fidelity-sizes: N 40 180 512 570
   fidelity-decision: external, called twice: GCC keeps it out of line, Clang inlines; column walk; may-alias parameters */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 300
#endif

void matvec_t(int n, const double *A, const double *y, double *x) {
  for (int j = 0; j < n; j++) {
    x[j] = 0.0;
    for (int i = 0; i < n; i++)
      x[j] += A[i * n + j] * y[i];
  }
}

int main(void) {
  double *A = (double *)malloc(N * N * sizeof(double));
  double *x = (double *)malloc(N * sizeof(double));
  double *y = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) {
    y[i] = 1.0 + i % 4;
    for (int j = 0; j < N; j++)
      A[i * N + j] = (3 * i + j) % 11;
  }
  matvec_t(N, A, y, x);
  matvec_t(N, A, x, y);
  printf("%f %f\n", x[1], y[2]);
  free(A);
  free(x);
  free(y);
  return 0;
}
