// Library and allocation modelling, allocation wrappers, addresses of locals passed to callees,
// and calls through function pointers with known targets.
#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace cats;

namespace {

const trace::Container& container(const trace::Trace& t, const std::string& name) {
  for (const auto& c : t.containers)
    if (c.name == name) return c;
  FAIL("no container " << name);
  throw std::logic_error("unreachable");
}

/* The heap allocation events of "t" as "container function size alignment line", in order. */
std::vector<std::string> allocations(const trace::Trace& t) {
  std::vector<std::string> out;
  for (const auto& e : t.events)
    if (e.kind == trace::EventKind::Alloc && e.function != ir::AllocFunction::StaticArray && e.function != ir::AllocFunction::StackArray)
      out.push_back(t.containers.at(e.container).name + " " + std::string(ir::toString(e.function)) + " " + sym::print(e.sizeBytes) + " " +
                    std::to_string(e.alignment) + " @" + std::to_string(e.loc.line));
  return out;
}

std::size_t frees(const trace::Trace& t) {
  return static_cast<std::size_t>(std::count_if(t.events.begin(), t.events.end(), [](const trace::Event& e) { return e.kind == trace::EventKind::Free; }));
}

bool hasDiagnostic(const trace::Trace& t, const std::string& part, ir::Severity severity = ir::Severity::Warning) {
  return std::any_of(t.diagnostics.begin(), t.diagnostics.end(),
                     [&](const ir::Diagnostic& d) { return d.severity == severity && d.message.find(part) != std::string::npos; });
}

std::size_t warnings(const trace::Trace& t) {
  return static_cast<std::size_t>(std::count_if(t.diagnostics.begin(), t.diagnostics.end(), [](const ir::Diagnostic& d) { return d.severity == ir::Severity::Warning; }));
}

}  // namespace

TEST_CASE("builtin and fortified spellings are the plain library functions", "[calls][library]") {
  trace::Trace t = test::analyzeSource(R"(
    void f(int n, double *a, double *b) {
      __builtin_memcpy(a, b, n * sizeof(double));
      __builtin___memset_chk(b, 0, 64, __builtin_object_size(b, 0));
      __memmove_chk(a, b, 16, 100);
      double *h = __builtin_malloc(n * 8);
      h[0] = __builtin_expect(n, 1);
      long k = __builtin_strlen("hello");
      a[k] = 1;
      __builtin_free(h);
    })");
  INFO(Catch::Detail::stringify(test::accessLines(t)));
  CHECK(test::findAccess(t, "memcpy(b)", ir::AccessMode::Read).classification.kind == trace::AccessClass::Stride1);
  CHECK(test::findAccess(t, "memcpy(a)", ir::AccessMode::Write).classification.kind == trace::AccessClass::Stride1);
  CHECK(test::findAccess(t, "memset(b)", ir::AccessMode::Write).classification.kind == trace::AccessClass::Stride1);
  CHECK(test::findAccess(t, "memmove(a)", ir::AccessMode::Write).classification.kind == trace::AccessClass::Stride1);
  CHECK(sym::print(test::findAccess(t, "a[k]", ir::AccessMode::Write).offset) == "40");
  CHECK(allocations(t) == std::vector<std::string>{"h malloc 8*n 16 @6"});
  CHECK(frees(t) == 1);
  CHECK(warnings(t) == 0);
  CHECK(!t.approximate);
  std::size_t words = 0;
  for (const auto& s : t.scopes)
    if (s.kind == trace::ScopeKind::Loop) words += sym::print(s.bound) == "n" || sym::print(s.bound) == "8" || sym::print(s.bound) == "2";
  CHECK(words == 3);
}

TEST_CASE("allocation functions with their real size and alignment", "[calls][alloc]") {
  trace::Trace t = test::analyzeSource(R"(
    #include <stdlib.h>
    #include <string.h>
    #include <malloc.h>
    void f(int n) {
      double *m = malloc(n * sizeof(double));
      double *c = calloc(n, sizeof(double));
      double *al = aligned_alloc(64, 4096);
      double *pm;
      posix_memalign((void **)&pm, 8, n * 16);
      double *ma = memalign(256, 1024);
      double *v = valloc(100);
      char *s = strdup("abc");
      m = realloc(m, 2 * n * sizeof(double));
      m[1] = c[2] + al[3] + pm[4] + ma[5] + v[6] + s[1];
      free(0);
      free(NULL);
      free(m); free(c); free(al); free(pm); free(ma); free(v); free(s);
    })");
  CHECK(allocations(t) == std::vector<std::string>{
                              "m malloc 8*n 16 @6", "c calloc 8*n 16 @7", "al aligned_alloc 4096 64 @8", "pm posix_memalign 16*n 16 @10",
                              "ma aligned_alloc 1024 256 @11", "v aligned_alloc 100 4096 @12", "s malloc 4 16 @13", "m_2 realloc 16*n 16 @14"});
  CHECK(frees(t) == 8);  // realloc frees the old block; free(0) and free(NULL) free nothing
  CHECK(warnings(t) == 0);
  CHECK(test::findAccess(t, "strdup(\"abc\")", ir::AccessMode::Write).container == container(t, "s").id);
}

TEST_CASE("string and memory routines access their lengths, unknown ones with a warning", "[calls][library]") {
  trace::Trace t = test::analyzeSource(R"(
    #include <string.h>
    void f(int n, char *d, char *s, char *u) {
      memcmp(d, s, n);
      strcpy(d, "0123456789abcde");
      strncpy(d, s, 24);
      bzero(s, 32);
      strlen(u);
    })");
  INFO(Catch::Detail::stringify(test::accessLines(t)));
  CHECK(test::findAccess(t, "memcmp(d)", ir::AccessMode::Read).classification.kind == trace::AccessClass::Stride1);
  CHECK(test::findAccess(t, "memcmp(s)", ir::AccessMode::Read).classification.kind == trace::AccessClass::Stride1);
  CHECK(test::findAccess(t, "strcpy(d)", ir::AccessMode::Write).classification.kind == trace::AccessClass::Stride1);
  CHECK(test::findAccess(t, "strncpy(d)", ir::AccessMode::Write).classification.kind == trace::AccessClass::Stride1);
  CHECK(test::findAccess(t, "strncpy(s)", ir::AccessMode::Read).classification.kind == trace::AccessClass::Stride1);
  CHECK(test::findAccess(t, "bzero(s)", ir::AccessMode::Write).classification.kind == trace::AccessClass::Stride1);
  CHECK(test::findAccess(t, "strlen(u)", ir::AccessMode::Read).container == container(t, "u").id);
  std::vector<std::string> bounds;
  for (const auto& s : t.scopes)
    if (s.kind == trace::ScopeKind::Loop) bounds.push_back(sym::print(s.bound));
  REQUIRE(bounds.size() == 5);
  CHECK(bounds[0] == "idiv(n + 7, 8)");  // memcmp: n bytes
  CHECK(bounds[1] == "2");               // strcpy of a 15-character literal: 16 bytes
  CHECK(bounds[2] == "3");               // strncpy: 24 bytes
  CHECK(bounds[3] == "4");               // bzero: 32 bytes
  CHECK(bounds[4].find("unknown_string_bytes") != std::string::npos);
  CHECK(hasDiagnostic(t, "length of the string 'u' read by strlen is not known"));
  CHECK(t.approximate);
}

TEST_CASE("allocation wrappers are allocation sites at their call sites", "[calls][wrappers]") {
  trace::Trace t = test::analyzeSource(R"(
    #include <stdlib.h>
    void *xmalloc(size_t n) { void *p = malloc(n); if (!p) abort(); return p; }
    static void *xmalloc_aligned(size_t bytes) {
      void *ret = NULL;
      int err = posix_memalign(&ret, 4096, bytes);
      if (!ret || err) exit(1);
      return ret;
    }
    void *alloc_data(unsigned long n, int elt_size) { return xmalloc_aligned(n * elt_size); }
    void alloc_out(double **out, int n) { *out = malloc(n * sizeof(double)); }
    void alloc_posix(double **out, int n) { posix_memalign((void **)out, 64, n * sizeof(double)); }
    int main(void) {
      int n = 100;
      double *A = xmalloc(n * sizeof(double));
      double (*B)[n] = (double (*)[n])alloc_data(n * n, sizeof(double));
      double *C;
      alloc_out(&C, 2 * n);
      double *D;
      alloc_posix(&D, 3 * n);
      for (int i = 0; i < n; i++) {
        A[i] = C[i] + D[i];
        for (int j = 0; j < n; j++) B[i][j] = A[j];
      }
      free(A); free(B); free(C); free(D);
      return 0;
    })");
  INFO(Catch::Detail::stringify(test::accessLines(t)));
  CHECK(allocations(t) == std::vector<std::string>{"A malloc 800 16 @15", "B posix_memalign 80000 4096 @16", "C malloc 1600 16 @18",
                                                   "D posix_memalign 2400 64 @20"});
  CHECK(container(t, "A").loc.line == 15);
  CHECK(container(t, "B").elementType == "double");
  CHECK(test::findAccess(t, "A[i]", ir::AccessMode::Write).classification.kind == trace::AccessClass::Stride1);
  CHECK(test::findAccess(t, "C[i]", ir::AccessMode::Read).classification.kind == trace::AccessClass::Stride1);
  CHECK(test::findAccess(t, "D[i]", ir::AccessMode::Read).classification.kind == trace::AccessClass::Stride1);
  CHECK(test::findAccess(t, "B[i][j]", ir::AccessMode::Write).classification.kind == trace::AccessClass::Stride1);
  CHECK(test::findAccess(t, "*out", ir::AccessMode::Write).container == container(t, "C_slot").id);
  CHECK(frees(t) >= 4);
  CHECK(warnings(t) == 0);
  CHECK(!t.approximate);
}

TEST_CASE("a pointer returned by a function that is not a wrapper is unknown memory, with a warning", "[calls][wrappers]") {
  trace::Trace t = test::analyzeSource(R"(
    double pool[100];
    double *pick(int k) { return &pool[k]; }
    int main(void) { double *p = pick(3); p[1] = 2; return 0; }
  )");
  CHECK(hasDiagnostic(t, "the pointer pick returns at"));
  CHECK(test::findAccess(t, "p[1]", ir::AccessMode::Write).container == container(t, "p").id);
  CHECK(t.approximate);
}

TEST_CASE("addresses of locals passed to callees are the caller's stack slots", "[calls][locals]") {
  trace::Trace t = test::analyzeSource(R"(
    void init(double *alpha, int *n) { *alpha = 1.5; *n = 64; }
    void use(const int *n, double *a) { a[0] = *n; }
    int main(void) {
      double alpha;
      int n = 3;
      double a[10];
      init(&alpha, &n);
      use(&n, a);
      a[n] = alpha;
      return 0;
    })");
  INFO(Catch::Detail::stringify(test::accessLines(t)));
  CHECK(test::findAccess(t, "*alpha", ir::AccessMode::Write, "init").container == container(t, "alpha").id);
  CHECK(test::findAccess(t, "*n", ir::AccessMode::Write, "init").container == container(t, "n").id);
  CHECK(test::findAccess(t, "*n", ir::AccessMode::Read, "use").container == container(t, "n").id);
  CHECK(container(t, "alpha").kind == ir::ContainerKind::Stack);
  CHECK(sym::print(container(t, "alpha").sizeBytes) == "8");
  CHECK(!hasDiagnostic(t, "bound to memory the analysis cannot follow"));
  // n was set through &n: its value after init is unknown, so a[n] is data-dependent.
  CHECK(test::findAccess(t, "a[n]", ir::AccessMode::Write).classification.kind == trace::AccessClass::Indirect);
}

TEST_CASE("calls through function pointers with known targets are followed", "[calls][pointers]") {
  trace::Trace t = test::analyzeSource(R"(
    double a[100], b[100];
    void square(int i) { a[i] = a[i] * a[i]; }
    void cube(int i) { b[i] = b[i] * b[i] * b[i]; }
    static void (*const table[])(int) = {square, cube};
    static void (*global_op)(int) = cube;
    void apply(void (*op)(int)) { op(2); }
    void apply2(void (*op)(int), int k) { op(k); }
    int main(int argc, char **argv) {
      void (*f)(int) = square;
      f(1);
      void (*g)(int);
      g = &cube;
      (*g)(3);
      table[1](4);
      global_op(5);
      void (*h)(int) = square;
      if (argc > 1) h = cube;
      h(6);
      table[argc](7);
      apply(square);
      apply2(h, 9);
      return 0;
    })");
  INFO(Catch::Detail::stringify(test::accessLines(t)));
  auto offsetsOf = [&](const std::string& text) {
    std::vector<std::string> out;
    for (const auto& e : t.events)
      if (e.kind == trace::EventKind::Access && e.text == text && e.mode == ir::AccessMode::Write) out.push_back(sym::print(e.offset));
    return out;
  };
  CHECK(offsetsOf("a[i]") == std::vector<std::string>{"8", "48", "56", "16"});
  CHECK(offsetsOf("b[i]") == std::vector<std::string>{"24", "32", "40", "48", "56"});
  CHECK(hasDiagnostic(t, "goes to square", ir::Severity::Note));
  CHECK(hasDiagnostic(t, "may go to any of square, cube"));
  CHECK(hasDiagnostic(t, "call through parameter 'op' goes to square", ir::Severity::Note));  // apply(square)
  CHECK(hasDiagnostic(t, "whose target is not known (parameter 'op' of apply2"));  // h has two targets
}

TEST_CASE("simulate runs a program whose arrays come from a posix_memalign wrapper in another file", "[calls][cli]") {
  std::string dir = test::tempDir();
  test::writeFile(dir, "utils.c", R"(
    #include <stdlib.h>
    void *alloc_data(unsigned long n, int size) {
      void *p = NULL;
      if (posix_memalign(&p, 4096, n * size)) abort();
      return p;
    })");
  test::writeFile(dir, "kernel.c", R"(
    void *alloc_data(unsigned long n, int size);
    void init(double *alpha) { *alpha = 1.5; }
    int main(void) {
      int n = 256;
      double alpha;
      double *a = (double *)alloc_data(n, sizeof(double));
      double *b = (double *)alloc_data(n, sizeof(double));
      init(&alpha);
      for (int i = 0; i < n; i++) b[i] = alpha * a[i];
      return 0;
    })");
  auto r = test::runCli("simulate '" + dir + "' --D1=32768,8,64 --LL=262144,8,64 --model O0 --format json");
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  CHECK(r.err.find("warning") == std::string::npos);
  auto j = nlohmann::json::parse(r.out);
  // 256 doubles each, 4096-byte aligned: 2048 bytes, 32 lines, one cold miss per line.
  CHECK(j["by_container"]["a"]["D1"]["reads"].get<int>() == 256);
  CHECK(j["by_container"]["a"]["D1"]["read_misses"].get<int>() == 32);
  CHECK(j["by_container"]["b"]["D1"]["writes"].get<int>() == 256);
  CHECK(j["by_container"]["b"]["approximate"] == false);
  CHECK(j["by_container"].contains("alpha"));
}

TEST_CASE("library uses the analysis cannot follow keep a warning", "[calls][library]") {
  trace::Trace t = test::analyzeSource(R"(
    #include <string.h>
    #include <alloca.h>
    #include <stdlib.h>
    char *lookup(const char *key);
    void f(int n, double *a, char *s) {
      double *tmp = alloca(n * sizeof(double));
      memcpy(getenv("x"), a, 16);
      memcpy(lookup("y"), a, 16);
    })");
  CHECK(hasDiagnostic(t, "alloca is not modelled"));
  CHECK(hasDiagnostic(t, "memcpy accesses 'getenv(\"x\")', memory the analysis does not follow"));
  CHECK(hasDiagnostic(t, "the pointer lookup returns at"));
  CHECK(test::findAccess(t, "memcpy(a)", ir::AccessMode::Read).classification.kind == trace::AccessClass::Stride1);
  CHECK(t.approximate);
}

TEST_CASE("a block stored into a struct field is not mistaken for a wrapper's result; null table entries are no target", "[calls][wrappers]") {
  trace::Trace t = test::analyzeSource(R"(
    #include <stdlib.h>
    struct vec { double *data; int n; };
    void setup(struct vec *v) { v->data = malloc(v->n * sizeof(double)); }
    int square(int x) { return x * x; }
    static int (*const ops[])(int) = {0, square};
    int main(void) {
      struct vec v = {0, 16};
      setup(&v);
      return ops[1](2) + ops[0](3);
    })");
  CHECK(allocations(t) == std::vector<std::string>{"data malloc 8*load(v, 8) 16 @4"});
  CHECK(hasDiagnostic(t, "goes to square", ir::Severity::Note));
  CHECK(hasDiagnostic(t, "whose target is not known"));  // ops[0] is null
}
