/* covariance: covariance matrix of M variables over N samples (PolyBench-like), heap data,
   N = M, mean subtraction then a triangular product over the samples.
   Exercises: column means (column walk over data), a k-loop FP reduction walking two columns
   of data (stride M), a mirrored store cov[j][i] (column store).
   fidelity-sizes: N 30 100 400
   fidelity-decision: inlined kernel; k reduction walks columns (scalar); mirrored column stores */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 200
#endif
#define M N

static void covariance(int n, int m, double *data, double *cov, double *mean) {
  for (int j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (int i = 0; i < n; i++)
      mean[j] += data[i * m + j];
    mean[j] /= n;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      data[i * m + j] -= mean[j];
  for (int i = 0; i < m; i++)
    for (int j = i; j < m; j++) {
      cov[i * m + j] = 0.0;
      for (int k = 0; k < n; k++)
        cov[i * m + j] += data[k * m + i] * data[k * m + j];
      cov[i * m + j] /= (n - 1.0);
      cov[j * m + i] = cov[i * m + j];
    }
}

int main(void) {
  double *data = (double *)malloc(N * M * sizeof(double));
  double *cov = (double *)malloc(M * M * sizeof(double));
  double *mean = (double *)malloc(M * sizeof(double));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      data[i * M + j] = (i * j) / (double)M;
  covariance(N, M, data, cov, mean);
  printf("%f\n", cov[M + 2]);
  free(data);
  free(cov);
  free(mean);
  return 0;
}
