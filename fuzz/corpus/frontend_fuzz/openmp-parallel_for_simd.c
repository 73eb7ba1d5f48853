void f(double *a, int n) {
#pragma omp parallel for simd
  for (int i = 0; i < n; i++) a[i] = 1;
}
