void f(double *a, int n) {
#pragma omp taskgroup
  a[0] = 1;
}
