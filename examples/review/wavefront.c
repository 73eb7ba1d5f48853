/* Each element takes its value from the row above, one column to the right, with the columns
   in the outer loop: the inner loop i walks "a" N * 8 bytes per iteration, yet the interchange
   that would make it stride-1 reverses the dependence (distance (1,-1) in (j,i)).
   `cats-static review` must report it illegal and recommend nothing. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 300
#endif

void wavefront(double *a) {
  for (int j = 0; j < N - 1; j++)
    for (int i = 1; i < N; i++)
      a[i * N + j] = a[(i - 1) * N + j + 1] + 1.0;
}

int main(void) {
  double *a = (double *)malloc(N * N * sizeof(double));
  for (int i = 0; i < N * N; i++) a[i] = i % 3;
  wavefront(a);
  printf("%f\n", a[N * N - 2]);
  free(a);
  return 0;
}
