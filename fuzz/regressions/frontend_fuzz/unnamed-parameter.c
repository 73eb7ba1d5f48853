void f(double *a, int) {
#pragma omp ordered
  a[0] = 1;
}
