/* Matrix multiply in ikj order on C99 array parameters: every inner access walks a row. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 200
#endif

void multiply_ikj(int n, double A[n][n], double B[n][n], double C[n][n]) {
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++)
        C[i][j] += A[i][k] * B[k][j];
}

int main(void) {
  double (*A)[N] = malloc(sizeof(double[N][N]));
  double (*B)[N] = malloc(sizeof(double[N][N]));
  double (*C)[N] = calloc(N * N, sizeof(double));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = i + j;
      B[i][j] = i - j;
    }
  multiply_ikj(N, A, B, C);
  printf("%f\n", C[1][1]);
  free(A);
  free(B);
  free(C);
  return 0;
}
