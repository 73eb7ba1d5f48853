/* particles.c with its array of structs split by hand into a structure of arrays, one array
   per field: the drift loop now fetches only the lines of x and vx and uses every byte of
   them. `cats-static review` finds no layout problem here. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 20000
#endif
#ifndef STEPS
#define STEPS 10
#endif

void drift(int n, double *x, const double *vx, double dt) {
  for (int i = 0; i < n; i++)
    x[i] += dt * vx[i];
}

int main(void) {
  /* One block, the arrays back to back: separate blocks of 128 KiB or more would each be
     mapped at the same offset in a page, and a loop writing more fields than D1 has ways would
     make them evict each other. */
  double *x = malloc(N * (9 * sizeof(double) + 24));
  double *y = x + N;
  double *z = x + 2 * N;
  double *vx = x + 3 * N;
  double *vy = x + 4 * N;
  double *vz = x + 5 * N;
  double *mass = x + 6 * N;
  double *charge = x + 7 * N;
  long *id = (long *)(x + 8 * N);
  char(*name)[24] = (char(*)[24])(x + 9 * N);
  for (int i = 0; i < N; i++) {
    x[i] = 0.0;
    y[i] = 0.0;
    z[i] = 0.0;
    vx[i] = i % 7;
    vy[i] = 1.0;
    vz[i] = -1.0;
    mass[i] = 1.0;
    charge[i] = -1.0;
    id[i] = i;
    name[i][0] = (char)('a' + i % 26);
  }
  for (int s = 0; s < STEPS; s++) drift(N, x, vx, 0.01);
  printf("%f %c\n", x[N - 1], name[N - 1][0]);
  free(x);
  return 0;
}
