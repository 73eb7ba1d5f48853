void f(double *a, int n) {
#pragma omp masked
  a[0] = 1;
}
