void f(int n, double *a, const int *flag) {
      for (int i = 0; i < n; i++) { if (flag[i]) a[i] = 1; else a[i] = 2; }
    }
