void g(int r, double *p) { for (int i = 0; i < 4; i++) p[r * 4 + i] = 1; }
    void f(double *a) { for (int i = 0; i < 8; i++) g(i, a); }
