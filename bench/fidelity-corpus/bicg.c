/* bicg: s = A^T r and q = A p in one sweep over A (BiCG kernel, PolyBench-like), global arrays.
   Exercises: one nest with a row reduction q[i] and a column update s[j]; s vectorisable over j,
   the q[i] reduction is in-order FP (scalar without -ffast-math).
   fidelity-sizes: N 40 180 512 570
   fidelity-decision: inlined kernel; mixed reduction (scalar) and vectorisable update in one loop */
#include <stdio.h>

#ifndef N
#define N 300
#endif

static double A[N][N], r[N], s[N], p[N], q[N];

static void bicg(void) {
  for (int i = 0; i < N; i++)
    s[i] = 0;
  for (int i = 0; i < N; i++) {
    q[i] = 0.0;
    for (int j = 0; j < N; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
}

int main(void) {
  for (int i = 0; i < N; i++) {
    p[i] = (i % N) / (double)N;
    r[i] = (i % N) / (double)N;
    for (int j = 0; j < N; j++)
      A[i][j] = (i * (j + 1) % N) / (double)N;
  }
  bicg();
  printf("%f %f\n", s[N / 2], q[N / 3]);
  return 0;
}
