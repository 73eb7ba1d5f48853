void f(int n, double *a, double *b) {
      for (int i = 0; i < n; i++) {
        if (i < n / 2 && i != 3) a[i] = 1; else b[i] = 2;
        a[i] = i > 4 ? b[i] : b[i + 1];
        if (a[i] > 0.5) b[0] = 1;
      }
    }
