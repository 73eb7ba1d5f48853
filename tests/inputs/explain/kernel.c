/* --explain-model: a constant-bound fill loop in main, then a kernel whose bound is a parameter. */
static double x[64];

double sum(int n, const double *x) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

int main(void) {
  double t;
  for (int i = 0; i < 64; i++)
    x[i] = i;
  t = sum(64, x);
  return t > 0.0;
}
