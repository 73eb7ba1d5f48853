/* trisolv: forward substitution L x = b with a lower-triangular global matrix.
   Exercises: a triangular nest whose inner trip count grows with i, an FP reduction into a
   scalar (kept in a register, not vectorised without -ffast-math), repeated twice.
   fidelity-sizes: N 40 180 570
   fidelity-decision: called twice: GCC keeps it out of line, Clang inlines; inner loop an in-order FP reduction (scalar) */
#include <stdio.h>

#ifndef N
#define N 300
#endif

static double L[N][N], x[N], b[N];

static void trisolv(void) {
  for (int i = 0; i < N; i++) {
    double s = b[i];
    for (int j = 0; j < i; j++)
      s -= L[i][j] * x[j];
    x[i] = s / L[i][i];
  }
}

int main(void) {
  for (int i = 0; i < N; i++) {
    b[i] = i;
    for (int j = 0; j <= i; j++)
      L[i][j] = (i + N - j + 1) * 2.0 / N;
  }
  trisolv();
  trisolv();
  printf("%f\n", x[N - 1]);
  return 0;
}
