/* heat3d: 3-D heat equation, seven-point stencil with a time loop, static 3-D arrays.
   Exercises: three-dimensional neighbours (planes of N*N doubles apart), distinct declared
   arrays, inner k loop vectorisable.
   fidelity-sizes: N 12 28 55
   fidelity-decision: inlined kernel; inner k loop vectorisable; plane reuse decides LL misses */
#include <stdio.h>

#ifndef N
#define N 40
#endif
#ifndef TSTEPS
#define TSTEPS 3
#endif

static double A[N][N][N], B[N][N][N];

static void heat3d(void) {
  for (int t = 0; t < TSTEPS; t++) {
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        for (int k = 1; k < N - 1; k++)
          B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k]) +
                       0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k]) +
                       0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1]) + A[i][j][k];
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        for (int k = 1; k < N - 1; k++)
          A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k]) +
                       0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k]) +
                       0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1]) + B[i][j][k];
  }
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      for (int k = 0; k < N; k++)
        A[i][j][k] = B[i][j][k] = (i + j + (N - k)) * 10.0 / N;
  heat3d();
  printf("%f\n", A[N / 2][N / 2][N / 2]);
  return 0;
}
