/* Thin wrappers around large helpers (tests/compiler_ipa_test.cpp): both compilers inline
   bottom-up, so a wrapper is priced with the helper already inlined into it. GCC's and Clang's
   own inlining reports on this file are the expected answers. */
#include <stdlib.h>
#define N 64
double g[N];
static inline __attribute__((always_inline)) void smooth_all(double *a, double *b, int n) {
  for (int i = 1; i < n - 1; i++) a[i] = (b[i - 1] + b[i] + b[i + 1]) / 3;
  for (int i = 1; i < n - 1; i++) b[i] = (a[i - 1] + 2 * a[i] + a[i + 1]) / 4;
  for (int i = 0; i < n; i++) a[i] += b[i] * a[i] - g[i % N];
  for (int i = 2; i < n; i++) b[i] = a[i - 2] * b[i - 1] + b[i];
  for (int i = 0; i < n; i++) g[i % N] += b[i] * a[i] - g[i % N];
  for (int i = 1; i < n; i++) a[i] = a[i - 1] * 0.5 + b[i] * g[i % N];
}
static void smooth(double *a, double *b, int n) { smooth_all(a, b, n); }
static double add(double x, double y) { return x + y; }
static double sum2(const double *a, int i) { return add(a[i], a[i + 1]); }
int main(void) {
  double *a = malloc(N * sizeof(double)), *b = malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) a[i] = b[i] = i;
  smooth(a, b, N);
  smooth(b, a, N);
  double s = 0;
  for (int i = 0; i + 1 < N; i++) s += sum2(a, i) + sum2(b, i);
  free(a);
  free(b);
  return (int)s;
}
