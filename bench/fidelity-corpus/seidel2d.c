/* seidel2d: 2-D Gauss-Seidel nine-point stencil with a time loop, in place on one heap array.
   Exercises: a loop-carried dependence through A[i][j-1] (not vectorisable), loads reused from
   registers across j (the compiler keeps the previous values), a static kernel called once.
   fidelity-sizes: N 60 180 570
   fidelity-decision: inlined kernel; carried dependence (scalar); register reuse across j */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 200
#endif
#ifndef TSTEPS
#define TSTEPS 2
#endif

static void seidel2d(int n, double *A) {
  for (int t = 0; t < TSTEPS; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i * n + j] = (A[(i - 1) * n + j - 1] + A[(i - 1) * n + j] + A[(i - 1) * n + j + 1] +
                        A[i * n + j - 1] + A[i * n + j] + A[i * n + j + 1] +
                        A[(i + 1) * n + j - 1] + A[(i + 1) * n + j] + A[(i + 1) * n + j + 1]) / 9.0;
}

int main(void) {
  double *A = (double *)malloc(N * N * sizeof(double));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i * N + j] = (i * (j + 2) + 2) / (double)N;
  seidel2d(N, A);
  printf("%f\n", A[(N / 2) * N + N / 2]);
  free(A);
  return 0;
}
