#include <stdlib.h>
#include <string.h>
typedef struct { float *data; int n; } vec;
static void *xmalloc(size_t n) { void *p = malloc(n); if (!p) abort(); return p; }
void copy(vec *dst, const vec *src) { memcpy(dst->data, src->data, src->n * sizeof(float)); }
int main(int argc, char **argv) {
  vec a, b;
  a.n = b.n = 32;
  a.data = xmalloc(32 * sizeof(float));
  b.data = calloc(32, sizeof(float));
  b.data = realloc(b.data, 64 * sizeof(float));
  copy(&a, &b);
  for (int i = 0; i < a.n; i += 4) a.data[i] = b.data[a.n - 1 - i] * 2.0f;
  free(a.data); free(b.data);
  return 0;
}
