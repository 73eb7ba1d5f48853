void f(double *a, int n) {
#pragma omp taskwait
  a[0] = 1;
}
