typedef void (*kernel_fn)(int, double *);

static void zero(int n, double *a) {
  for (int i = 0; i < n; i++) a[i] = 0;
}

void run(int n, double *a) {
  kernel_fn k = zero;
  k(n, a);
}
