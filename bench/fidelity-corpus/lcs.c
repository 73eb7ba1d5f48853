/* lcs: longest common subsequence of two byte strings by dynamic programming over an
   (N+1) x (N+1) int table on the heap.
   Exercises: data-dependent branches (characters equal or not), a carried dependence along j
   (not vectorisable), reads of the previous row and of the previous element (kept in a register).
   fidelity-sizes: N 40 250 790
   fidelity-decision: inlined kernel; carried dependence (scalar); data-dependent if/else */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 500
#endif

static int lcs(int n, const char *a, const char *b, int *T) {
  for (int j = 0; j <= n; j++)
    T[j] = 0;
  for (int i = 1; i <= n; i++) {
    T[i * (n + 1)] = 0;
    for (int j = 1; j <= n; j++) {
      if (a[i - 1] == b[j - 1])
        T[i * (n + 1) + j] = T[(i - 1) * (n + 1) + j - 1] + 1;
      else if (T[(i - 1) * (n + 1) + j] >= T[i * (n + 1) + j - 1])
        T[i * (n + 1) + j] = T[(i - 1) * (n + 1) + j];
      else
        T[i * (n + 1) + j] = T[i * (n + 1) + j - 1];
    }
  }
  return T[n * (n + 1) + n];
}

int main(void) {
  char *a = (char *)malloc(N);
  char *b = (char *)malloc(N);
  int *T = (int *)malloc((N + 1) * (N + 1) * sizeof(int));
  for (int i = 0; i < N; i++) {
    a[i] = 'a' + (i * 7) % 4;
    b[i] = 'a' + (i * 5 + 1) % 4;
  }
  printf("%d\n", lcs(N, a, b, T));
  free(a);
  free(b);
  free(T);
  return 0;
}
