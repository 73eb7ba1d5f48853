#include <stdlib.h>
double sum(const double *p, int n) {
  const double *end = p + n;
  double s = 0;
  while (p < end) s += *p++;
  int i = 0;
  do { s += p[-1 - i]; i += 2; } while (i < n);
  return s;
}
int main(void) { double *a = malloc(64 * sizeof(double)); double r = sum(a, 64); free(a); return (int)r; }
