/* 2-D Jacobi stencil (PolyBench style): five-point average, then copy back. */
#include <stdio.h>

#ifndef N
#define N 250
#endif
#ifndef TSTEPS
#define TSTEPS 10
#endif

static double A[N][N];
static double B[N][N];

void jacobi_2d(int tsteps, int n, double A[n][n], double B[n][n]) {
  for (int t = 0; t < tsteps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i][j] = B[i][j];
  }
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = (i * (j + 2) + 2) / (double)N;
  jacobi_2d(TSTEPS, N, A, B);
  printf("%f\n", A[N / 2][N / 2]);
  return 0;
}
