void f(int n, double *a) {
      for (int i = 0; i < n; i++) {
        int idx = i * n + 2;
        double *row = a + i * n;
        a[idx] = row[3] + *(row + 4) + a[(i << 1) + (n >> 2)];
      }
    }
