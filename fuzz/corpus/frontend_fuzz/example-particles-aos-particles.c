/* Particles as an array of structs: each field access strides over whole particles. */
#include <stdio.h>
#include <stdlib.h>

#ifndef NP
#define NP 100000
#endif

struct vec3 {
  double x, y, z;
};

struct particle {
  struct vec3 pos;
  struct vec3 vel;
  double mass;
  int id;
};

void advance(int n, struct particle *p, double dt) {
  for (int i = 0; i < n; i++) {
    p[i].pos.x += dt * p[i].vel.x;
    p[i].pos.y += dt * p[i].vel.y;
    p[i].pos.z += dt * p[i].vel.z;
  }
}

double kinetic_energy(int n, const struct particle *p) {
  double e = 0.0;
  for (int i = 0; i < n; i++) {
    const struct particle *q = &p[i];
    e += 0.5 * q->mass * (q->vel.x * q->vel.x + q->vel.y * q->vel.y + q->vel.z * q->vel.z);
  }
  return e;
}

int main(void) {
  struct particle *p = malloc(NP * sizeof(struct particle));
  for (int i = 0; i < NP; i++) {
    p[i].pos.x = p[i].pos.y = p[i].pos.z = 0.0;
    p[i].vel.x = i;
    p[i].vel.y = 1.0;
    p[i].vel.z = -1.0;
    p[i].mass = 1.0;
    p[i].id = i;
  }
  for (int s = 0; s < 10; s++) advance(NP, p, 0.01);
  printf("%f\n", kinetic_energy(NP, p));
  free(p);
  return 0;
}
