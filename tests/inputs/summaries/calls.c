/* Call patterns the summaries must expand exactly as inlining did: pointer offsets, scalar
   arguments, iterator clashes, callee locals (VLA and heap), unknown arguments, loads. */
#include <stdlib.h>

double g[1000];
int idx[100];

static void fill(double *v, int n, double value) {
  for (int i = 0; i < n; i++) v[i] = value;
}

static void gather(double *dst, const double *src, int n) {
  for (int i = 0; i < n; i++) dst[i] = src[idx[i]];
}

static double sum_tmp(int n) {
  double tmp[n];
  double *h = malloc(n * sizeof(double));
  double s = 0;
  for (int k = 0; k < n; k++) {
    tmp[k] = k;
    h[k] = tmp[k];
    s += h[k];
  }
  free(h);
  return s;
}

static void twice(double *v, int n) {
  fill(v, n, 1.0);
  fill(v + n, n, 2.0);
}

static void same(double *v, int a, int b) {
  v[a] = v[b];
}

int main(void) {
  double *a = malloc(400 * sizeof(double));
  for (int i = 0; i < 10; i++) {
    fill(a + 10 * i, 10, 0.0);
    same(a, i, i);
  }
  twice(g, 100);
  twice(a, 50);
  gather(g, a, 100);
  sum_tmp(20);
  sum_tmp(30);
  int n = rand();
  fill(g, n, 3.0);
  free(a);
  return 0;
}
