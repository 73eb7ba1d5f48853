void f(double *a, int n) {
#pragma omp target
  a[0] = 1;
}
