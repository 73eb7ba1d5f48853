/* linked_array: a singly linked list laid out in an array of nodes (next as an index), built
   with a strided permutation so consecutive nodes are far apart, then traversed a few times
   (7919 is prime, so i * 7919 % N visits every node once; the last one keeps next = -1).
   Exercises: data-dependent addresses (node[cur].next), a while loop whose trip count is data,
   struct fields read through an index, a value carried from one iteration to the next (prev);
   nothing to vectorise. simulate follows both chains through the values the program stored.
   fidelity-sizes: N 1000 10000 100000
   fidelity-decision: inlined traversal; indirect (data-dependent) accesses; while loop; carried values */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 10000
#endif
#ifndef PASSES
#define PASSES 4
#endif

struct node {
  long value;
  int next;
  int pad;
  double weight;
};

static double traverse(const struct node *nodes, int head) {
  double s = 0.0;
  int cur = head;
  while (cur >= 0) {
    s += nodes[cur].value * nodes[cur].weight;
    cur = nodes[cur].next;
  }
  return s;
}

int main(void) {
  struct node *nodes = (struct node *)malloc(N * sizeof(struct node));
  for (int i = 0; i < N; i++) {
    nodes[i].value = i;
    nodes[i].weight = 1.0 / (1 + i % 9);
    nodes[i].pad = 0;
    nodes[i].next = -1;
  }
  int prev = 0;
  for (int i = 1; i < N; i++) {
    int at = (int)(((long)i * 7919) % N);
    nodes[prev].next = at;
    prev = at;
  }
  double total = 0.0;
  for (int p = 0; p < PASSES; p++)
    total += traverse(nodes, 0);
  printf("%f\n", total);
  free(nodes);
  return 0;
}
