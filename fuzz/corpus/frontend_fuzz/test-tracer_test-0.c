void row(int len, double *r) { for (int j = 0; j < len; j++) r[j] = 0; }
    void all(int n, double *m) { for (int i = 0; i < n; i++) row(n - 1, m + i * n + 1); }
