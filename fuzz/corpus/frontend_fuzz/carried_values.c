struct node { long value; int next; int pad; double weight; };
double total;
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
  struct node *nodes = (struct node *)__builtin_malloc(64 * sizeof(struct node));
  for (int i = 0; i < 64; i++) nodes[i].next = -1;
  int prev = 0;
  for (int i = 1; i < 64; i++) {
    int at = (i * 7) % 64;
    nodes[prev].next = at;
    prev = at;
  }
  total = traverse(nodes, 0);
  return 0;
}
