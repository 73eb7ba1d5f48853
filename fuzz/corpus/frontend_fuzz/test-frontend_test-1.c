void f(int n, double *a) {
      int i = 0;
      while (i < n) { a[i] = 0; i++; }
      do { a[0] = 1; } while (a[1] > 0);
      for (int k = 0; k * k < n; k++) a[k] = 2;
      for (int m = 0; m < n; m++) { a[m] = 3; m++; }
    }
