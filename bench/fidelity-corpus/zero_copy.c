/* zero_copy: zeroing and copying loops that GCC -O2 (loop distribution) and Clang (loop idiom)
   replace by memset and memcpy calls, on heap and static arrays, then a blend pass.
   Exercises: memset/memcpy pattern replacement (the work moves into libc's memset/memcpy, which
   Cachegrind reports as __memset_... and __memcpy_... functions).
   fidelity-sizes: N 2000 30000 320000
   fidelity-decision: loops become memset/memcpy calls (counted in libc functions); GCC drops the dead clear of tmp */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 100000
#endif

static double dst[N];

static void clear(int n, double *a) {
  for (int i = 0; i < n; i++)
    a[i] = 0.0;
}

static void copy(int n, double *to, const double *from) {
  for (int i = 0; i < n; i++)
    to[i] = from[i];
}

int main(void) {
  double *src = (double *)malloc(N * sizeof(double));
  double *tmp = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    src[i] = i * 0.5;
  clear(N, tmp);
  clear(N, dst);
  copy(N, dst, src);
  copy(N, tmp, dst);
  for (int i = 0; i < N; i++)
    dst[i] = 0.5 * (dst[i] + tmp[i]);
  printf("%f\n", dst[N - 1]);
  free(src);
  free(tmp);
  return 0;
}
