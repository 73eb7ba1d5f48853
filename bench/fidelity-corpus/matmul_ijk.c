/* matmul_ijk: naive matrix multiply C += A * B in ijk order on heap arrays (the example).
   Exercises: a static kernel called once from main, which GCC and Clang inline; the trip count
   becomes the constant N and the three malloc blocks are provably distinct after inlining.
   fidelity-sizes: N 30 100 320
   fidelity-decision: inlined kernel; k loop is an in-order FP reduction over a column walk of B */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 200
#endif

static void multiply(int n, const double *A, const double *B, double *C) {
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
