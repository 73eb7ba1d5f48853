/* column-sums-2d.c with each row padded by one cache line (8 doubles): the lines of a column
   now fall in every set of D1. What `cats-static review column-sums-2d.c` predicts for the
   pad should match what `cats-static simulate` gives on this file. */
#include <stdio.h>

#ifndef N
#define N 256
#endif
#ifndef ROW
#define ROW (N + 8)
#endif

static double a[N][ROW];
static double sums[N];

void column_sums(void) {
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++)
      sums[j] += a[i][j];
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) a[i][j] = (i + j) % 3;
  column_sums();
  printf("%f\n", sums[N - 1]);
  return 0;
}
