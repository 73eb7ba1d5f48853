// Two kernels over one array: produce() writes it, consume() reads it back. The array (8000
// bytes) fits the first level, so every read of consume() hits a line produce() brought in:
// cross-context reuse, for `simulate --reuse-matrix` (tests/statistics_test.cpp).
#define N 1000

double a[N];

void produce(void) {
  for (int i = 0; i < N; i++) a[i] = i;
}

double consume(void) {
  double s = 0;
  for (int i = 0; i < N; i++) s += a[i];
  return s;
}

int main(void) {
  produce();
  return (int)consume();
}
