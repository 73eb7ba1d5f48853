/* Loops GCC and Clang replace by memset/memcpy, or not (tests/compiler_idioms_test.cpp).
   gcc 12.2 -O2 -fopt-info-loop (-O1 says nothing):
     idioms.c:10:21: optimized: Loop 1 distributed: split to 0 loops and 1 library calls.   (zero)
     idioms.c:14:21: optimized: Loop 1 distributed: split to 0 loops and 1 library calls.   (ones)
     idioms.c:22:21: optimized: Loop 1 distributed: split to 0 loops and 1 library calls.   (copy)
   clang 14 -O1 and -O2 -Rpass=loop-idiom: "Transformed loop-strided store in zero function into
   a call to llvm.memset" (lines 10, 14), "Formed a call to llvm.memcpy ... in copy function" (22).
   Neither replaces fill (7 is not a byte splat), copy_alias (the ranges may overlap) or scaled. */
void zero(int n, double *a) {
  for (int i = 0; i < n; i++) a[i] = 0.0;
}

void ones(int n, int *a) {
  for (int i = 0; i < n; i++) a[i] = -1;
}

void fill(int n, int *a) {
  for (int i = 0; i < n; i++) a[i] = 7;
}

void copy(int n, double *restrict to, const double *restrict from) {
  for (int i = 0; i < n; i++) to[i] = from[i];
}

void copy_alias(int n, double *to, const double *from) {
  for (int i = 0; i < n; i++) to[i] = from[i];
}

void scaled(int n, double *restrict to, const double *restrict from) {
  for (int i = 0; i < n; i++) to[i] = 2.0 * from[i];
}
