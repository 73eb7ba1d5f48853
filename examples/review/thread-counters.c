// Counting, per thread, the values above a threshold: each thread of the parallel loop adds into
// its own counter, counts[omp_get_thread_num()], but the counters are 8 bytes apart, so the
// counters of eight threads share one cache line and every increment takes the line away from
// the others (false sharing). The fix, thread-counters-padded.c, puts each counter on its own line.
#include <omp.h>
#include <stdio.h>

#ifndef N
#define N 20000
#endif
#define MAX_THREADS 64

long values[N];
long counts[MAX_THREADS];

static void count_above(long threshold) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    int t = omp_get_thread_num();
    counts[t] += values[i] > threshold;
  }
}

int main(void) {
  for (int i = 0; i < N; i++) values[i] = (i * 7919L) % 1000;
  count_above(500);
  long total = 0;
  for (int t = 0; t < MAX_THREADS; t++) total += counts[t];
  printf("%ld\n", total);
  return 0;
}
