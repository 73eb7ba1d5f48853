/* Kernels called from main.c with pointer and size arguments. */
#include "kernels.h"

void fill(double *v, int n, double value) {
  for (int i = 0; i < n; i++) v[i] = value;
}

void axpy(int n, double a, const double *x, double *y) {
  for (int i = 0; i < n; i++) y[i] += a * x[i];
}

void scale_rows(int rows, int cols, double *m, const double *factor) {
  for (int c = 0; c < cols; c++)
    for (int r = 0; r < rows; r++)
      m[r * cols + c] *= factor[r];
}
