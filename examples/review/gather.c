/* Sums x through a scrambled permutation idx (i * 7919 mod N): consecutive x[idx[i]] are
   62 KiB apart, each on a line of its own, and the 7 other doubles of the line are long gone
   when their turn comes. gather-sorted.c has the indices sorted (for a permutation: 0, 1, ...),
   which walks x in order. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 100000
#endif

__attribute__((noinline)) double gather(const double *x, const int *idx, int n) {
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    sum += x[idx[i]];
  return sum;
}

int main(void) {
  double *x = (double *)malloc(N * sizeof(double));
  int *idx = (int *)malloc(N * sizeof(int));
  for (int i = 0; i < N; i++) x[i] = i % 7;
  for (int i = 0; i < N; i++) idx[i] = (int)((i * 7919L) % N);  /* a permutation: 7919 is prime, N is not a multiple */
  printf("%f\n", gather(x, idx, N));
  free(x);
  free(idx);
  return 0;
}
