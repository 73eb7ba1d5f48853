void f(double *a, int n) {
#pragma omp parallel sections
  {
#pragma omp section
    a[0] = 1;
#pragma omp section
    a[1] = 2;
  }
}
