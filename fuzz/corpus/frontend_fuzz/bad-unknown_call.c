void external_kernel(int n, double *a);

void run(int n, double *a) {
  for (int i = 0; i < n; i++) a[i] = 1;
  external_kernel(n, a);
}
