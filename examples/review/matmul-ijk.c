/* Naive ijk matrix multiply on heap arrays: the innermost loop k walks B down a column,
   N * 8 bytes per iteration. `cats-static review` finds the interchange; matmul-ikj-fixed.c
   is the fix by hand. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 200
#endif

void multiply(const double *A, const double *B, double *C) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        C[i * N + j] += A[i * N + k] * B[k * N + j];
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
  multiply(A, B, C);
  printf("%f\n", C[N + 1]);
  free(A);
  free(B);
  free(C);
  return 0;
}
