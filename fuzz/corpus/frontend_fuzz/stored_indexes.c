#include <stdlib.h>
#define N 40
static void spmv(int n, const int *rp, const int *col, const double *v, const double *x, double *y) {
  for (int r = 0; r < n; r++) {
    double s = 0;
    for (int j = rp[r]; j < rp[r + 1]; j++) s += v[j] * x[col[j]];
    y[r] = s;
  }
}
int main(void) {
  int *len = malloc(N * sizeof(int)), *rp = malloc((N + 1) * sizeof(int));
  for (int r = 0; r < N; r++) len[r] = 1 + r % 3;
  rp[0] = 0;
  for (int r = 0; r < N; r++) rp[r + 1] = rp[r] + len[r];
  int *col = malloc(rp[N] * sizeof(int));
  double *v = malloc(rp[N] * sizeof(double)), *x = malloc(N * sizeof(double)), y[N];
  int k = 0;
  for (int r = 0; r < N; r++)
    for (int b = 0; b < 2; b++) { x[k % N] = k; k++; }
  for (int r = 0; r < N; r++)
    for (int j = rp[r]; j < rp[r + 1]; j++) { col[j] = (r + 7 * (j - rp[r])) % N; v[j] = 1; }
  spmv(N, rp, col, v, x, y);
  return (int)y[k % N];
}
