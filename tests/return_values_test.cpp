// Return-value summaries (frontend/return_values.cpp): the value of a call of an integer helper
// whose returns are one formula of its parameters is that formula with the call's arguments, so
// `grid[idx(i, j)]` is an affine access; loads, recursion, disagreeing returns and narrow return
// types stay unknown (indirect), and the callee's own accesses are still traced.
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace cats;

namespace {

trace::AccessClass classOf(const trace::Trace& t, const std::string& text, ir::AccessMode mode = ir::AccessMode::Write) {
  return test::findAccess(t, text, mode).classification.kind;
}

bool anyIndirect(const trace::Trace& t) {
  return std::any_of(t.events.begin(), t.events.end(), [](const trace::Event& e) {
    return e.kind == trace::EventKind::Access && e.classification.kind == trace::AccessClass::Indirect;
  });
}

}  // namespace

TEST_CASE("a subscript through an index helper's return value is affine", "[calls][return-values]") {
  trace::Trace t = test::analyzeSource(R"(
    #define N 100
    static double grid[N * N];
    static inline int idx(int i, int j) { return i * N + j; }
    void f(void) {
      for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
          grid[idx(i, j)] = 0;
      for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++)
          grid[idx(i, j)] += 1;
    })");
  INFO(Catch::Detail::stringify(test::accessLines(t)));
  const trace::Event& rows = test::findAccess(t, "grid[idx(i, j)]", ir::AccessMode::Write);
  CHECK(rows.classification.kind == trace::AccessClass::Stride1);
  std::size_t columns = 0;
  for (const auto& e : t.events)
    if (e.kind == trace::EventKind::Access && e.text == "grid[idx(i, j)]" && e.classification.kind == trace::AccessClass::StrideK) {
      ++columns;
      CHECK(sym::print(*e.classification.strideBytes) == "800");
    }
  CHECK(columns == 2);  // the column walk's read and write: 100 doubles apart
  CHECK(!anyIndirect(t));
  CHECK(!t.approximate);
}

TEST_CASE("nested helpers over several levels substitute their arguments simultaneously", "[calls][return-values]") {
  trace::Trace t = test::analyzeSource(R"(
    #define N 64
    static double grid[N * N];
    static int idx(int i, int j) { return i * N + j; }
    static int transposed(int i, int j) { return idx(j, i); }
    static int at(int a, int b) {
      int k = transposed(b, a);
      k = k + 0;
      return k;
    }
    static double get(int i, int j) { return grid[at(i, j)]; }
    double f(void) {
      double s = 0;
      for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
          s += get(i, j) + grid[transposed(j, i)];
      return s;
    })");
  INFO(Catch::Detail::stringify(test::accessLines(t)));
  // at(i, j) = transposed(j, i) = idx(i, j) = i*N + j: a row walk; transposed(j, i) = idx(i, j) too.
  CHECK(classOf(t, "grid[at(i, j)]", ir::AccessMode::Read) == trace::AccessClass::Stride1);
  CHECK(classOf(t, "grid[transposed(j, i)]", ir::AccessMode::Read) == trace::AccessClass::Stride1);
  CHECK(!anyIndirect(t));
}

TEST_CASE("min and max helpers bound loops and clamp subscripts", "[calls][return-values]") {
  trace::Trace t = test::analyzeSource(R"(
    static int min(int a, int b) { return a < b ? a : b; }
    static long max(long a, long b) { return a > b ? a : b; }
    void f(int n, double *x) {
      for (int jj = 0; jj < n; jj += 32)
        for (int j = jj; j < min(jj + 32, n); j++)
          x[j] = 0;
      for (int i = 0; i < n; i++) x[max(i - 1, 0)] += 1;
    })");
  INFO(Catch::Detail::stringify(test::accessLines(t)));
  CHECK(classOf(t, "x[j]") == trace::AccessClass::Stride1);
  CHECK(classOf(t, "x[max(i - 1, 0)]") != trace::AccessClass::Indirect);
  CHECK(!anyIndirect(t));
  bool minBound = false;
  for (const auto& s : t.scopes)
    if (s.kind == trace::ScopeKind::Loop) minBound |= sym::print(s.bound).find("min") != std::string::npos;
  CHECK(minBound);
}

TEST_CASE("recursive helpers stay unknown and the analysis ends", "[calls][return-values]") {
  trace::Trace t = test::analyzeSource(R"(
    static double a[100];
    static int down(int n) { return n <= 0 ? 0 : down(n - 1); }
    static int self(int n) { return self(n) + 1; }
    int other(int n);
    static int one(int n) { return other(n) + 1; }
    int other(int n) { return one(n) - 1; }
    void f(void) {
      for (int i = 0; i < 100; i++) {
        a[down(i)] = 1;
        a[self(i)] = 2;
        a[one(i)] = 3;
        a[other(i)] = 4;
      }
    })");
  INFO(Catch::Detail::stringify(test::accessLines(t)));
  CHECK(classOf(t, "a[down(i)]") == trace::AccessClass::Indirect);
  CHECK(classOf(t, "a[self(i)]") == trace::AccessClass::Indirect);
  CHECK(classOf(t, "a[one(i)]") == trace::AccessClass::Indirect);
  CHECK(classOf(t, "a[other(i)]") == trace::AccessClass::Indirect);
}

TEST_CASE("a helper returning loaded data, disagreeing returns or a narrow type stays unknown", "[calls][return-values]") {
  trace::Trace t = test::analyzeSource(R"(
    static int table[100];
    static int column(const int *c, int k) { return c[k]; }
    static int entry(int k) { int v = table[k]; return v; }
    static int pick(int i) { if (table[i] > 0) return i; return 0; }
    static unsigned char hash(int i) { return i * 7; }
    void f(double *x, const int *col) {
      for (int j = 0; j < 100; j++) {
        x[column(col, j)] += 1;
        x[entry(j)] += 2;
        x[pick(j)] += 3;
        x[hash(j)] += 4;
      }
    })");
  INFO(Catch::Detail::stringify(test::accessLines(t)));
  CHECK(classOf(t, "x[column(col, j)]") == trace::AccessClass::Indirect);
  CHECK(classOf(t, "x[entry(j)]") == trace::AccessClass::Indirect);
  CHECK(classOf(t, "x[pick(j)]") == trace::AccessClass::Indirect);
  CHECK(classOf(t, "x[hash(j)]") == trace::AccessClass::Indirect);
  // The loads inside the helpers are still traced by the calls.
  CHECK(classOf(t, "c[k]", ir::AccessMode::Read) == trace::AccessClass::Stride1);
  CHECK(classOf(t, "table[k]", ir::AccessMode::Read) == trace::AccessClass::Stride1);
}

TEST_CASE("only the value of a call becomes known: the callee's accesses are still traced", "[calls][return-values]") {
  trace::Trace t = test::analyzeSource(R"(
    static long calls;
    static int counted(long *count, int i) { count[0] += 1; return i + 1; }
    void f(double *x) {
      long count[1] = {0};
      for (int i = 0; i < 100; i++) x[counted(count, i)] = 0;
    })");
  INFO(Catch::Detail::stringify(test::accessLines(t)));
  CHECK(classOf(t, "x[counted(count, i)]") == trace::AccessClass::Stride1);
  CHECK(classOf(t, "count[0]") == trace::AccessClass::Constant);
}

TEST_CASE("small_funcs of the fidelity corpus indexes through idx() without indirect accesses", "[calls][return-values]") {
  trace::Trace t = test::analyze({"bench/fidelity-corpus/small_funcs.c"}, {{}, {{"N", "180"}}});
  INFO(Catch::Detail::stringify(test::accessLines(t)));
  CHECK(!anyIndirect(t));
  CHECK(!t.approximate);
  std::size_t affine = 0;
  for (const auto& e : t.events)
    if (e.kind == trace::EventKind::Access && e.text == "grid[idx(i, j)]") {
      CHECK(e.classification.kind != trace::AccessClass::Indirect);
      ++affine;
    }
  CHECK(affine >= 3);  // put's write, get's read from the row sums and from the column update
}

TEST_CASE("a helper returning a global it changes, or a static local, stays unknown", "[calls][return-values]") {
  trace::Trace t = test::analyzeSource(R"(
    int g;
    int width = 100;
    static int counter(void) { static int c = 0; c = c + 1; return c; }
    static int bump(void) { g++; return g; }
    static int at(int i, int j) { return i * width + j; }
    void f(double *x) {
      for (int i = 0; i < 100; i++) {
        x[counter()] = 1;
        x[bump()] = 2;
        x[at(0, i)] = 3;
      }
    })");
  INFO(Catch::Detail::stringify(test::accessLines(t)));
  CHECK(classOf(t, "x[counter()]") == trace::AccessClass::Indirect);
  CHECK(classOf(t, "x[bump()]") == trace::AccessClass::Indirect);
  // A global the helper only reads is read as the frontend reads it everywhere: a parameter.
  CHECK(classOf(t, "x[at(0, i)]") == trace::AccessClass::Stride1);
}
