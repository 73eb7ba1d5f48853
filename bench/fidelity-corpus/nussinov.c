/* nussinov: Nussinov-like RNA folding DP over the upper triangle of an int table (static),
   with max() over split points and a data-dependent pairing test.
   Exercises: a triangular nest walking i downwards, a k loop that reads a row and a column
   (column walk), data-dependent branches written as conditional expressions.
   fidelity-sizes: N 40 250 500
   fidelity-decision: inlined kernel; column walk table[k+1][j]; if-converted max (cmov) */
#include <stdio.h>

#ifndef N
#define N 300
#endif

static int seq[N];
static int table[N][N];

static void nussinov(void) {
  for (int i = N - 1; i >= 0; i--) {
    for (int j = i + 1; j < N; j++) {
      int best = table[i][j];
      if (j - 1 >= 0 && table[i][j - 1] > best)
        best = table[i][j - 1];
      if (i + 1 < N && table[i + 1][j] > best)
        best = table[i + 1][j];
      if (i + 1 < N && j - 1 >= 0) {
        int pair = table[i + 1][j - 1] + ((i < j - 1 && seq[i] + seq[j] == 3) ? 1 : 0);
        if (pair > best)
          best = pair;
      }
      for (int k = i + 1; k < j; k++)
        if (table[i][k] + table[k + 1][j] > best)
          best = table[i][k] + table[k + 1][j];
      table[i][j] = best;
    }
  }
}

int main(void) {
  for (int i = 0; i < N; i++) {
    seq[i] = (i + 1) % 4;
    for (int j = 0; j < N; j++)
      table[i][j] = 0;
  }
  nussinov();
  printf("%d\n", table[0][N - 1]);
  return 0;
}
