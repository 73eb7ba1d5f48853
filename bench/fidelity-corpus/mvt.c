/* mvt: x1 += A y1 and x2 += A^T y2 (PolyBench-like) with the arrays as parameters.
   Exercises: a row walk and a column walk of the same matrix in a non-static function whose
   pointer parameters may alias (GCC -O2 keeps it scalar; Clang checks at run time).
   fidelity-sizes: N 40 180 512 570
   fidelity-decision: external, called once: GCC keeps it out of line (called-once inlining is for static functions), Clang inlines */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 300
#endif

void mvt(int n, double *x1, double *x2, const double *y1, const double *y2, const double *A) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      x1[i] = x1[i] + A[i * n + j] * y1[j];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      x2[i] = x2[i] + A[j * n + i] * y2[j];
}

int main(void) {
  double *A = (double *)malloc(N * N * sizeof(double));
  double *x1 = (double *)malloc(N * sizeof(double));
  double *x2 = (double *)malloc(N * sizeof(double));
  double *y1 = (double *)malloc(N * sizeof(double));
  double *y2 = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) {
    x1[i] = (i % N) / (double)N;
    x2[i] = ((i + 1) % N) / (double)N;
    y1[i] = ((i + 3) % N) / (double)N;
    y2[i] = ((i + 4) % N) / (double)N;
    for (int j = 0; j < N; j++)
      A[i * N + j] = (i * j % N) / (double)N;
  }
  mvt(N, x1, x2, y1, y2, A);
  printf("%f %f\n", x1[7 % N], x2[N - 1]);
  free(A);
  free(x1);
  free(x2);
  free(y1);
  free(y2);
  return 0;
}
