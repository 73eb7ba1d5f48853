void f(double *a, int n) {
#pragma omp task
  a[0] = 1;
}
