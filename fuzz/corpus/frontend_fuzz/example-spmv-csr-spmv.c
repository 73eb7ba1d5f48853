/* Sparse matrix-vector product in CSR format: x is read through the column indices. */
#include <stdio.h>
#include <stdlib.h>

#ifndef ROWS
#define ROWS 10000
#endif
#define BAND 5

void spmv(int nrows, const int *rowptr, const int *col, const double *val, const double *x, double *y) {
  for (int r = 0; r < nrows; r++) {
    double sum = 0.0;
    for (int j = rowptr[r]; j < rowptr[r + 1]; j++)
      sum += val[j] * x[col[j]];
    y[r] = sum;
  }
}

int main(void) {
  int *rowptr = malloc((ROWS + 1) * sizeof(int));
  int *col = malloc(ROWS * BAND * sizeof(int));
  double *val = malloc(ROWS * BAND * sizeof(double));
  double *x = malloc(ROWS * sizeof(double));
  double *y = malloc(ROWS * sizeof(double));
  int nnz = 0;
  for (int r = 0; r < ROWS; r++) {
    rowptr[r] = nnz;
    for (int b = 0; b < BAND; b++) {
      col[nnz] = (r + b * 97) % ROWS;
      val[nnz] = 1.0 / (b + 1);
      nnz++;
    }
    x[r] = r;
  }
  rowptr[ROWS] = nnz;
  spmv(ROWS, rowptr, col, val, x, y);
  printf("%f\n", y[ROWS / 2]);
  free(rowptr);
  free(col);
  free(val);
  free(x);
  free(y);
  return 0;
}
