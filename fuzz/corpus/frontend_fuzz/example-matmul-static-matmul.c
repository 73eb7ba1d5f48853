/* Naive matrix multiply with static arrays: placement b) of the CATS paper. */
#include <stdio.h>

#ifndef N
#define N 200
#endif

static double A[N][N];
static double B[N][N];
static double C[N][N];

double matrix_mul(void) {
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
