/* int_sum: sum of an int array (heap), repeated; integer reductions are associative, so
   GCC -O2 (very-cheap cost model) and Clang vectorise them: 4 ints per 16-byte load.
   Exercises: a vectorised integer reduction (one load per vector, not per element), whose
   trip count is the constant N after inlining (a multiple of 4 or not decides GCC's epilogue).
   fidelity-sizes: N 4000 64000 640000
   fidelity-decision: integer reduction vectorised; GCC computes the repeated invariant sum fewer times than REPS */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 100000
#endif
#ifndef REPS
#define REPS 4
#endif

static long sum(int n, const int *a) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

int main(void) {
  int *a = (int *)malloc(N * sizeof(int));
  for (int i = 0; i < N; i++)
    a[i] = i % 100;
  long total = 0;
  for (int r = 0; r < REPS; r++)
    total += sum(N, a);
  printf("%ld\n", total);
  free(a);
  return 0;
}
