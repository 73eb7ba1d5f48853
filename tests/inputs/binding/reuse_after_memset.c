/* A kernel that sweeps data filling the last level exactly, after the program's first call of
   memset: ld.so's lookup of memset (lazy binding) evicts lines the sweeps then miss again. */
#include <stdio.h>

#define N 30720 /* 240 KiB of doubles */
#define M 1152  /* 9 KiB: GCC calls memset above 8 KiB */

static double a[N], b[M];

int main(void) {
  for (int i = 0; i < N; i++) a[i] = i;
  for (int i = 0; i < M; i++) b[i] = 0;
  double s = 0;
  for (int r = 0; r < 4; r++)
    for (int i = 0; i < N; i++) s = s * 0.5 + a[i];
  printf("%f %f\n", s, b[M / 2]);
  return 0;
}
