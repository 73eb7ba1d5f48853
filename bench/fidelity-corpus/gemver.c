/* gemver: A += u1 v1^T + u2 v2^T; x += beta A^T y + z; w += alpha A x (PolyBench-like).
   Exercises: row and column walks of one static 2-D array in four nests, rank-2 update
   vectorisable over j, a transposed product that walks columns.
   fidelity-sizes: N 40 180 512 570
   fidelity-decision: inlined (static, once); j loop of the update vectorisable; x loop column walk */
#include <stdio.h>

#ifndef N
#define N 300
#endif

static double A[N][N];
static double u1[N], v1[N], u2[N], v2[N], w[N], x[N], y[N], z[N];

static void gemver(double alpha, double beta) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = A[i][j] + u1[i] * v1[j] + u2[i] * v2[j];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      x[i] = x[i] + beta * A[j][i] * y[j];
  for (int i = 0; i < N; i++)
    x[i] = x[i] + z[i];
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      w[i] = w[i] + alpha * A[i][j] * x[j];
}

int main(void) {
  for (int i = 0; i < N; i++) {
    u1[i] = i;
    u2[i] = (i + 1) / 2.0;
    v1[i] = (i + 1) / 4.0;
    v2[i] = (i + 1) / 6.0;
    y[i] = (i + 1) / 8.0;
    z[i] = (i + 1) / 9.0;
    x[i] = 0.0;
    w[i] = 0.0;
    for (int j = 0; j < N; j++)
      A[i][j] = (i * j % N) / (double)N;
  }
  gemver(1.5, 1.2);
  printf("%f\n", w[N / 3]);
  return 0;
}
