/* matvec: y = A x with the arrays as parameters of an external (non-static) function.
   Exercises: a kernel whose pointer parameters may alias (GCC -O2 does not version loops for
   aliasing, so it stays scalar; Clang adds a runtime check), a row-wise reduction into y[i].
   fidelity-sizes: N 40 180 570
   fidelity-decision: inlining decides whether A, x, y are known distinct; y[i] reduction over rows */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 300
#endif

void matvec(int n, const double *A, const double *x, double *y) {
  for (int i = 0; i < n; i++) {
    y[i] = 0.0;
    for (int j = 0; j < n; j++)
      y[i] += A[i * n + j] * x[j];
  }
}

int main(void) {
  double *A = (double *)malloc(N * N * sizeof(double));
  double *x = (double *)malloc(N * sizeof(double));
  double *y = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) {
    x[i] = i % 3;
    for (int j = 0; j < N; j++)
      A[i * N + j] = (i + 2 * j) % 9;
  }
  for (int r = 0; r < 3; r++)
    matvec(N, A, x, y);
  printf("%f\n", y[N / 2]);
  free(A);
  free(x);
  free(y);
  return 0;
}
