// A scaled copy whose parallel loop deals single iterations round-robin, schedule(static, 1):
// out[i] and out[i + 1] belong to different threads, so the eight doubles of every line of out
// are written by four threads in turn (false sharing). The fix, thread-stripes-chunked.c, deals
// chunks of 8 iterations: one whole line of out per chunk.
#include <stdio.h>

#ifndef N
#define N 20000
#endif

double in[N];
double out[N] __attribute__((aligned(64)));

static void scale(double factor) {
#pragma omp parallel for schedule(static, 1)
  for (int i = 0; i < N; i++)
    out[i] = factor * in[i];
}

int main(void) {
  for (int i = 0; i < N; i++) in[i] = i;
  scale(2.0);
  printf("%f\n", out[N - 1]);
  return 0;
}
