void f(double *a, int n) {
#pragma omp barrier
  a[0] = 1;
}
