/* lu: LU decomposition without pivoting, in place, on a static 2-D array (PolyBench-like).
   Exercises: triangular iteration spaces (bounds depend on outer iterators), a k-loop reduction
   for the lower part and a vectorisable j loop of unknown-at-compile-time trip count.
   fidelity-sizes: N 30 180 570
   fidelity-decision: inlined kernel; triangular trips (peeling/epilogues); column walk A[k][j] */
#include <stdio.h>

#ifndef N
#define N 200
#endif

static double A[N][N];

static void lu(void) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[k][j];
      A[i][j] /= A[j][j];
    }
    for (int j = i; j < N; j++)
      for (int k = 0; k < i; k++)
        A[i][j] -= A[i][k] * A[k][j];
  }
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = (i == j) ? N + 1.0 : ((i + j) % 5) / (double)N;
  lu();
  printf("%f\n", A[N - 1][N - 1]);
  return 0;
}
