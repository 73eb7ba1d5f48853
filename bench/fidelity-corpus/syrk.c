/* syrk: symmetric rank-k update C = beta C + alpha A A^T on the lower triangle, heap arrays,
   kernel with the arrays as parameters of a static function called once.
   Exercises: triangular j bound, a row-times-row reduction over k, scaling loop vectorisable.
   fidelity-sizes: N 30 100 400
   fidelity-decision: inlined kernel (distinct malloc blocks); k loop FP reduction */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 200
#endif

static void syrk(int n, double alpha, double beta, double *C, const double *A) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++)
      C[i * n + j] *= beta;
    for (int j = 0; j <= i; j++)
      for (int k = 0; k < n; k++)
        C[i * n + j] += alpha * A[i * n + k] * A[j * n + k];
  }
}

int main(void) {
  double *A = (double *)malloc(N * N * sizeof(double));
  double *C = (double *)malloc(N * N * sizeof(double));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i * N + j] = ((i * j + 1) % N) / (double)N;
      C[i * N + j] = ((i * j + 2) % N) / (double)N;
    }
  syrk(N, 1.5, 1.2, C, A);
  printf("%f\n", C[N * N - 2]);
  free(A);
  free(C);
  return 0;
}
