void f(double *a, int n) {
#pragma omp parallel
  a[0] = 1;
}
