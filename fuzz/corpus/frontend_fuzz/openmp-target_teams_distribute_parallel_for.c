void f(double *a, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++) a[i] = 1;
}
