// Every OpenMP directive over every statement kind as its body: no crash, the body's accesses
// traced, parallel ones marked parallel. Braceless bodies of master, critical, atomic, section
// and masked once crashed the frontend (their statement is not wrapped in a CapturedStmt).
#include "support.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace cats;

namespace {

struct Directive {
  const char* pragma;
  bool parallel;  // the body runs in a parallel region or loop
};

/* Whether event "e" lies in a parallel region or parallel loop. */
bool inParallel(const trace::Trace& t, const trace::Event& e) {
  for (std::size_t id : t.stack(e.scope)) {
    const trace::Scope& s = t.scopes[id];
    if (s.kind == trace::ScopeKind::Parallel || (s.kind == trace::ScopeKind::Loop && s.parallel)) return true;
  }
  return false;
}

/* "body" (writing a[5]) under "#pragma omp <pragma>" inside "prefix ... suffix" of f. */
std::string program(const std::string& prefix, const std::string& pragma, const std::string& body, const std::string& suffix = {}) {
  return "void f(double *a, int n) {\n  " + prefix + "\n#pragma omp " + pragma + "\n  " + body + "\n  " + suffix + "\n}\n";
}

/* Checks that "code" traces the write a[5] of f, in a parallel scope exactly when "parallel". */
void checkWrite(const std::string& code, bool parallel) {
  INFO(code);
  trace::Trace t = test::analyzeSource(code);
  const trace::Event& write = test::findAccess(t, "a[5]", ir::AccessMode::Write, "f");
  CHECK(inParallel(t, write) == parallel);
}

}  // namespace

TEST_CASE("an OpenMP directive takes any statement as its body", "[frontend][openmp]") {
  const std::vector<Directive> directives = {
      {"master", false},        {"critical", false},          {"critical(name)", false}, {"single", false},
      {"task", false},          {"taskgroup", false},         {"masked", false},         {"target", false},
      {"parallel", true},       {"parallel master", true},
  };
  const std::vector<std::string> bodies = {
      "a[5] = 1;",
      "{ a[5] = 1; }",
      "if (n > 0) a[5] = 1;",
      "if (n > 0) ; else a[5] = 1;",
      "for (int i = 0; i < n; i++) a[5] = i;",
      "while (n > 0) a[5] = n--;",
      "do a[5] = 1; while (0);",
      "switch (n) { case 1: a[5] = 1; break; default: a[5] = 2; }",
      "{ double x = 1; a[5] = x; }",
      "label: a[5] = 1;",
      "f(a, n - 1), a[5] = 1;",
  };
  for (const Directive& d : directives)
    for (const std::string& body : bodies) checkWrite(program("", d.pragma, body), d.parallel);
}

TEST_CASE("OpenMP directives nest without braces", "[frontend][openmp]") {
  checkWrite(program("", "parallel", "\n#pragma omp master\n  a[5] = 1;"), true);
  checkWrite(program("", "parallel", "\n#pragma omp single\n#pragma omp task\n  a[5] = 1;"), true);
  checkWrite(program("", "parallel", "\n#pragma omp critical\n#pragma omp atomic\n  a[5] += 1;"), true);
  checkWrite(program("", "task", "\n#pragma omp critical\n  a[5] = 1;"), false);
}

TEST_CASE("OpenMP atomic forms trace their update", "[frontend][openmp]") {
  for (const char* pragma : {"atomic", "atomic update", "atomic write", "atomic read", "atomic capture"}) {
    std::string body = std::string(pragma) == "atomic read"      ? "n = a[5];"
                       : std::string(pragma) == "atomic write"   ? "a[5] = n;"
                       : std::string(pragma) == "atomic capture" ? "n = a[5]++;"
                                                                 : "a[5] += 1;";
    INFO(pragma);
    trace::Trace t = test::analyzeSource(program("", pragma, body));
    bool traced = false;
    for (const auto& e : t.events) traced |= e.kind == trace::EventKind::Access && e.text == "a[5]";
    CHECK(traced);
  }
}

TEST_CASE("OpenMP sections trace every section, braceless or not", "[frontend][openmp]") {
  for (const char* pragma : {"sections", "parallel sections"}) {
    std::string code = std::string("void f(double *a) {\n#pragma omp ") + pragma +
                       "\n  {\n#pragma omp section\n    a[1] = 1;\n#pragma omp section\n    { a[5] = 2; }\n#pragma omp section\n"
                       "    for (int i = 0; i < 4; i++) a[i] = 0;\n  }\n}\n";
    checkWrite(code, std::string(pragma) != "sections");
    trace::Trace t = test::analyzeSource(code);
    CHECK(test::findAccess(t, "a[1]", ir::AccessMode::Write, "f").loc.line == 5);
    CHECK(test::findAccess(t, "a[i]", ir::AccessMode::Write, "f").classification.kind == trace::AccessClass::Stride1);
  }
}

TEST_CASE("OpenMP loop directives over braceless loops", "[frontend][openmp]") {
  const std::vector<Directive> loops = {
      {"for", true}, {"simd", false}, {"for simd", true}, {"parallel for", true}, {"parallel for simd", true},
      {"taskloop", false}, {"parallel for collapse(1)", true}, {"target teams distribute parallel for", true},
  };
  for (const Directive& d : loops) {
    std::string code = program("", d.pragma, "for (int i = 0; i < n; i++) a[i] = a[5];");
    INFO(code);
    trace::Trace t = test::analyzeSource(code);
    const trace::Event& write = test::findAccess(t, "a[i]", ir::AccessMode::Write, "f");
    CHECK(write.classification.kind == trace::AccessClass::Stride1);
    CHECK(inParallel(t, write) == d.parallel);
  }
}

TEST_CASE("OpenMP ordered, standalone directives and an ordered body", "[frontend][openmp]") {
  checkWrite(program("", "for ordered", "for (int i = 0; i < n; i++)\n#pragma omp ordered\n    a[5] = i;"), true);
  for (const char* standalone : {"barrier", "flush", "taskwait", "taskyield"})
    checkWrite(program("", standalone, "a[5] = 1;"), false);
}
