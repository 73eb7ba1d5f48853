/* spmv_csr: sparse matrix-vector product in CSR format, repeated, on a matrix the program assembles:
   rows of 3 to 5 nonzeros (row lengths, then row pointers by a prefix sum, then the arrays sized
   by the last row pointer), column indices spread over the vector (r + 997 k) mod N, so the
   gather x[col[j]] walks several streams of x at once.
   Exercises: indexes and loop bounds the program computed and stored (col, rowptr), an
   allocation sized by a stored value, a data-bounded inner loop, an FP reduction per row.
   fidelity-sizes: N 20000 2000 200000
   fidelity-decision: inlined kernel; x[col[j]] read through the program's own col; row bounds from rowptr */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 20000
#endif
#ifndef REPS
#define REPS 3
#endif

static void spmv(int n, const int *rowptr, const int *col, const double *val, const double *x, double *y) {
  for (int r = 0; r < n; r++) {
    double sum = 0.0;
    for (int j = rowptr[r]; j < rowptr[r + 1]; j++) sum += val[j] * x[col[j]];
    y[r] = sum;
  }
}

int main(void) {
  int *len = malloc(N * sizeof(int));
  int *rowptr = malloc((N + 1) * sizeof(int));
  for (int r = 0; r < N; r++) len[r] = 3 + r % 3;
  rowptr[0] = 0;
  for (int r = 0; r < N; r++) rowptr[r + 1] = rowptr[r] + len[r];
  int nnz = rowptr[N];
  int *col = malloc(nnz * sizeof(int));
  double *val = malloc(nnz * sizeof(double));
  double *x = malloc(N * sizeof(double));
  double *y = malloc(N * sizeof(double));
  for (int r = 0; r < N; r++) {
    for (int j = rowptr[r]; j < rowptr[r + 1]; j++) {
      col[j] = (r + 997 * (j - rowptr[r])) % N;
      val[j] = 1.0 / (1 + j - rowptr[r]);
    }
    x[r] = r % 7;
  }
  double total = 0.0;
  for (int p = 0; p < REPS; p++) {
    spmv(N, rowptr, col, val, x, y);
    total += y[p];
  }
  printf("%f\n", total);
  free(len);
  free(rowptr);
  free(col);
  free(val);
  free(x);
  free(y);
  return 0;
}
