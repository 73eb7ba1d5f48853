void f(double *a, int n) {
#pragma omp teams
  a[0] = 1;
}
