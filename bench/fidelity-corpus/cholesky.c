/* cholesky: Cholesky-like factorisation A = L L^T in place on a heap matrix, with sqrt on the
   diagonal (once per row, not in the inner loop).
   Exercises: triangular nests, in-order FP reductions (scalar without -ffast-math), a libm call
   outside the hot loop, a static kernel called once with a heap pointer.
   fidelity-sizes: N 30 180 500
   fidelity-decision: inlined kernel; k loops are FP reductions (not vectorised) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 200
#endif

static void cholesky(int n, double *A) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i * n + j] -= A[i * n + k] * A[j * n + k];
      A[i * n + j] /= A[j * n + j];
    }
    for (int k = 0; k < i; k++)
      A[i * n + i] -= A[i * n + k] * A[i * n + k];
    A[i * n + i] = sqrt(A[i * n + i]);
  }
}

int main(void) {
  double *A = (double *)malloc(N * N * sizeof(double));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i * N + j] = (i == j) ? 2.0 * N : 1.0 / (1 + i + j);
  cholesky(N, A);
  printf("%f\n", A[N * N - 1]);
  free(A);
  return 0;
}
