void tri(int n, double *a, const int *rowptr) {
      for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) a[i * n + j] = 1;
      for (int r = 0; r < n; r++)
        for (int k = rowptr[r]; k < rowptr[r + 1]; k++) a[k] = 2;
    }
