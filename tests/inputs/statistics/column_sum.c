// A column walk whose rows (4096 bytes) are a multiple of a 4 KiB 2-way D1's set span (2048
// bytes): every element maps to one set, which thrashes (tests/statistics_test.cpp, --set-histogram).
#define N 512

double m[N][N];

double column(void) {
  double s = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < N; i++) s += m[i][0];
  return s;
}

int main(void) { return (int)column(); }
