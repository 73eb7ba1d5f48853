/* Callees inside loops of callers: iterators of the callers appear in the bindings. */
#define N 64
double A[N][N], B[N][N], x[N];

static void row(double *r, const double *v, int len) {
  for (int j = 0; j < len; j++) r[j] += v[j];
}

static void rows(double (*m)[N], int from, int to) {
  for (int i = from; i < to; i++) row(m[i], x, N);
}

static void column(int c) {
  for (int i = 0; i < N; i++) B[i][c] = A[c][i];
}

int main(void) {
  rows(A, 0, N / 2);
  rows(B, N / 2, N);
  for (int i = 0; i < N; i++) column(i);
  return 0;
}
