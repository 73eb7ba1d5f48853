/* correlation: correlation matrix (PolyBench-like) on static arrays: means, standard
   deviations with sqrt (once per column), normalisation, then a triangular product.
   Exercises: column walks for the statistics, sqrt outside the hot loop, a k-loop FP reduction
   over two columns, the mirrored store corr[j][i].
   fidelity-sizes: N 30 100 400
   fidelity-decision: inlined kernel; column-walk reductions (scalar); libm sqrt per column */
#include <math.h>
#include <stdio.h>

#ifndef N
#define N 200
#endif
#define M N

static double data[N][M], corr[M][M], mean[M], stddev[M];

static void correlation(void) {
  const double eps = 0.1;
  for (int j = 0; j < M; j++) {
    mean[j] = 0.0;
    for (int i = 0; i < N; i++)
      mean[j] += data[i][j];
    mean[j] /= N;
  }
  for (int j = 0; j < M; j++) {
    stddev[j] = 0.0;
    for (int i = 0; i < N; i++)
      stddev[j] += (data[i][j] - mean[j]) * (data[i][j] - mean[j]);
    stddev[j] /= N;
    stddev[j] = sqrt(stddev[j]);
    stddev[j] = stddev[j] <= eps ? 1.0 : stddev[j];
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      data[i][j] -= mean[j];
      data[i][j] /= sqrt((double)N) * stddev[j];
    }
  for (int i = 0; i < M - 1; i++) {
    corr[i][i] = 1.0;
    for (int j = i + 1; j < M; j++) {
      corr[i][j] = 0.0;
      for (int k = 0; k < N; k++)
        corr[i][j] += data[k][i] * data[k][j];
      corr[j][i] = corr[i][j];
    }
  }
  corr[M - 1][M - 1] = 1.0;
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      data[i][j] = (double)(i * j) / M + i;
  correlation();
  printf("%f\n", corr[1][M - 1]);
  return 0;
}
