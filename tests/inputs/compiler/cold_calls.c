/* Calls from main to external functions, for the GCC -O2 inliner model
   (tests/compiler_ipa_test.cpp). GCC 12.2 `gcc -O2 -fopt-info-inline-all` says:
     cold_calls.c:21:14: optimized:  Inlining small_sum/11 into main/16.   (body size 7)
     cold_calls.c:22:3: optimized:  Inlining small_copy/12 into main/16.   (body size 9)
     cold_calls.c:23:3: missed:   will not early inline: main/16->two_stores/13, call is cold and code would grow at least by 11
     cold_calls.c:24:3: missed:   will not early inline: main/16->column_sum/14, call is cold and code would grow at least by 16
     cold_calls.c:25:31: optimized:  Inlined column_sum_r/23 into main/16 which now has time 3529.917381 and size 91, net change of +16.
   Its IPA inliner refuses the calls main makes once ("call is unlikely and code size would
   grow" for two_stores, "--param max-inline-insns-auto limit reached" for column_sum) but
   inlines the same body called in a loop of main (a frequency of 3 makes the call hot). */
#include <stdlib.h>
double small_sum(int n, double *a) { double s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
void small_copy(int n, double *a, double *b) { for (int i = 0; i < n; i++) a[i] = 2 * b[i]; }
void two_stores(int n, double *a, double *b) { for (int i = 0; i < n; i++) { a[i + 1] = b[i] * 1; a[i + 2] = b[i] * 2; } }
void column_sum(int n, const double *A, const double *y, double *x) {
  for (int j = 0; j < n; j++) { x[j] = 0.0; for (int i = 0; i < n; i++) x[j] += A[i * n + j] * y[i]; } }
void column_sum_r(int n, const double *A, const double *y, double *x) {
  for (int j = 0; j < n; j++) { x[j] = 1.0; for (int i = 0; i < n; i++) x[j] += A[i * n + j] * y[i]; } }
int main(int argc, char **argv) {
  double *a = malloc(800), *b = malloc(800);
  double s = small_sum(argc, a) + small_sum(argc, b);
  small_copy(argc, a, b); small_copy(argc, b, a);
  two_stores(argc, a, b); two_stores(argc, b, a);
  column_sum(argc, a, b, a); column_sum(argc, b, a, b);
  for (int r = 0; r < 3; r++) column_sum_r(10, a, b, a);
  free(a); free(b);
  return (int)s + (argv != 0);
}
