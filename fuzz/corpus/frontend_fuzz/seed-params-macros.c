#ifndef SIZE
#define SIZE 64
#endif
#define IDX(i, j, ld) ((i) * (ld) + (j))
#define SQUARE(n) ((n) * (n))
void kernel(int n, int m, double *restrict c, const double *restrict a, const int *idx) {
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m && j < SIZE; ++j) {
      c[IDX(i, j, m)] += a[idx[j]] * SQUARE(2);
      if (i % 2 == 0) c[IDX(j, i, n)] -= a[IDX(i, j, m) / 2];
    }
}
