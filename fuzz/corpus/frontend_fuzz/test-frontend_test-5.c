void f(int n, double *a) {
      #pragma omp parallel for
      for (int i = 0; i < n; i++) a[i] = 0;
      #pragma omp parallel
      { a[0] = 1; }
    }
