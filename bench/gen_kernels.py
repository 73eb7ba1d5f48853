#!/usr/bin/env python3
"""Writes 30 PolyBench-like C kernels (one file each) into the directory given as argument:
the benchmark-like set bench/scale_speed.sh derives counts for. Each kernel is a function whose
sizes are integer parameters and whose arrays are C99 variably modified parameters, so every
count is a formula of the sizes."""
import os
import sys

KERNELS = {
    "gemm": ("int ni, int nj, int nk, double alpha, double C[ni][nj], double A[ni][nk], double B[nk][nj]",
             "for (int i = 0; i < ni; i++) for (int j = 0; j < nj; j++) for (int k = 0; k < nk; k++) C[i][j] += alpha * A[i][k] * B[k][j];"),
    "two_mm": ("int n, double T[n][n], double A[n][n], double B[n][n], double C[n][n], double D[n][n]",
               "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) { T[i][j] = 0; for (int k = 0; k < n; k++) T[i][j] += A[i][k] * B[k][j]; }\n"
               "  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) for (int k = 0; k < n; k++) D[i][j] += T[i][k] * C[k][j];"),
    "atax": ("int m, int n, double A[m][n], double x[n], double y[n], double t[m]",
             "for (int i = 0; i < m; i++) { t[i] = 0; for (int j = 0; j < n; j++) t[i] += A[i][j] * x[j]; for (int j = 0; j < n; j++) y[j] += A[i][j] * t[i]; }"),
    "bicg": ("int m, int n, double A[n][m], double s[m], double q[n], double p[m], double r[n]",
             "for (int i = 0; i < n; i++) { q[i] = 0; for (int j = 0; j < m; j++) { s[j] += r[i] * A[i][j]; q[i] += A[i][j] * p[j]; } }"),
    "mvt": ("int n, double x1[n], double x2[n], double y1[n], double y2[n], double A[n][n]",
            "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) x1[i] += A[i][j] * y1[j];\n"
            "  for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) x2[i] += A[j][i] * y2[j];"),
    "gesummv": ("int n, double A[n][n], double B[n][n], double x[n], double y[n], double t[n]",
                "for (int i = 0; i < n; i++) { t[i] = 0; y[i] = 0; for (int j = 0; j < n; j++) { t[i] += A[i][j] * x[j]; y[i] += B[i][j] * x[j]; } y[i] += t[i]; }"),
    "syrk": ("int n, int m, double C[n][n], double A[n][m]",
             "for (int i = 0; i < n; i++) for (int j = 0; j <= i; j++) for (int k = 0; k < m; k++) C[i][j] += A[i][k] * A[j][k];"),
    "syr2k": ("int n, int m, double C[n][n], double A[n][m], double B[n][m]",
              "for (int i = 0; i < n; i++) for (int j = 0; j <= i; j++) for (int k = 0; k < m; k++) C[i][j] += A[j][k] * B[i][k] + B[j][k] * A[i][k];"),
    "trmm": ("int m, int n, double A[m][m], double B[m][n]",
             "for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) for (int k = i + 1; k < m; k++) B[i][j] += A[k][i] * B[k][j];"),
    "symm": ("int m, int n, double C[m][n], double A[m][m], double B[m][n]",
             "for (int i = 0; i < m; i++) for (int j = 0; j < n; j++) for (int k = 0; k < i; k++) C[k][j] += B[i][j] * A[i][k];"),
    "doitgen": ("int nr, int nq, int np, double A[nr][nq][np], double C4[np][np], double sum[np]",
                "for (int r = 0; r < nr; r++) for (int q = 0; q < nq; q++) { for (int p = 0; p < np; p++) { sum[p] = 0; for (int s = 0; s < np; s++) sum[p] += A[r][q][s] * C4[s][p]; } for (int p = 0; p < np; p++) A[r][q][p] = sum[p]; }"),
    "jacobi_1d": ("int tsteps, int n, double A[n], double B[n]",
                  "for (int t = 0; t < tsteps; t++) { for (int i = 1; i < n - 1; i++) B[i] = A[i - 1] + A[i] + A[i + 1]; for (int i = 1; i < n - 1; i++) A[i] = B[i - 1] + B[i] + B[i + 1]; }"),
    "jacobi_2d": ("int tsteps, int n, double A[n][n], double B[n][n]",
                  "for (int t = 0; t < tsteps; t++) for (int i = 1; i < n - 1; i++) for (int j = 1; j < n - 1; j++) B[i][j] = A[i][j] + A[i][j - 1] + A[i][j + 1] + A[i - 1][j] + A[i + 1][j];"),
    "seidel_2d": ("int tsteps, int n, double A[n][n]",
                  "for (int t = 0; t < tsteps; t++) for (int i = 1; i < n - 1; i++) for (int j = 1; j < n - 1; j++) A[i][j] = A[i - 1][j] + A[i][j - 1] + A[i][j] + A[i][j + 1] + A[i + 1][j];"),
    "fdtd_2d": ("int tmax, int nx, int ny, double ex[nx][ny], double ey[nx][ny], double hz[nx][ny]",
                "for (int t = 0; t < tmax; t++) { for (int i = 1; i < nx; i++) for (int j = 0; j < ny; j++) ey[i][j] -= hz[i][j] - hz[i - 1][j]; "
                "for (int i = 0; i < nx; i++) for (int j = 1; j < ny; j++) ex[i][j] -= hz[i][j] - hz[i][j - 1]; }"),
    "heat_3d": ("int tsteps, int n, double A[n][n][n], double B[n][n][n]",
                "for (int t = 0; t < tsteps; t++) for (int i = 1; i < n - 1; i++) for (int j = 1; j < n - 1; j++) for (int k = 1; k < n - 1; k++) B[i][j][k] = A[i + 1][j][k] + A[i - 1][j][k] + A[i][j + 1][k] + A[i][j - 1][k] + A[i][j][k + 1] + A[i][j][k - 1];"),
    "lu": ("int n, double A[n][n]",
           "for (int i = 0; i < n; i++) { for (int j = 0; j < i; j++) { for (int k = 0; k < j; k++) A[i][j] -= A[i][k] * A[k][j]; A[i][j] /= A[j][j]; } "
           "for (int j = i; j < n; j++) for (int k = 0; k < i; k++) A[i][j] -= A[i][k] * A[k][j]; }"),
    "cholesky": ("int n, double A[n][n]",
                 "for (int i = 0; i < n; i++) { for (int j = 0; j < i; j++) { for (int k = 0; k < j; k++) A[i][j] -= A[i][k] * A[j][k]; A[i][j] /= A[j][j]; } "
                 "for (int k = 0; k < i; k++) A[i][i] -= A[i][k] * A[i][k]; }"),
    "trisolv": ("int n, double L[n][n], double x[n], double b[n]",
                "for (int i = 0; i < n; i++) { x[i] = b[i]; for (int j = 0; j < i; j++) x[i] -= L[i][j] * x[j]; x[i] = x[i] / L[i][i]; }"),
    "floyd_warshall": ("int n, double P[n][n]",
                       "for (int k = 0; k < n; k++) for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) P[i][j] = P[i][j] < P[i][k] + P[k][j] ? P[i][j] : P[i][k] + P[k][j];"),
    "covariance": ("int m, int n, double data[n][m], double cov[m][m], double mean[m]",
                   "for (int j = 0; j < m; j++) { mean[j] = 0; for (int i = 0; i < n; i++) mean[j] += data[i][j]; }\n"
                   "  for (int i = 0; i < m; i++) for (int j = i; j < m; j++) { cov[i][j] = 0; for (int k = 0; k < n; k++) cov[i][j] += data[k][i] * data[k][j]; }"),
    "gramschmidt": ("int m, int n, double A[m][n], double R[n][n], double Q[m][n]",
                    "for (int k = 0; k < n; k++) { for (int i = 0; i < m; i++) Q[i][k] = A[i][k]; for (int j = k + 1; j < n; j++) { R[k][j] = 0; for (int i = 0; i < m; i++) R[k][j] += Q[i][k] * A[i][j]; } }"),
    "adi_sweep": ("int n, double u[n][n], double v[n][n], double p[n][n]",
                  "for (int i = 1; i < n - 1; i++) for (int j = 1; j < n - 1; j++) p[i][j] = u[i][j - 1] * 0.5 + v[j][i];\n"
                  "  for (int i = 1; i < n - 1; i++) for (int j = n - 2; j >= 1; j--) v[j][i] = p[i][j] * v[j + 1][i];"),
    "conv2d": ("int n, int k, double in[n + k][n + k], double w[k][k], double out[n][n]",
               "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) for (int a = 0; a < k; a++) for (int b = 0; b < k; b++) out[i][j] += in[i + a][j + b] * w[a][b];"),
    "transpose": ("int n, double A[n][n], double B[n][n]",
                  "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) B[j][i] = A[i][j];"),
    "tiled_copy": ("int n, double A[n][n], double B[n][n]",
                   "for (int ii = 0; ii < n; ii += 32) for (int jj = 0; jj < n; jj += 32) for (int i = ii; i < (ii + 32 < n ? ii + 32 : n); i++) for (int j = jj; j < (jj + 32 < n ? jj + 32 : n); j++) B[i][j] = A[i][j];"),
    "strided_sum": ("int n, double *a, double *s",
                    "for (int i = 0; i < n; i += 4) s[0] += a[i];"),
    "backward_scan": ("int n, double *a, double *b",
                      "for (int i = n - 1; i >= 1; i--) b[i] = a[i] - a[i - 1];"),
    "skewed_wavefront": ("int n, double A[n][2 * n]",
                         "for (int i = 1; i < n; i++) for (int j = i; j < i + n - 1; j++) A[i][j] = A[i - 1][j - 1] + 1.0;"),
    "prefix_sum": ("int n, double *x",
                   "for (int i = 1; i < n; i++) x[i] += x[i - 1];"),
}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    assert len(KERNELS) == 30, len(KERNELS)
    for name, (params, body) in KERNELS.items():
        with open(os.path.join(out, name + ".c"), "w") as f:
            f.write(f"void {name}({params}) {{\n  {body}\n}}\n")


if __name__ == "__main__":
    main()
