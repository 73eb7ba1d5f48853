/* jacobi1d: 1-D Jacobi stencil with a time loop, two heap arrays swapped by copying back.
   Exercises: a time loop around two sweeps, neighbour reads A[i-1], A[i], A[i+1] that GCC and
   Clang vectorise when A and B are known distinct (after inlining the static kernel).
   fidelity-sizes: N 1000 16000 160000
   fidelity-decision: inlined kernel; sweeps vectorisable (distinct malloc blocks after inlining) */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 10000
#endif
#ifndef TSTEPS
#define TSTEPS 10
#endif

static void jacobi1d(int n, double *A, double *B) {
  for (int t = 0; t < TSTEPS; t++) {
    for (int i = 1; i < n - 1; i++)
      B[i] = 0.33333 * (A[i - 1] + A[i] + A[i + 1]);
    for (int i = 1; i < n - 1; i++)
      A[i] = 0.33333 * (B[i - 1] + B[i] + B[i + 1]);
  }
}

int main(void) {
  double *A = (double *)malloc(N * sizeof(double));
  double *B = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) {
    A[i] = (i + 2) / (double)N;
    B[i] = (i + 3) / (double)N;
  }
  jacobi1d(N, A, B);
  printf("%f\n", A[N / 2]);
  free(A);
  free(B);
  return 0;
}
