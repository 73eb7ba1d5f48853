// thread-counters.c with each thread's counter on its own cache line: counter t is element
// t * PAD of an array PAD times longer (PAD longs = 64 bytes), so no two threads write one line.
#include <omp.h>
#include <stdio.h>

#ifndef N
#define N 20000
#endif
#define MAX_THREADS 64
#define PAD 8

long values[N];
long counts[MAX_THREADS * PAD];

static void count_above(long threshold) {
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    int t = omp_get_thread_num();
    counts[t * PAD] += values[i] > threshold;
  }
}

int main(void) {
  for (int i = 0; i < N; i++) values[i] = (i * 7919L) % 1000;
  count_above(500);
  long total = 0;
  for (int t = 0; t < MAX_THREADS; t++) total += counts[t * PAD];
  printf("%ld\n", total);
  return 0;
}
