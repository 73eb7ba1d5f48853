/* Column sums over a static 256 x 256 matrix: each row is 2,048 bytes, 32 cache lines, so the
   lines of one column fall in 2 of a 32 KiB 8-way D1's 64 sets and evict each other before the
   next column could reuse them. `cats-static review` finds the padding (and the interchange);
   column-sums-2d-padded.c is the pad by hand. */
#include <stdio.h>

#ifndef N
#define N 256
#endif
#ifndef ROW
#define ROW N
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
