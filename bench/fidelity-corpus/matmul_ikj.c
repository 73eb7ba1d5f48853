/* matmul_ikj: matrix multiply C += A * B in ikj order on static (global) arrays.
   Exercises: distinct declared arrays (no alias question), an inner j loop that GCC -O2 12
   vectorises only when the trip count is a constant multiple of the vector factor; Clang
   vectorises and interleaves it. The kernel is static and called once (inlined).
   fidelity-sizes: N 30 100 320
   fidelity-decision: inlined kernel; inner j loop vectorisable (A[i][k] invariant, rows of B and C) */
#include <stdio.h>

#ifndef N
#define N 200
#endif

static double A[N][N], B[N][N], C[N][N];

static void multiply_ikj(void) {
  for (int i = 0; i < N; i++)
    for (int k = 0; k < N; k++)
      for (int j = 0; j < N; j++)
        C[i][j] += A[i][k] * B[k][j];
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (i + j) % 7;
      B[i][j] = (i * j) % 5;
      C[i][j] = 0.0;
    }
  multiply_ikj();
  printf("%f\n", C[1][N - 1]);
  return 0;
}
