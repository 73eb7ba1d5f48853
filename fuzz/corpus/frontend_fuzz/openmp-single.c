void f(double *a, int n) {
#pragma omp single
  a[0] = 1;
}
