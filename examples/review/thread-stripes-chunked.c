// thread-stripes.c dealing chunks of 8 iterations, schedule(static, 8): each chunk writes one
// whole 64-byte line of out (aligned to a line), so no two threads write one line.
#include <stdio.h>

#ifndef N
#define N 20000
#endif

double in[N];
double out[N] __attribute__((aligned(64)));

static void scale(double factor) {
#pragma omp parallel for schedule(static, 8)
  for (int i = 0; i < N; i++)
    out[i] = factor * in[i];
}

int main(void) {
  for (int i = 0; i < N; i++) in[i] = i;
  scale(2.0);
  printf("%f\n", out[N - 1]);
  return 0;
}
