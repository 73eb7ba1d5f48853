/* particles: array-of-structs particle update (64-byte particles: position, velocity,
   force, mass, id) with a few time steps and an energy reduction at the end.
   Exercises: field accesses striding over whole structs, SLP of the x/y/z updates (straight-line
   code on adjacent fields), a static update called in a loop (inlined), a heap array of structs.
   fidelity-sizes: N 300 3000 40000
   fidelity-decision: inlined kernel; SLP on x/y/z fields; energy sum an FP reduction (scalar) */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 10000
#endif
#ifndef STEPS
#define STEPS 4
#endif

struct particle {
  double x, y, z;
  double vx, vy, vz;
  double mass;
  int id;
  int pad;
};

static void step(int n, struct particle *p, double dt) {
  for (int i = 0; i < n; i++) {
    double inv = dt / p[i].mass;
    p[i].vx += inv * -p[i].x;
    p[i].vy += inv * -p[i].y;
    p[i].vz += inv * (-p[i].z - 9.81);
    p[i].x += dt * p[i].vx;
    p[i].y += dt * p[i].vy;
    p[i].z += dt * p[i].vz;
  }
}

static double energy(int n, const struct particle *p) {
  double e = 0.0;
  for (int i = 0; i < n; i++)
    e += 0.5 * p[i].mass * (p[i].vx * p[i].vx + p[i].vy * p[i].vy + p[i].vz * p[i].vz);
  return e;
}

int main(void) {
  struct particle *p = (struct particle *)malloc(N * sizeof(struct particle));
  for (int i = 0; i < N; i++) {
    p[i].x = i % 10;
    p[i].y = i % 7;
    p[i].z = i % 3;
    p[i].vx = p[i].vy = p[i].vz = 0.0;
    p[i].mass = 1.0 + i % 5;
    p[i].id = i;
    p[i].pad = 0;
  }
  for (int s = 0; s < STEPS; s++)
    step(N, p, 0.01);
  printf("%f\n", energy(N, p));
  free(p);
  return 0;
}
