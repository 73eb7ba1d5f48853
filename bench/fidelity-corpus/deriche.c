/* deriche: Deriche-like recursive (IIR) edge filter on float images: causal and anti-causal
   passes along rows then along columns, with scalar recurrences (ym1, ym2, xm1, ...).
   Exercises: float arrays, loop-carried scalar recurrences kept in registers (not vectorised),
   backwards loops, column passes that walk down columns (stride N floats).
   fidelity-sizes: N 40 128 400
   fidelity-decision: inlined kernel; scalar recurrences (no vectorisation); column walks */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 256
#endif

static void deriche(int w, int h, const float *imgIn, float *imgOut, float *y1, float *y2) {
  const float a1 = 0.25f, a2 = -0.1f, a3 = 0.2f, a4 = -0.05f;
  const float b1 = 0.6f, b2 = -0.2f, c1 = 1.0f;
  for (int i = 0; i < w; i++) {
    float ym1 = 0.0f, ym2 = 0.0f, xm1 = 0.0f;
    for (int j = 0; j < h; j++) {
      y1[i * h + j] = a1 * imgIn[i * h + j] + a2 * xm1 + b1 * ym1 + b2 * ym2;
      xm1 = imgIn[i * h + j];
      ym2 = ym1;
      ym1 = y1[i * h + j];
    }
  }
  for (int i = 0; i < w; i++) {
    float yp1 = 0.0f, yp2 = 0.0f, xp1 = 0.0f, xp2 = 0.0f;
    for (int j = h - 1; j >= 0; j--) {
      y2[i * h + j] = a3 * xp1 + a4 * xp2 + b1 * yp1 + b2 * yp2;
      xp2 = xp1;
      xp1 = imgIn[i * h + j];
      yp2 = yp1;
      yp1 = y2[i * h + j];
    }
  }
  for (int i = 0; i < w; i++)
    for (int j = 0; j < h; j++)
      imgOut[i * h + j] = c1 * (y1[i * h + j] + y2[i * h + j]);
  for (int j = 0; j < h; j++) {
    float tm1 = 0.0f, ym1 = 0.0f, ym2 = 0.0f;
    for (int i = 0; i < w; i++) {
      y1[i * h + j] = a1 * imgOut[i * h + j] + a2 * tm1 + b1 * ym1 + b2 * ym2;
      tm1 = imgOut[i * h + j];
      ym2 = ym1;
      ym1 = y1[i * h + j];
    }
  }
  for (int j = 0; j < h; j++) {
    float tp1 = 0.0f, tp2 = 0.0f, yp1 = 0.0f, yp2 = 0.0f;
    for (int i = w - 1; i >= 0; i--) {
      y2[i * h + j] = a3 * tp1 + a4 * tp2 + b1 * yp1 + b2 * yp2;
      tp2 = tp1;
      tp1 = imgOut[i * h + j];
      yp2 = yp1;
      yp1 = y2[i * h + j];
    }
  }
  for (int i = 0; i < w; i++)
    for (int j = 0; j < h; j++)
      imgOut[i * h + j] = c1 * (y1[i * h + j] + y2[i * h + j]);
}

int main(void) {
  float *imgIn = (float *)malloc(N * N * sizeof(float));
  float *imgOut = (float *)malloc(N * N * sizeof(float));
  float *y1 = (float *)malloc(N * N * sizeof(float));
  float *y2 = (float *)malloc(N * N * sizeof(float));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      imgIn[i * N + j] = (float)((313 * i + 991 * j) % 65536) / 65535.0f;
  deriche(N, N, imgIn, imgOut, y1, y2);
  printf("%f\n", imgOut[(N / 2) * N + N / 3]);
  free(imgIn);
  free(imgOut);
  free(y1);
  free(y2);
  return 0;
}
