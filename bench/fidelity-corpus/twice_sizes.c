/* twice_sizes: one external smoothing kernel called twice with different sizes (the whole
   array, then its first half) on a heap array, plus a scaling kernel called with both.
   Exercises: a function called from two sites with different constant sizes: GCC may inline
   both or keep one out-of-line copy; the trip count is a constant only after inlining.
   fidelity-sizes: N 2000 30000 320000
   fidelity-decision: GCC inlines scale but keeps smooth out of line; Clang inlines both; constant trip counts only when inlined */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 100000
#endif

void smooth(int n, double *a, const double *b) {
  for (int i = 1; i < n - 1; i++)
    a[i] = 0.25 * b[i - 1] + 0.5 * b[i] + 0.25 * b[i + 1];
}

static void scale(int n, double *a, double f) {
  for (int i = 0; i < n; i++)
    a[i] *= f;
}

int main(void) {
  double *a = (double *)malloc(N * sizeof(double));
  double *b = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) {
    a[i] = 0.0;
    b[i] = i % 17;
  }
  smooth(N, a, b);
  smooth(N / 2, b, a);
  scale(N, a, 0.5);
  scale(N / 2, b, 2.0);
  printf("%f %f\n", a[N / 3], b[N / 5]);
  free(a);
  free(b);
  return 0;
}
