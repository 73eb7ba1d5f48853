void f(double *a, int n) {
#pragma omp ordered
  a[0] = 1;
}
