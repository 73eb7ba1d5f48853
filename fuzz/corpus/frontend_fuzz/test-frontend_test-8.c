void bump(int *counter) { *counter += 1; }
    void f(int n, double *a) { int hits = 0; for (int i = 0; i < n; i++) { a[i] = hits; bump(&hits); } }
