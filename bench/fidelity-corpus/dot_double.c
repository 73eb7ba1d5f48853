/* dot_double: double dot product over static arrays, repeated; an external function taking
   the arrays as parameters (GCC -O2 may still inline it: it is small).
   Exercises: an in-order FP reduction (scalar without -ffast-math), the reduction variable
   promoted to a register, the small-function inliner.
   fidelity-sizes: N 1000 16000 160000
   fidelity-decision: FP reduction (scalar); ddot inlined (small); GCC computes the repeated invariant sum fewer times */
#include <stdio.h>

#ifndef N
#define N 100000
#endif
#ifndef REPS
#define REPS 4
#endif

static double x[N], y[N];

double ddot(int n, const double *a, const double *b) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = (i % 10) * 0.1;
    y[i] = (i % 3) * 0.5;
  }
  double total = 0.0;
  for (int r = 0; r < REPS; r++)
    total += ddot(N, x, y);
  printf("%f\n", total);
  return 0;
}
