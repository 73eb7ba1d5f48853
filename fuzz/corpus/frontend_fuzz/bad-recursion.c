void sweep(int n, double *a) {
  if (n <= 0) return;
  a[n - 1] = 0;
  sweep(n - 1, a);
}
