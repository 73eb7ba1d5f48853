void f(double *a, int n) {
#pragma omp atomic
  a[0] += 1;
}
