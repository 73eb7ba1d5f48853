/* A matrix transposed row by row: A is read along its rows, B written down its columns. One
   row of A (j from 0 to N) writes N lines of B, one per row; the next row of A writes the
   next element of each of them, but at N = 800 those 800 lines (51,200 bytes) no longer
   fit a 32 KiB D1: every write to B misses. Tiling i and j keeps a tile of both in D1
   (transpose-tiled.c). */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 800
#endif

void transpose(const double *A, double *B) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      B[j * N + i] = A[i * N + j];
}

int main(void) {
  double *A = (double *)malloc(N * N * sizeof(double));
  double *B = (double *)malloc(N * N * sizeof(double));
  for (int i = 0; i < N * N; i++) A[i] = i % 7;
  transpose(A, B);
  printf("%f\n", B[N + 1]);
  free(A);
  free(B);
  return 0;
}
