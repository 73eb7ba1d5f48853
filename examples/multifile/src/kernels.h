#ifndef KERNELS_H
#define KERNELS_H

void fill(double *v, int n, double value);
void axpy(int n, double a, const double *x, double *y);
void scale_rows(int rows, int cols, double *m, const double *factor);

#endif
