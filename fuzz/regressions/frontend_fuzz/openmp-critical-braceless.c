void f(double *a, int n) {
#pragma omp critical
  a[0] = 1;
}
