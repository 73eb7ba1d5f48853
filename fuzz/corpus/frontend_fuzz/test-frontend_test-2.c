#include <stdlib.h>
    double g[10][20];
    struct rec { char tag; double v; int k[3]; };
    static struct rec table[8];
    void f(int n, int m, double A[n][m], double (*B)[16], float *restrict p) {
      double local[4][4];
      double vla[n][m + 1];
      static int counter[2];
      double *h = malloc(n * sizeof(double));
      double *c = calloc(n, 8);
      double *al = aligned_alloc(64, 4096);
      double *pm;
      posix_memalign((void **)&pm, 128, n * 16);
      h = realloc(h, 2 * n * sizeof(double));
      local[1][2] = g[3][4] + A[1][1] + B[2][3] + p[5] + vla[1][1] + table[2].v + table[3].k[2] + counter[1];
      h[1] = c[2] + al[3] + pm[4];
      free(h); free(c); free(al); free(pm);
    }
