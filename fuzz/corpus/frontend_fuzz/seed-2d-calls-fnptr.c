#define N 16
static double A[N][N], B[N][N];
static void scale(double (*m)[N], double f, int n) { for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) m[i][j] *= f; }
static int (*op)(int) = 0;
static int twice(int x) { return 2 * x; }
int fact(int k) { return k <= 1 ? 1 : k * fact(k - 1); }
int main(void) {
  op = twice;
  scale(A, 2.0, N);
  scale(B, 0.5, op(N / 2));
  for (int i = N - 1; i >= 0; i--) for (int j = 0; j < N; j += 2) A[j][i] = B[i][j] + A[i & 7][(j * 3) % N];
  return fact(5) + (int)A[1][2];
}
