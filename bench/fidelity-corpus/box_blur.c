/* box_blur: 3x3 box blur of a float image (N x N) into a second image, heap arrays, two passes.
   Exercises: float data (16 floats per line), three input rows live at once, an inner loop
   that vectorises when the images are known distinct (static kernel inlined into main).
   fidelity-sizes: N 60 250 570
   fidelity-decision: GCC keeps blur out of line (called twice; blur.constprop.0), Clang inlines; float loop vectorisable */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 300
#endif

static void blur(int n, const float *in, float *out) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      out[i * n + j] = (in[(i - 1) * n + j - 1] + in[(i - 1) * n + j] + in[(i - 1) * n + j + 1] +
                        in[i * n + j - 1] + in[i * n + j] + in[i * n + j + 1] +
                        in[(i + 1) * n + j - 1] + in[(i + 1) * n + j] + in[(i + 1) * n + j + 1]) *
                       (1.0f / 9.0f);
}

int main(void) {
  float *a = (float *)malloc(N * N * sizeof(float));
  float *b = (float *)malloc(N * N * sizeof(float));
  for (int i = 0; i < N * N; i++) {
    a[i] = (float)(i % 255);
    b[i] = 0.0f;
  }
  blur(N, a, b);
  blur(N, b, a);
  printf("%f\n", a[(N / 2) * N + N / 2]);
  free(a);
  free(b);
  return 0;
}
