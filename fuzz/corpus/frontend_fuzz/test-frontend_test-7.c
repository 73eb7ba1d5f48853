int total;
    void f(int n, double *a) { for (int i = 0; i < n; i++) { a[i * n] = 0; total += 1; } }
