/* dot_float: float dot product of two heap vectors, repeated, with a float accumulator.
   Exercises: an in-order FP reduction that GCC -O2 and Clang -O2 do not vectorise without
   -ffast-math (the accumulator stays in a register, loads stay scalar: one load per element).
   fidelity-sizes: N 2000 30000 320000
   fidelity-decision: FP reduction (scalar without -ffast-math); GCC computes the repeated invariant dot fewer times */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 100000
#endif
#ifndef REPS
#define REPS 4
#endif

static float dot(int n, const float *a, const float *b) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

int main(void) {
  float *a = (float *)malloc(N * sizeof(float));
  float *b = (float *)malloc(N * sizeof(float));
  for (int i = 0; i < N; i++) {
    a[i] = (i % 10) * 0.1f;
    b[i] = (i % 3) * 0.5f;
  }
  float total = 0.0f;
  for (int r = 0; r < REPS; r++)
    total += dot(N, a, b);
  printf("%f\n", total);
  free(a);
  free(b);
  return 0;
}
