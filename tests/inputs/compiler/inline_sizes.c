/* Call sites for the inliner model (tests/compiler_ipa_test.cpp): GCC's and Clang's own
   inlining reports on this file are the expected answers, and the size calibration of
   sim/compiler/inliner.hpp was measured on it. */
#include <stdlib.h>
#define N 64
double g[N];
double ext_small(int n, double *a) { double s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
static double st_small(int n, double *a) { double s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
static void st_mid(int n, double *a, double *b) {
  for (int i = 0; i < n; i++) a[i] = b[i] * 2 + 1;
  for (int i = 1; i < n; i++) b[i] = a[i - 1] + b[i];
  for (int i = 0; i < n; i++) a[i] += b[i] * a[i];
}
static void st_big(int n, double *a, double *b) {
  for (int i = 0; i < n; i++) a[i] = b[i] * 2 + 1;
  for (int i = 1; i < n; i++) b[i] = a[i - 1] + b[i];
  for (int i = 0; i < n; i++) a[i] += b[i] * a[i];
  for (int i = 2; i < n; i++) b[i] = a[i - 2] * b[i - 1] + b[i];
  for (int i = 0; i < n; i++) a[i] += b[i] * a[i] - g[i % N];
  for (int i = 0; i < n; i++) g[i % N] += b[i] * a[i] - g[i % N];
}
static inline void inl_big(int n, double *a, double *b) {
  for (int i = 0; i < n; i++) a[i] = b[i] * 2 + 1;
  for (int i = 1; i < n; i++) b[i] = a[i - 1] + b[i];
  for (int i = 0; i < n; i++) a[i] += b[i] * a[i];
  for (int i = 2; i < n; i++) b[i] = a[i - 2] * b[i - 1] + b[i];
}
static void once(int n, double *a) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) a[i * n + j] = a[j * n + i] + i + j * 3 + a[i] * a[j];
}
__attribute__((noinline)) static void never(int n, double *a) { a[0] = n; }
__attribute__((always_inline)) static inline void always(int n, double *a) { a[1] = n; }
static void hot_mid(int n, double *a, double *b) {
  for (int i = 0; i < n; i++) a[i] = b[i] * 2 + 1;
  for (int i = 1; i < n; i++) b[i] = a[i - 1] + b[i];
}
static inline void hot_inline(int n, double *a, double *b) {
  for (int i = 0; i < n; i++) a[i] = b[i] * 2 + 1;
  for (int i = 1; i < n; i++) b[i] = a[i - 1] + b[i];
  for (int i = 0; i < n; i++) a[i] += b[i] * a[i];
}
/* 81 statements as written but 44 operations once the repeated row offsets are computed once:
   Clang prices it at 135 and inlines both calls (the corpus's box_blur). */
static void blur9(int n, const float *in, float *out) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      out[i * n + j] = (in[(i - 1) * n + j - 1] + in[(i - 1) * n + j] + in[(i - 1) * n + j + 1] +
                        in[i * n + j - 1] + in[i * n + j] + in[i * n + j + 1] +
                        in[(i + 1) * n + j - 1] + in[(i + 1) * n + j] + in[(i + 1) * n + j + 1]) *
                       (1.0f / 9.0f);
}
/* Small as written, but Clang fully unrolls the 16 taps before pricing it: over the threshold. */
static void taps16(int n, const double *in, double *out) {
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = 0; k < 16; k++) s += g[k] * in[i + k] * (k + 1);
    out[i] = s;
  }
}
int main(void) {
  double *a = malloc(N * N * sizeof(double)), *b = malloc(N * N * sizeof(double));
  double s = ext_small(N, a) + st_small(N, a) + st_small(N, b) + ext_small(N, b);
  st_mid(N, a, b);
  st_mid(N, b, a);
  st_big(N, a, b);
  st_big(N, b, a);
  inl_big(N, a, b);
  inl_big(N, b, a);
  once(N, a);
  never(N, a);
  always(N, a);
  blur9(N, (float *)a, (float *)b);
  blur9(N, (float *)b, (float *)a);
  taps16(N - 16, a, b);
  taps16(N - 16, b, a);
  for (int t = 0; t < 4; t++) {
    hot_mid(N, a, b);
    hot_mid(N, b, a);
    hot_inline(N, a, b);
    hot_inline(N, b, a);
  }
  free(a);
  free(b);
  return (int)s;
}
