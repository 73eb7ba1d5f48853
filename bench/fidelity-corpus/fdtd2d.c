/* fdtd2d: 2-D finite-difference time-domain kernel (PolyBench-like): three field arrays and a
   source vector, four nests per time step, static arrays.
   Exercises: a time loop, row and column neighbours (hz[i-1][j] and ey[i][j]), a row copy
   from a 1-D array, distinct declared arrays (vectorisable inner loops).
   fidelity-sizes: N 35 100 330
   fidelity-decision: inlined kernel; inner loops vectorisable; three arrays compete for D1 */
#include <stdio.h>

#ifndef N
#define N 200
#endif
#ifndef TSTEPS
#define TSTEPS 3
#endif

static double ex[N][N], ey[N][N], hz[N][N], fict[TSTEPS];

static void fdtd2d(void) {
  for (int t = 0; t < TSTEPS; t++) {
    for (int j = 0; j < N; j++)
      ey[0][j] = fict[t];
    for (int i = 1; i < N; i++)
      for (int j = 0; j < N; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
    for (int i = 0; i < N; i++)
      for (int j = 1; j < N; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
    for (int i = 0; i < N - 1; i++)
      for (int j = 0; j < N - 1; j++)
        hz[i][j] = hz[i][j] - 0.7 * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
  }
}

int main(void) {
  for (int t = 0; t < TSTEPS; t++)
    fict[t] = t;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      ex[i][j] = (i * (j + 1)) / (double)N;
      ey[i][j] = (i * (j + 2)) / (double)N;
      hz[i][j] = (i * (j + 3)) / (double)N;
    }
  fdtd2d();
  printf("%f\n", hz[N / 2][N / 3]);
  return 0;
}
