/* Copies of copies (tests/compiler_idioms_test.cpp): each copy loop becomes memcpy for both
   compilers; Clang's MemCpyOpt then makes a copy of what a memcpy just wrote read that memcpy's
   source. clang 14 -O2 -S -emit-llvm (and -mllvm -print-after=memcpyopt on main):
     call void @llvm.memcpy(... @b ..., ... @a ..., i64 16000 ...)
     call void @llvm.memcpy(... @c ..., ... @a ..., i64 16000 ...)   copy(N, c, b)
     call void @llvm.memcpy(... @d ..., ... @a ..., i64 16000 ...)   copy(N, d, c): a chain
     call void @llvm.memcpy(... @e ..., ... @d ..., i64 16000 ...)   copy(N, e, d): a[5] changed a
   gcc 12.2 -O2 -S: four memcpy calls, each later one's %rsi the previous call's return value
   %rax, its destination: memcpy(b, a), memcpy(c, b), memcpy(d, c), memcpy(e, d). */
#define N 2000

double a[N], b[N], c[N], d[N], e[N];

static void copy(int n, double *to, const double *from) {
  for (int i = 0; i < n; i++)
    to[i] = from[i];
}

int main(void) {
  for (int i = 0; i < N; i++)
    a[i] = i;
  copy(N, b, a);
  copy(N, c, b);
  copy(N, d, c);
  a[5] = 1.0;
  copy(N, e, d);
  return (int)(c[7] + d[9] + e[3]);
}
