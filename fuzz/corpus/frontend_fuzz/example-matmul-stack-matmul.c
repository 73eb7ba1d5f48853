/* Naive matrix multiply with automatic (stack) arrays: placement a) of the CATS paper. */
#include <stdio.h>

#ifndef N
#define N 200
#endif

double matrix_mul(void) {
  double A[N][N];
  double B[N][N];
  double C[N][N];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = i + j;
      B[i][j] = i - j;
      C[i][j] = 0.0;
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        C[i][j] += A[i][k] * B[k][j];
  return C[N / 2][N / 2];
}

int main(void) {
  printf("%f\n", matrix_mul());
  return 0;
}
