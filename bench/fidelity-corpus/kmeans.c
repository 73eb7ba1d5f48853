/* kmeans: k-means-like assignment and update steps: distances of N points (D doubles each)
   to K centroids, a data-dependent argmin, then centroid sums indexed by the assignment.
   Exercises: small constant inner loops (D = 8, K = 8) unrolled, the centroids staying in D1,
   indirect updates sums[label[i]][d] (data-dependent offsets), a few iterations.
   fidelity-sizes: N 500 4000 40000
   fidelity-decision: inlined kernel; D loop unrolled/SLP; indirect centroid updates; argmin branch */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 10000
#endif
#define D 8
#define K 8
#ifndef ITERS
#define ITERS 3
#endif

static double cent[K][D], sums[K][D];
static int counts[K];

static void kmeans(int n, const double *pts, int *label) {
  for (int it = 0; it < ITERS; it++) {
    for (int i = 0; i < n; i++) {
      int best = 0;
      double bestd = 1e300;
      for (int c = 0; c < K; c++) {
        double dist = 0.0;
        for (int d = 0; d < D; d++) {
          double diff = pts[i * D + d] - cent[c][d];
          dist += diff * diff;
        }
        if (dist < bestd) {
          bestd = dist;
          best = c;
        }
      }
      label[i] = best;
    }
    for (int c = 0; c < K; c++) {
      counts[c] = 0;
      for (int d = 0; d < D; d++)
        sums[c][d] = 0.0;
    }
    for (int i = 0; i < n; i++) {
      counts[label[i]]++;
      for (int d = 0; d < D; d++)
        sums[label[i]][d] += pts[i * D + d];
    }
    for (int c = 0; c < K; c++)
      for (int d = 0; d < D; d++)
        cent[c][d] = counts[c] > 0 ? sums[c][d] / counts[c] : cent[c][d];
  }
}

int main(void) {
  double *pts = (double *)malloc(N * D * sizeof(double));
  int *label = (int *)malloc(N * sizeof(int));
  for (int i = 0; i < N; i++)
    for (int d = 0; d < D; d++)
      pts[i * D + d] = ((i * 37 + d * 11) % 101) / 10.0;
  for (int c = 0; c < K; c++)
    for (int d = 0; d < D; d++)
      cent[c][d] = pts[c * 13 * D + d];
  kmeans(N, pts, label);
  printf("%f %d\n", cent[2][3], label[N / 2]);
  free(pts);
  free(label);
  return 0;
}
