void f(double *a, int n) {
#pragma omp simd
  for (int i = 0; i < n; i++) a[i] = 1;
}
