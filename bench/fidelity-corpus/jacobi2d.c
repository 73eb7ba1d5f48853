/* jacobi2d: 2-D five-point Jacobi stencil with a time loop on static arrays.
   Exercises: a time loop, row-wise neighbours (three rows live at once), distinct declared
   arrays so the inner loop vectorises without versioning.
   fidelity-sizes: N 40 120 400
   fidelity-decision: inlined kernel; inner j loops vectorisable (declared arrays) */
#include <stdio.h>

#ifndef N
#define N 200
#endif
#ifndef TSTEPS
#define TSTEPS 4
#endif

static double A[N][N], B[N][N];

static void jacobi2d(void) {
  for (int t = 0; t < TSTEPS; t++) {
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i + 1][j] + A[i - 1][j]);
    for (int i = 1; i < N - 1; i++)
      for (int j = 1; j < N - 1; j++)
        A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][j + 1] + B[i + 1][j] + B[i - 1][j]);
  }
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (i * (j + 2) + 2) / (double)N;
      B[i][j] = (i * (j + 3) + 3) / (double)N;
    }
  jacobi2d();
  printf("%f\n", A[N / 2][N / 2]);
  return 0;
}
