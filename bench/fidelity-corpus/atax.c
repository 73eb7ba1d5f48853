/* atax: y = A^T (A x) with heap arrays passed to a static kernel (PolyBench-like).
   Exercises: a row-wise product into a temporary then a column-order update of y that GCC
   vectorises over j only when it can prove y and A distinct (inlined malloc blocks).
   fidelity-sizes: N 40 180 570
   fidelity-decision: inlined kernel; tmp[i] reduction kept in a register; y update vectorisable */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 300
#endif

static void atax(int n, const double *A, const double *x, double *y, double *tmp) {
  for (int i = 0; i < n; i++)
    y[i] = 0.0;
  for (int i = 0; i < n; i++) {
    tmp[i] = 0.0;
    for (int j = 0; j < n; j++)
      tmp[i] = tmp[i] + A[i * n + j] * x[j];
    for (int j = 0; j < n; j++)
      y[j] = y[j] + A[i * n + j] * tmp[i];
  }
}

int main(void) {
  double *A = (double *)malloc(N * N * sizeof(double));
  double *x = (double *)malloc(N * sizeof(double));
  double *y = (double *)malloc(N * sizeof(double));
  double *tmp = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) {
    x[i] = 1.0 + i / (double)N;
    for (int j = 0; j < N; j++)
      A[i * N + j] = ((i + j) % N) / (5.0 * N);
  }
  atax(N, A, x, y, tmp);
  printf("%f\n", y[N - 1]);
  free(A);
  free(x);
  free(y);
  free(tmp);
  return 0;
}
