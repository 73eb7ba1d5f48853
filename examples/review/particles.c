/* Particles as an array of 96-byte structs, moved by a loop that reads and writes only the x
   position and velocity: 16 of the 96 bytes of each particle, so every 64-byte line the loop
   fetches holds about 11 bytes it uses. `cats-static review` finds the layout problem;
   particles-soa.c is the structure of arrays written by hand. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 20000
#endif
#ifndef STEPS
#define STEPS 10
#endif

struct particle {
  double x, y, z;
  double vx, vy, vz;
  double mass, charge;
  long id;
  char name[24];
};

void drift(int n, struct particle *p, double dt) {
  for (int i = 0; i < n; i++)
    p[i].x += dt * p[i].vx;
}

int main(void) {
  struct particle *p = malloc(N * sizeof(struct particle));
  for (int i = 0; i < N; i++) {
    p[i].x = 0.0;
    p[i].y = 0.0;
    p[i].z = 0.0;
    p[i].vx = i % 7;
    p[i].vy = 1.0;
    p[i].vz = -1.0;
    p[i].mass = 1.0;
    p[i].charge = -1.0;
    p[i].id = i;
    p[i].name[0] = (char)('a' + i % 26);
  }
  for (int s = 0; s < STEPS; s++) drift(N, p, 0.01);
  printf("%f %c\n", p[N - 1].x, p[N - 1].name[0]);
  free(p);
  return 0;
}
