/* Driver in its own file: sizes and buffers flow into the kernels of kernels.c. */
#include <stdio.h>
#include <stdlib.h>

#include "kernels.h"

#ifndef LEN
#define LEN 4096
#endif
#define ROWS 64

int main(void) {
  double *x = malloc(LEN * sizeof(double));
  double *y = malloc(LEN * sizeof(double));
  double *factor = malloc(ROWS * sizeof(double));
  fill(x, LEN, 1.0);
  fill(y, LEN, 2.0);
  fill(factor, ROWS, 0.5);
  axpy(LEN - 1, 3.0, x + 1, y);
  scale_rows(ROWS, LEN / ROWS, y, factor);
  printf("%f\n", y[7]);
  free(x);
  free(y);
  free(factor);
  return 0;
}
