// The frontend on small C programs: loop shapes, containers, conditions, calls.
#include "ir/dump.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using namespace cats;

namespace {

const ir::Loop& firstLoop(const ir::Block& block) {
  for (const auto& n : block)
    if (const auto* l = std::get_if<ir::Loop>(&n.value)) return *l;
  FAIL("no loop in block");
  throw std::logic_error("unreachable");
}

std::string text(const sym::Expr& e) { return sym::print(e); }

}  // namespace

TEST_CASE("for loops of every supported shape get an iterator", "[frontend][loops]") {
  struct Case {
    const char* header;
    const char* start;
    const char* comparison;
    const char* bound;
    const char* step;
    const char* trips;
  };
  const Case cases[] = {
      {"for (int i = 0; i < n; i++)", "0", "<", "n", "1", "n"},
      {"for (int i = 0; i <= n; ++i)", "0", "<=", "n", "1", "n + 1"},
      {"for (int i = n; i > 0; i--)", "n", ">", "0", "-1", "n"},
      {"for (int i = n - 1; i >= 0; --i)", "n - 1", ">=", "0", "-1", "n"},
      {"for (int i = 0; i != n; i += 4)", "0", "!=", "n", "4", "idiv(n + 3, 4)"},
      {"for (int i = 2; i < n; i = i + 3)", "2", "<", "n", "3", "idiv(n, 3)"},
      {"for (int i = n; i > 0; i -= 2)", "n", ">", "0", "-2", "idiv(n + 1, 2)"},
      {"for (int i = 0; n > i; i++)", "0", "<", "n", "1", "n"},
  };
  for (const auto& c : cases) {
    INFO(c.header);
    sym::Context ctx;
    ir::Program p = test::lowerSource(std::string("void f(int n, double *a) { ") + c.header + " a[i] = 0; }", ctx);
    REQUIRE(p.functions.size() == 1);
    const ir::Loop& loop = firstLoop(p.functions[0].body);
    CHECK(!loop.isOpaque());
    CHECK(loop.iteratorName == "i");
    CHECK(text(loop.start) == c.start);
    CHECK(ir::comparisonText(loop.comparison) == c.comparison);
    CHECK(text(loop.bound) == c.bound);
    CHECK(text(loop.step) == c.step);
    CHECK(text(loop.tripCount()) == c.trips);
  }
}

TEST_CASE("triangular bounds and bounds loaded from memory", "[frontend][loops]") {
  trace::Trace t = test::analyzeSource(R"(
    void tri(int n, double *a, const int *rowptr) {
      for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) a[i * n + j] = 1;
      for (int r = 0; r < n; r++)
        for (int k = rowptr[r]; k < rowptr[r + 1]; k++) a[k] = 2;
    })");
  std::vector<const trace::Scope*> loops;
  for (const auto& s : t.scopes)
    if (s.kind == trace::ScopeKind::Loop) loops.push_back(&s);
  REQUIRE(loops.size() == 4);
  CHECK(loops[1]->iterator == "j");
  CHECK(sym::print(loops[1]->start) == "i");
  CHECK(sym::print(loops[3]->start) == "load(rowptr, 4*r)");
  CHECK(sym::print(loops[3]->bound) == "load(rowptr, 4*r + 4)");
  const auto& header = test::findAccess(t, "rowptr[r + 1]", ir::AccessMode::Read);
  CHECK(header.loopHeader);
}

TEST_CASE("loops that fit no pattern are opaque, with a diagnostic, and their body is traced", "[frontend][loops]") {
  trace::Trace t = test::analyzeSource(R"(
    void f(int n, double *a) {
      int i = 0;
      while (i < n) { a[i] = 0; i++; }
      do { a[0] = 1; } while (a[1] > 0);
      for (int k = 0; k * k < n; k++) a[k] = 2;
      for (int m = 0; m < n; m++) { a[m] = 3; m++; }
    })");
  std::size_t opaque = 0;
  for (const auto& s : t.scopes) opaque += s.kind == trace::ScopeKind::Loop && !s.opaqueReason.empty();
  CHECK(opaque == 2);  // the while loop counts i (loops_test.cpp); k * k < n has an unknown trip count
  std::size_t warnings = 0;
  for (const auto& d : t.diagnostics) warnings += d.message.find("opaque loop") != std::string::npos;
  CHECK(warnings == 2);
  const auto& inWhile = test::findAccess(t, "a[i]", ir::AccessMode::Write);
  CHECK(inWhile.classification.kind == trace::AccessClass::Stride1);
  CHECK(!inWhile.classification.approximate);
  CHECK(test::findAccess(t, "a[1]", ir::AccessMode::Read).loopHeader);
}

TEST_CASE("containers: globals, statics, stack arrays, VLAs, heap and parameters", "[frontend][containers]") {
  trace::Trace t = test::analyzeSource(R"(
    #include <stdlib.h>
    double g[10][20];
    struct rec { char tag; double v; int k[3]; };
    static struct rec table[8];
    void f(int n, int m, double A[n][m], double (*B)[16], float *restrict p) {
      double local[4][4];
      double vla[n][m + 1];
      static int counter[2];
      double *h = malloc(n * sizeof(double));
      double *c = calloc(n, 8);
      double *al = aligned_alloc(64, 4096);
      double *pm;
      posix_memalign((void **)&pm, 128, n * 16);
      h = realloc(h, 2 * n * sizeof(double));
      local[1][2] = g[3][4] + A[1][1] + B[2][3] + p[5] + vla[1][1] + table[2].v + table[3].k[2] + counter[1];
      h[1] = c[2] + al[3] + pm[4];
      free(h); free(c); free(al); free(pm);
    })");
  auto container = [&](const std::string& name) -> const trace::Container& {
    for (const auto& c : t.containers)
      if (c.name == name) return c;
    FAIL("no container " << name);
    throw std::logic_error("unreachable");
  };
  CHECK(container("g").kind == ir::ContainerKind::Global);
  CHECK(sym::print(container("g").sizeBytes) == "1600");
  CHECK(container("table").elementType == "struct rec");
  CHECK(container("table").elementBytes == 32);
  REQUIRE(container("table").fields.size() == 3);
  CHECK(container("table").fields[1].name == "v");
  CHECK(container("table").fields[1].offset == 8);
  CHECK(container("table").fields[2].offset == 16);
  CHECK(container("counter").kind == ir::ContainerKind::Static);
  CHECK(container("local").kind == ir::ContainerKind::Stack);
  CHECK(sym::print(container("vla").sizeBytes) == "8*m*n + 8*n");
  CHECK(container("A").kind == ir::ContainerKind::Parameter);
  CHECK(sym::print(container("A").sizeBytes) == "8*m*n");
  CHECK(container("p").isRestrict);
  CHECK(container("h").kind == ir::ContainerKind::Heap);
  CHECK(sym::print(container("c").sizeBytes) == "8*n");
  CHECK(container("al").alignment == 64);
  CHECK(container("pm").alignment == 128);
  CHECK(sym::print(container("pm").sizeBytes) == "16*n");
  CHECK(sym::print(container("h_2").sizeBytes) == "16*n");  // realloc makes a new block

  CHECK(sym::print(test::findAccess(t, "A[1][1]", ir::AccessMode::Read).offset) == "8*m + 8");
  CHECK(sym::print(test::findAccess(t, "B[2][3]", ir::AccessMode::Read).offset) == "280");
  CHECK(test::findAccess(t, "p[5]", ir::AccessMode::Read).bytes == 4);
  CHECK(sym::print(test::findAccess(t, "vla[1][1]", ir::AccessMode::Read).offset) == "8*m + 16");
  const auto& field = test::findAccess(t, "table[2].v", ir::AccessMode::Read);
  CHECK(sym::print(field.offset) == "72");
  CHECK(field.field == "v");
  const auto& arrayField = test::findAccess(t, "table[3].k[2]", ir::AccessMode::Read);
  CHECK(sym::print(arrayField.offset) == "120");
  CHECK(arrayField.field == "k");
  CHECK(!container("h").isScalar);
  std::size_t allocs = 0, frees = 0;
  for (const auto& e : t.events) {
    allocs += e.kind == trace::EventKind::Alloc;
    frees += e.kind == trace::EventKind::Free;
  }
  CHECK(allocs == 3 /* statics */ + 2 /* stack */ + 4 /* heap */ + 1 /* realloc */);
  CHECK(frees == 2 /* stack at end */ + 1 /* realloc frees h */ + 4);
}

TEST_CASE("a global pointer is one container that malloc allocates", "[frontend][containers]") {
  trace::Trace t = test::analyzeSource(R"(
    #include <stdlib.h>
    double *A;
    void init(int n) { A = malloc(n * sizeof(double)); }
    void use(int n) { for (int i = 0; i < n; i++) A[i] = 0; }
    int main(void) { init(100); use(100); free(A); return 0; })");
  REQUIRE(t.containers.size() == 1);
  CHECK(t.containers[0].name == "A");
  std::vector<std::string> kinds;
  for (const auto& e : t.events) kinds.push_back(std::string(trace::toString(e.kind)) + " " + t.containers.at(e.container).name);
  CHECK(kinds == std::vector<std::string>{"alloc A", "access A", "free A"});
  CHECK(sym::print(t.containers[0].sizeBytes) == "800");
}

TEST_CASE("branches record their conditions; ?: is a branch too", "[frontend][branches]") {
  trace::Trace t = test::analyzeSource(R"(
    void f(int n, double *a, double *b) {
      for (int i = 0; i < n; i++) {
        if (i < n / 2 && i != 3) a[i] = 1; else b[i] = 2;
        a[i] = i > 4 ? b[i] : b[i + 1];
        if (a[i] > 0.5) b[0] = 1;
      }
    })");
  std::vector<std::string> conditions;
  for (const auto& s : t.scopes)
    if (s.kind == trace::ScopeKind::Branch) conditions.push_back(s.arm + ": " + sym::print(s.condition));
  REQUIRE(conditions.size() == 5);
  CHECK(conditions[0] == "then: (i < idiv(n, 2)) && (i != 3)");
  CHECK(conditions[1] == "else: !((i < idiv(n, 2)) && (i != 3))");
  CHECK(conditions[2] == "then: i > 4");
  CHECK(conditions[4] == "then: opaque(a[i] > 0.5)");
}

TEST_CASE("OpenMP parallel loops are marked parallel", "[frontend][openmp]") {
  trace::Trace t = test::analyzeSource(R"(
    void f(int n, double *a) {
      #pragma omp parallel for
      for (int i = 0; i < n; i++) a[i] = 0;
      #pragma omp parallel
      { a[0] = 1; }
    })");
  bool parallelLoop = false, region = false;
  for (const auto& s : t.scopes) {
    parallelLoop |= s.kind == trace::ScopeKind::Loop && s.parallel;
    region |= s.kind == trace::ScopeKind::Parallel;
  }
  CHECK(parallelLoop);
  CHECK(region);
}

TEST_CASE("local scalars are followed: index variables, pointer arithmetic", "[frontend][values]") {
  trace::Trace t = test::analyzeSource(R"(
    void f(int n, double *a) {
      for (int i = 0; i < n; i++) {
        int idx = i * n + 2;
        double *row = a + i * n;
        a[idx] = row[3] + *(row + 4) + a[(i << 1) + (n >> 2)];
      }
    })");
  CHECK(sym::print(test::findAccess(t, "a[idx]", ir::AccessMode::Write).offset) == "8*i*n + 16");
  CHECK(sym::print(test::findAccess(t, "row[3]", ir::AccessMode::Read).offset) == "8*i*n + 24");
  CHECK(sym::print(test::findAccess(t, "*(row + 4)", ir::AccessMode::Read).offset) == "8*i*n + 32");
  CHECK(sym::print(test::findAccess(t, "a[(i << 1) + (n >> 2)]", ir::AccessMode::Read).offset) == "16*i + 8*idiv(n, 4)");
}

TEST_CASE("a -D binding fixes an entry parameter; --scalars traces global scalars", "[frontend][bindings]") {
  test::AnalyzeOptions options;
  options.defines["n"] = "100";
  options.scalars = true;
  trace::Trace t = test::analyzeSource(R"(
    int total;
    void f(int n, double *a) { for (int i = 0; i < n; i++) { a[i * n] = 0; total += 1; } })",
                                       options);
  const auto& a = test::findAccess(t, "a[i * n]", ir::AccessMode::Write);
  CHECK(sym::print(*a.classification.strideBytes) == "800");
  CHECK(test::findAccess(t, "total", ir::AccessMode::Write).classification.kind == trace::AccessClass::Constant);
  trace::Trace local = test::analyzeSource(R"(
    void bump(int *counter) { *counter += 1; }
    void f(int n, double *a) { int hits = 0; for (int i = 0; i < n; i++) { a[i] = hits; bump(&hits); } })",
                                           options);
  CHECK(t.containers.size() >= 2);
  const auto& viaPointer = test::findAccess(local, "*counter", ir::AccessMode::Write, "bump");
  CHECK(local.containers.at(viaPointer.container).name == "hits");
  CHECK(local.containers.at(viaPointer.container).kind == ir::ContainerKind::Stack);
  CHECK(test::findAccess(local, "hits", ir::AccessMode::Read).classification.kind == trace::AccessClass::Constant);
}

TEST_CASE("the IR dump is deterministic", "[frontend][dump]") {
  auto dumpOnce = [] {
    sym::Context ctx;
    frontend::Options o;
    o.paths = {test::sourcePath("examples/spmv-csr")};
    return ir::dump(frontend::buildProgram(o, ctx));
  };
  std::string first = dumpOnce();
  CHECK(first == dumpOnce());
  CHECK(first.find("function spmv(nrows, *rowptr, *col, *val, *x, *y)") != std::string::npos);
}

TEST_CASE("a loop whose induction variable does not change (j += !2) has an unknown trip count, not a division by zero", "[frontend][loops]") {
  const std::string file = test::writeFile(test::tempDir(), "zero_step.c", "double A[16];\nvoid f(int n) {\n  for (int j = 0; j < n; j += !2) A[j] = 1;\n}\n");
  test::CliResult r = test::runCli("analyze " + file);
  CHECK(r.exitCode == 0);
  CHECK(r.out.find("its induction variable j does not change (a step of 0)") != std::string::npos);
}
