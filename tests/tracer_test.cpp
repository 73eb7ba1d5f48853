// The tracer: call binding, iterator renaming, deduplication, entry points, N-independence.
#include "support.hpp"

#include <catch2/catch.hpp>

using namespace cats;

TEST_CASE("pointer and integer arguments bind to the callee's parameters", "[tracer][calls]") {
  trace::Trace t = test::analyzeSource(R"(
    void row(int len, double *r) { for (int j = 0; j < len; j++) r[j] = 0; }
    void all(int n, double *m) { for (int i = 0; i < n; i++) row(n - 1, m + i * n + 1); })");
  REQUIRE(t.entries == std::vector<std::string>{"all"});
  const auto& write = test::findAccess(t, "r[j]", ir::AccessMode::Write, "row");
  CHECK(t.containers.at(write.container).name == "m");
  CHECK(sym::print(write.offset) == "8*i*n + 8*j + 8");
  CHECK(write.name == "r");
  std::vector<std::string> labels = t.stackLabels(write.scope);
  REQUIRE(labels.size() == 4);
  CHECK(labels[0] == "all");
  CHECK(labels[2].rfind("row@", 0) == 0);
  const trace::Scope& inner = t.scopes.at(*t.innermostLoop(write.scope));
  CHECK(sym::print(inner.bound) == "n - 1");
}

TEST_CASE("an inlined callee's iterator never captures the caller's", "[tracer][calls]") {
  trace::Trace t = test::analyzeSource(R"(
    void g(int r, double *p) { for (int i = 0; i < 4; i++) p[r * 4 + i] = 1; }
    void f(double *a) { for (int i = 0; i < 8; i++) g(i, a); })");
  const auto& write = test::findAccess(t, "p[r * 4 + i]", ir::AccessMode::Write);
  CHECK(sym::print(write.offset) == "32*i + 8*i_2");
  CHECK(write.classification.kind == trace::AccessClass::Stride1);
  CHECK(write.classification.strideIterator == "i_2");
}

TEST_CASE("every call site is its own stack entry", "[tracer][calls]") {
  trace::Trace t = test::analyze({"examples/multifile/src"});
  std::size_t fillCalls = 0;
  for (const auto& s : t.scopes) fillCalls += s.kind == trace::ScopeKind::Call && s.function == "fill";
  CHECK(fillCalls == 3);
}

TEST_CASE("identical events of one iteration are folded, with a multiplicity", "[tracer][dedup]") {
  trace::Trace t = test::analyzeSource("void f(int n, double *a, double *s) { for (int i = 0; i < n; i++) s[0] += a[i] * a[i]; }");
  std::size_t reads = 0;
  for (const auto& e : t.events)
    if (e.kind == trace::EventKind::Access && e.text == "a[i]") {
      ++reads;
      CHECK(e.multiplicity == 2);
    }
  CHECK(reads == 1);
}

TEST_CASE("the trace does not grow with the problem size", "[tracer][scaling]") {
  for (const char* example : {"examples/matmul-stack", "examples/matmul-static", "examples/jacobi-2d"}) {
    INFO(example);
    test::AnalyzeOptions small, large;
    small.defines = {{"N", "100"}};
    large.defines = {{"N", "1000000"}};
    trace::Trace a = test::analyze({example}, small);
    trace::Trace b = test::analyze({example}, large);
    CHECK(sym::print(a.containers.front().sizeBytes) != sym::print(b.containers.front().sizeBytes));  // -D N reached the macro
    REQUIRE(a.events.size() == b.events.size());
    CHECK(a.scopes.size() == b.scopes.size());
    for (std::size_t i = 0; i < a.events.size(); ++i) {
      CHECK(a.events[i].kind == b.events[i].kind);
      CHECK(a.events[i].text == b.events[i].text);
      CHECK(a.events[i].classification.kind == b.events[i].classification.kind);
    }
  }
}

TEST_CASE("entry points: main, else every uncalled function, or --entry", "[tracer][entries]") {
  CHECK(test::analyze({"examples/matmul-heap"}).entries == std::vector<std::string>{"main"});
  test::AnalyzeOptions kernel;
  kernel.entries = {"multiply"};
  CHECK(test::analyze({"examples/matmul-heap"}, kernel).entries == std::vector<std::string>{"multiply"});
  trace::Trace t = test::analyzeSource("void a(double *p) { p[0] = 1; } void b(double *q) { a(q); } void c(double *r) { r[1] = 2; }");
  CHECK(t.entries == std::vector<std::string>{"b", "c"});
  test::AnalyzeOptions missing;
  missing.entries = {"nosuch"};
  CHECK_THROWS_AS(test::analyze({"examples/matmul-heap"}, missing), trace::EntryError);
}

TEST_CASE("an allocation in a loop sits in the loop's scope", "[tracer][alloc]") {
  trace::Trace t = test::analyze({"examples/alloc-in-loop"});
  bool found = false;
  for (const auto& e : t.events) {
    if (e.kind != trace::EventKind::Alloc || t.containers.at(e.container).name != "tmp") continue;
    found = true;
    auto loop = t.innermostLoop(e.scope);
    REQUIRE(loop);
    CHECK(t.scopes.at(*loop).iterator == "it");
    CHECK(sym::print(e.sizeBytes) == "80000");
  }
  CHECK(found);
}

TEST_CASE("initial values of global integers are recorded as parameter defaults", "[tracer][defaults]") {
  trace::Trace t = test::analyzeSource("int n = 500; const int m = 7; long steps; void f(double *a) { for (int i = 0; i < n * m; i++) a[i] = 0; }");
  CHECK(t.defaults == std::map<std::string, std::int64_t>{{"n", 500}});
  const trace::Scope& loop = t.scopes.at(*t.innermostLoop(test::findAccess(t, "a[i]", ir::AccessMode::Write).scope));
  CHECK(sym::print(loop.bound) == "7*n");
}
