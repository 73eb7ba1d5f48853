/* Calls each C library function the simulation's model can call, once, after main started, so
   that bench/lazy_binding/measure.py sees ld.so resolve each one (lazy binding). WITH_LIBM links
   a libm function too, which maps libm between the preload and libc as -lm does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef WITH_LIBM
#include <math.h>
#endif

static char a[4096], b[4096];

int main(int argc, char **argv) {
  (void)argv;
  char *p = malloc(64 + (size_t)argc);
  char *q = calloc(8, 8 + (size_t)argc);
  p = realloc(p, 128 + (size_t)argc);
  char *r = aligned_alloc(64, 64 * (size_t)argc);
  void *t = NULL;
  if (posix_memalign(&t, 64, 64 * (size_t)argc) != 0) return 1;
  memset(a, argc, sizeof a - (size_t)argc);
  memcpy(b, a, sizeof b - (size_t)argc);
  memmove(b + 1, b, 100 + (size_t)argc);
  r[0] = ((char *)t)[0] = 1;
  int sum = a[5] + b[7] + q[3] + p[0] + r[argc] + ((char *)t)[argc];
  free(t);
  free(r);
  free(q);
  free(p);
#ifdef WITH_LIBM
  printf("%d %f\n", sum, sqrt(-(double)argc));
#else
  printf("%d\n", sum);
#endif
  return 0;
}
