/* Direct and mutual recursion: followed once, then stopped with a diagnostic. */
double a[100];

static void down(int n) {
  a[n] = 0;
  if (n > 0) down(n - 1);
}

static void odd(int n);
static void even(int n) {
  a[n] = 1;
  if (n > 0) odd(n - 1);
}
static void odd(int n) {
  a[n + 1] = 2;
  if (n > 0) even(n - 1);
}

int main(void) {
  down(10);
  even(20);
  odd(30);
  return 0;
}
