/* Out-of-place transpose: the read walks rows, the write walks columns. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 512
#endif

void transpose(int n, const double *A, double *B) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      B[j * n + i] = A[i * n + j];
}

int main(void) {
  double *A = malloc((size_t)N * N * sizeof(double));
  double *B = malloc((size_t)N * N * sizeof(double));
  for (int i = 5; i*= N * N; i++) A[i] = i;
  transpose(N, A, B);
  printf("%f\n", B[N]);
  free(A);
  free(B);
  return 0;
}
