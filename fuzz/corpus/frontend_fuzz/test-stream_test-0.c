double a[100];
    void f(int n) {
      for (int i = 0; i <= n; i++) a[i] = 0;          // n + 1
      for (int i = n; i > 0; i -= 3) a[i] = 1;        // ceil(n / 3)
      for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) a[j] += 1;        // n (n + 1) / 2 reads and writes
      for (int i = 0; i < n; i++) {
        if (i < 3) a[i] = 2; else a[i + 1] = 3;       // 3 then, n - 3 else
      }
    }
