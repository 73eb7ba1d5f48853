/* matmul-ijk.c with the j and k loops interchanged by hand (ikj): every innermost access
   moves 8 bytes or not at all. What `cats-static review matmul-ijk.c` predicts should
   match what `cats-static simulate` gives on this file. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 200
#endif

void multiply(const double *A, const double *B, double *C) {
  for (int i = 0; i < N; i++)
    for (int k = 0; k < N; k++)
      for (int j = 0; j < N; j++)
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
