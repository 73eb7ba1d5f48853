void f(int n, double *a) {
  int i = 0;
again:
  a[i] = 0;
  i++;
  if (i < n) goto again;
}
