typedef void (*kernel_fn)(int, double *);

static void zero(int n, double *a) {
  for (int i = 0; i < n; i++) a[i] = 0;
}

/* The target comes from the caller, so it is not known here (k = zero would be followed). */
void run(int n, double *a, kernel_fn k) {
  k(n, a);
}
