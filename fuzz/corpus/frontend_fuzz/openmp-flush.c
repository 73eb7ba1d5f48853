void f(double *a, int n) {
#pragma omp flush
  a[0] = 1;
}
