/* Constant-size clears and copies: the compilers expand small ones inline instead of calling
   memset/memcpy (sim/compiler/idioms.cpp). tests/compiler_idioms_test.cpp compiles this file
   with `gcc -O2 -S` and `clang -O2 -S` and takes the calls in the assembly as the answer; with
   GCC 12 and Clang 14 (x86-64, SSE2): GCC moves up to 8192 bytes inline (vector moves, then
   `rep movsq`/`rep stosq`), Clang copies up to 128 bytes and clears up to 256 inline. */
double a[2048], b[2048];

void copy16(void) { for (int i = 0; i < 16; i++) a[i] = b[i]; }
void copy17(void) { for (int i = 0; i < 17; i++) a[i] = b[i]; }
void clear32(void) { for (int i = 0; i < 32; i++) a[i] = 0; }
void clear33(void) { for (int i = 0; i < 33; i++) a[i] = 0; }
void copy1024(void) { for (int i = 0; i < 1024; i++) a[i] = b[i]; }
void copy1025(void) { for (int i = 0; i < 1025; i++) a[i] = b[i]; }
void clear1025(void) { for (int i = 0; i < 1025; i++) a[i] = 0; }
