#include <stdlib.h>
    double *A;
    void init(int n) { A = malloc(n * sizeof(double)); }
    void use(int n) { for (int i = 0; i < n; i++) A[i] = 0; }
    int main(void) { init(100); use(100); free(A); return 0; }
