/* Naive matrix multiply with heap arrays: placement c) of the CATS paper. The kernel takes
   the size as a parameter, so `--entry multiply` shows strides as formulas of n. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 200
#endif

void multiply(int n, const double *A, const double *B, double *C) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}

int main(void) {
  double *A = (double *)malloc(N * N * sizeof(double));
  double *B = (double *)malloc(N * N * sizeof(double));
  double *C = (double *)malloc(N * N * sizeof(double));
  for (int i = 0; i < N * N; i++) {
    A[i] = i % 7;
    B[i] = i % 5;
    C[i] = 0.0;
  }
  multiply(N, A, B, C);
  printf("%f\n", C[N + 1]);
  free(A);
  free(B);
  free(C);
  return 0;
}
