/* floyd_warshall: all-pairs shortest paths on an int matrix with a data-dependent `if` in the
   innermost loop (static array).
   Exercises: a data-dependent branch that GCC -O2 turns into a conditional move or a guarded
   store (the store happens or not), row k reused across the whole i loop.
   fidelity-sizes: N 40 160 400
   fidelity-decision: inlined kernel; data-dependent if (store only when shorter); if-conversion */
#include <stdio.h>

#ifndef N
#define N 200
#endif

static int path[N][N];

static void floyd_warshall(void) {
  for (int k = 0; k < N; k++)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
        if (path[i][k] + path[k][j] < path[i][j])
          path[i][j] = path[i][k] + path[k][j];
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      path[i][j] = i * j % 7 + 1;
      if ((i + j) % 13 == 0 || (i + j) % 7 == 0 || (i + j) % 11 == 0)
        path[i][j] = 999;
    }
  floyd_warshall();
  printf("%d\n", path[N - 1][N - 2]);
  return 0;
}
