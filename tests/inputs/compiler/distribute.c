/* Byte-splat stores GCC and Clang split out of loops that do other work too
   (tests/compiler_idioms_test.cpp, "loop distribution").
   gcc 12.2 -O2 -fopt-info-loop, and where objdump -dr puts the memset:
     distribute.c:21:21: Loop nest 1 distributed: split to 1 loops and 1 library calls.  (zero_last: one memset, after the nest)
     distribute.c:29:21: Loop 1 distributed: split to 1 loops and 1 library calls.       (zero_first: before the loop)
     distribute.c:37:23: Loop 2 distributed: split to 1 loops and 1 library calls.       (partial_rows: 504 known bytes per row,
                                                                                          expanded inline as `rep stos`, no call)
     distribute.c:52:21: Loop 1 distributed: split to 1 loops and 1 library calls.       (read_back: memset first, the loop reads behind it)
     distribute.c:62:21: Loop nest 1 distributed: split to 1 loops and 1 library calls.  (rows_and_flags: one memset for the rows, after)
   clang 14 -O2 -Rpass=loop-idiom, each call in the loop's preheader:
     distribute.c:24:17: Transformed loop-strided store in zero_last function into a call to llvm.memset  (one call for the nest)
     distribute.c:30:12: ... in zero_first ...
     distribute.c:38:18: ... in partial_rows ...  (a call per row: 504 bytes is over Clang's 256 inline)
     distribute.c:65:18: ... in rows_and_flags ... (twice: the row loop, then widened over the rows; one call, before)
   Neither splits may_alias (a and b may overlap); Clang keeps read_back's store. */
#define N 64
float img[N][N], out[N][N], row[N * N], other[N * N];
double sums[N][N];

void zero_last(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      img[i][j] = (float)(i + j);
      out[i][j] = 0.0f;
    }
}

void zero_first(void) {
  for (int i = 0; i < N * N; i++) {
    row[i] = 0.0f;
    other[i] = (float)i;
  }
}

void partial_rows(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N - 1; j++) {
      sums[i][j] = 0.0;
      img[i][j] = 1.0f;
    }
}

void may_alias(int n, float *a, float *b) {
  for (int i = 0; i < n; i++) {
    a[i] = (float)i;
    b[i] = 0.0f;
  }
}

float read_back(void) {
  float s = 0.0f;
  for (int i = 1; i < N * N; i++) {
    row[i] = 0.0f;
    s += row[i - 1] + other[i];
  }
  return s;
}

int flags[N], grid[N][N];

void rows_and_flags(void) {
  for (int i = 0; i < N; i++) {
    flags[i] = i & 1;
    for (int j = 0; j < N; j++)
      grid[i][j] = 0;
  }
}
