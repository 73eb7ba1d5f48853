/* conv2d: 2-D convolution of a float image with a 5x5 float kernel (static arrays), the kernel
   loops innermost.
   Exercises: small fixed inner loops (5 and 5 iterations) that GCC and Clang fully unroll, the
   25 coefficients kept in registers or reloaded, the output written once per pixel.
   fidelity-sizes: N 50 250 570
   fidelity-decision: inlined kernel; 5x5 loops fully unrolled (SLP); coefficient reloads */
#include <stdio.h>

#ifndef N
#define N 300
#endif
#define K 5

static float img[N][N], out[N][N];
static float coef[K][K];

static void conv2d(void) {
  for (int i = 0; i < N - K + 1; i++)
    for (int j = 0; j < N - K + 1; j++) {
      float s = 0.0f;
      for (int a = 0; a < K; a++)
        for (int b = 0; b < K; b++)
          s += coef[a][b] * img[i + a][j + b];
      out[i][j] = s;
    }
}

int main(void) {
  for (int a = 0; a < K; a++)
    for (int b = 0; b < K; b++)
      coef[a][b] = (a + b + 1) / 25.0f;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      img[i][j] = (float)((i * 3 + j) % 17);
      out[i][j] = 0.0f;
    }
  conv2d();
  printf("%f\n", out[N / 2][N / 2]);
  return 0;
}
