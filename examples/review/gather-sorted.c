/* gather.c with the indices sorted: a sorted permutation is 0, 1, ..., N-1, so x[idx[i]] is
   x[i] and x is walked in order, one miss per line. The loop still reads idx (it checks that
   the indices are the sorted permutation: their sum is N (N - 1) / 2), as a sorted gather
   would. cats-static review gets no indirect finding here. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 100000
#endif

__attribute__((noinline)) double gather(const double *x, const int *idx, int n, long *check) {
  double sum = 0.0;
  long total = 0;
  for (int i = 0; i < n; i++) {
    sum += x[i];
    total += idx[i];
  }
  *check = total;
  return sum;
}

int main(void) {
  double *x = (double *)malloc(N * sizeof(double));
  int *idx = (int *)malloc(N * sizeof(int));
  for (int i = 0; i < N; i++) x[i] = i % 7;
  for (int i = 0; i < N; i++) idx[i] = i;  /* sorted */
  long check = 0;
  double sum = gather(x, idx, N, &check);
  printf("%f %d\n", sum, check == (long)N * (N - 1) / 2);
  free(x);
  free(idx);
  return 0;
}
