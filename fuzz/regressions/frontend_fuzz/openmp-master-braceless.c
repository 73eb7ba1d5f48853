void f(double *a, int n) {
#pragma omp master
  a[0] = 1;
}
