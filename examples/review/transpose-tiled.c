/* transpose.c tiled by hand: i and j strip-mined into tiles of 64 x 64 elements, the tile
   loops outermost. Within a tile, one row of A writes 64 lines of B, and the next seven rows
   write the rest of those lines while they are still in a 32 KiB D1. 64 is the size
   `cats-static review transpose.c` finds best among 32 (a whole tile of A and B fits half of
   D1), 16 and 64; it does not divide N = 800, hence the MIN. What review predicts should match
   what `cats-static simulate` gives on this file. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 800
#endif
#define T 64
#define MIN(a, b) ((a) < (b) ? (a) : (b))

void transpose(const double *A, double *B) {
  for (int ii = 0; ii < N; ii += T)
    for (int jj = 0; jj < N; jj += T)
      for (int i = ii; i < MIN(ii + T, N); i++)
        for (int j = jj; j < MIN(jj + T, N); j++)
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
