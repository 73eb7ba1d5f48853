// The polyhedral model of a trace (tracer/poly_model.hpp): per-dimension subscripts from the
// frontend, statements, domains, schedules, may-writes and non-affine reasons; and the contract
// the `scale` command relies on: domain points x multiplicity = the accesses `simulate --model
// O0` makes, per access, for every affine statement of every example.
#include "support.hpp"

#include "isl_adapter.hpp"
#include "sim/concretize.hpp"
#include "sim/stream.hpp"
#include "tracer/poly_model.hpp"
#include "tracer/trace_json.hpp"

#include <nlohmann/json.hpp>

#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <set>

using namespace cats;

namespace {

/* Points of "set" with every parameter at its value in "values" (isl enumeration). */
std::int64_t points(const sym::IntegerSet& set, const sym::ParamValues& values) {
  sym::isl_adapter::Ctx ctx;
  return sym::isl_adapter::countPoints(ctx, set, values);
}

std::vector<std::string> printed(const std::vector<sym::Expr>& list) {
  std::vector<std::string> out;
  for (const auto& e : list) out.push_back(sym::print(e));
  return out;
}

const trace::PolyAccess* accessOf(const trace::PolyModel& m, const trace::Trace& t, const std::string& text, ir::AccessMode mode) {
  for (const auto& s : m.statements)
    for (const auto& a : s.accesses)
      if (t.events[a.event].text == text && t.events[a.event].mode == mode) return &a;
  return nullptr;
}

const trace::PolyStatement* statementOf(const trace::PolyModel& m, const trace::Trace& t, const std::string& text) {
  for (const auto& s : m.statements)
    for (const auto& a : s.accesses)
      if (t.events[a.event].text == text) return &s;
  return nullptr;
}

std::string reasonFor(const trace::PolyModel& m, const trace::Trace& t, const std::string& text) {
  for (const auto& n : m.nonAffine)
    if (t.events[n.event].text == text) return n.reason;
  return {};
}

/* Accesses per trace event of the -O0 address stream with "values" bound, --branch both. */
std::map<std::size_t, std::int64_t> simulatedCounts(const trace::Trace& t, const sym::ParamValues& values) {
  sim::ConcretizeOptions options;
  options.model = sim::RegisterModel::O0;
  for (const auto& [name, value] : values) options.bindings[name] = value;
  sim::Program program = sim::concretize(t, options);
  sim::StreamOptions streamOptions;
  streamOptions.model = sim::RegisterModel::O0;
  sim::AddressStream stream(program, streamOptions);
  std::map<std::size_t, std::int64_t> counts;
  std::vector<sim::Record> buffer(4096);
  while (std::size_t n = stream.next(buffer.data(), buffer.size()))
    for (std::size_t k = 0; k < n; ++k)
      if (t.events.at(buffer[k].tag).kind == trace::EventKind::Access) ++counts[buffer[k].tag];
  return counts;
}

/* Every Parameter symbol of the trace at "size", global defaults kept (as the concretiser). */
sym::ParamValues everyParameterAt(const trace::Trace& t, std::int64_t size) {
  sym::ParamValues values;
  for (const auto& info : t.context.symbols())
    if (info.kind == sym::SymbolKind::Parameter) values[info.name] = size;
  for (const auto& [name, value] : t.defaults) values[name] = value;
  return values;
}

/* Checks the O0 contract on "t": every access event is described or named non-affine, and
   each described one runs domain points x multiplicity times. Returns the accesses checked. */
std::size_t checkCounts(const trace::Trace& t, std::int64_t size, bool inexactToo = false) {
  trace::PolyModel m = trace::buildPolyModel(t);
  std::size_t accessEvents = 0;
  for (const auto& e : t.events) accessEvents += e.kind == trace::EventKind::Access;
  std::set<std::size_t> described, outside;
  for (const auto& n : m.nonAffine) outside.insert(n.event);
  for (const auto& s : m.statements)
    for (const auto& a : s.accesses) described.insert(a.event);
  CHECK(described.size() + outside.size() == accessEvents);
  CHECK(outside.size() == m.nonAffine.size());
  sym::ParamValues values = everyParameterAt(t, size);
  auto simulated = simulatedCounts(t, values);
  std::map<std::size_t, std::int64_t> predicted;
  std::set<std::size_t> inexact;
  for (const auto& s : m.statements) {
    std::int64_t n = points(s.domain, values);
    for (const auto& a : s.accesses) {
      predicted[a.event] += n * static_cast<std::int64_t>(a.multiplicity);
      if (!s.exactDomain) inexact.insert(a.event);
    }
  }
  std::size_t checked = 0;
  for (const auto& [event, count] : predicted) {
    if (inexact.count(event) && !inexactToo) continue;
    INFO(t.events[event].text << " at " << t.events[event].loc.str());
    CHECK(count == simulated[event]);
    ++checked;
  }
  return checked;
}

}  // namespace

TEST_CASE("subscripts per dimension: arrays, VLA pointers, pointers, struct fields", "[poly-model]") {
  trace::Trace t = test::analyzeSource(R"(
    struct p { double x, y; };
    double g[8][16];
    void f(int n, double (*a)[n], double *q, struct p *s) {
      for (int i = 0; i < 8; i++)
        for (int k = 0; k < n; k++) {
          g[i][k] = a[i][k] + q[i * n + k];
          s[k].y = *(q + k);
        }
    })");
  auto subscriptsOf = [&](const std::string& text, ir::AccessMode mode) { return printed(test::findAccess(t, text, mode).subscripts); };
  CHECK(subscriptsOf("g[i][k]", ir::AccessMode::Write) == std::vector<std::string>{"i", "k"});
  CHECK(subscriptsOf("a[i][k]", ir::AccessMode::Read) == std::vector<std::string>{"i", "k"});
  CHECK(subscriptsOf("q[i * n + k]", ir::AccessMode::Read) == std::vector<std::string>{"i*n + k"});
  CHECK(subscriptsOf("s[k].y", ir::AccessMode::Write) == std::vector<std::string>{"k"});
  CHECK(subscriptsOf("*(q + k)", ir::AccessMode::Read) == std::vector<std::string>{"k"});
}

TEST_CASE("the trace file keeps subscripts; a malformed subscript is a format error", "[poly-model]") {
  trace::Trace t = test::analyzeSource("void f(int n, double (*a)[n]) { for (int i = 0; i < n; i++) a[i][i + 1] = 0; }");
  std::string text = trace::writeTraceJson(t);
  trace::Trace back = trace::readTraceJson(text);
  CHECK(printed(test::findAccess(back, "a[i][i + 1]", ir::AccessMode::Write).subscripts) == std::vector<std::string>{"i", "i + 1"});
  CHECK(trace::writeTraceJson(back) == text);
  auto json = nlohmann::ordered_json::parse(text);
  std::size_t access = 0;
  while (json["events"][access]["kind"] != "access") ++access;
  for (const char* bad : {R"([1])", R"(["i +"])", R"(["nosuchsymbol"])", R"("i")"}) {
    INFO(bad);
    auto copy = json;
    copy["events"][access]["subscripts"] = nlohmann::ordered_json::parse(bad);
    CHECK_THROWS_AS(trace::readTraceJson(copy.dump()), trace::TraceFormatError);
  }
  json["events"][access].erase("subscripts");
  CHECK_THROWS_AS(trace::readTraceJson(json.dump()), trace::TraceFormatError);
}

TEST_CASE("matrix multiply: one statement, a 3-d domain, subscripts and a 2d+1 schedule", "[poly-model]") {
  trace::Trace t = test::analyzeSource(R"(
    void mm(int n, double A[n][n], double B[n][n], double C[n][n]) {
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          for (int k = 0; k < n; k++)
            C[i][j] += A[i][k] * B[k][j];
    })");
  trace::PolyModel m = trace::buildPolyModel(t);
  REQUIRE(m.nonAffine.empty());
  CHECK(m.coverage() == 1.0);
  REQUIRE(m.params.size() == 1);
  CHECK(m.params[0].get_name() == "n");
  const trace::PolyStatement* s = statementOf(m, t, "A[i][k]");
  REQUIRE(s);
  CHECK(s->domain.dims.size() == 3);
  CHECK(s->accesses.size() == 4);
  CHECK(points(s->domain, {{"n", 5}}) == 125);
  CHECK(printed(s->schedule) == std::vector<std::string>{"0", "i", "0", "j", "0", "k", "0"});
  CHECK(printed(accessOf(m, t, "B[k][j]", ir::AccessMode::Read)->subscripts) == std::vector<std::string>{"k", "j"});
  CHECK(accessOf(m, t, "C[i][j]", ir::AccessMode::Write)->kind == trace::PolyAccessKind::MustWrite);
  CHECK(accessOf(m, t, "C[i][j]", ir::AccessMode::Read)->kind == trace::PolyAccessKind::Read);
  CHECK(printed(accessOf(m, t, "A[i][k]", ir::AccessMode::Read)->extents) == std::vector<std::string>{"n", "n"});
  CHECK(checkCounts(t, 6) == 4);
}

TEST_CASE("triangular, strided, backward, min-tiled and guarded nests count as -O0 simulates", "[poly-model]") {
  trace::Trace t = test::analyzeSource(R"(
    void k(int n, int m, double a[n][n], double *b) {
      for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++)
          a[i][j] = 0;
      for (int i = n - 1; i >= 0; i -= 3)
        b[i] = 1;
      for (int i = 2; i < m; i += 5)
        b[i] += 2;
      for (int ii = 0; ii < n; ii += 4)
        for (int i = ii; i < (ii + 4 < n ? ii + 4 : n); i++)
          b[i] = b[i] * 2;
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          if (i > j + 1)
            a[i][j] = 3;
          else
            a[j][i] = 4;
      for (int i = n; i > 0; i--)
        b[i - 1] = 5;
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
          if (i % 4 == 1 && i != 7)
            a[i][j] = 6;
          if (i < 3 || j > i + 2 || (i == 5 && j != 2))
            a[j][i] = 7;
          else if (j == 0)
            b[i] = 8;
          else
            b[j] = 9;
        }
    })");
  trace::PolyModel m = trace::buildPolyModel(t);
  CHECK(m.nonAffine.empty());
  for (std::int64_t size : {1, 7, 13}) {
    INFO("size " << size);
    CHECK(checkCounts(t, size) > 0);
  }
  std::vector<const trace::PolyStatement*> strided;
  for (const auto& s : m.statements)
    if (!s.domain.existentials.empty()) strided.push_back(&s);
  REQUIRE(strided.size() == 3);  // b[i] = 1; b[i] += 2 (read and write on one line); the tile of step 4
  CHECK(points(strided[0]->domain, {{"m", 0}, {"n", 10}}) == 4);  // i = 9, 6, 3, 0
  CHECK(points(strided[1]->domain, {{"m", 13}, {"n", 0}}) == 3);  // i = 2, 7, 12
}

TEST_CASE("a flat subscript i*n + k is delinearised into [i][k] when k's loop bounds it by n", "[poly-model]") {
  trace::Trace t = test::analyzeSource(R"(
    void f(int n, int m, double *a, double *b, double *c) {
      for (int i = 0; i < m; i++)
        for (int k = 0; k < n; k++) {
          a[i * n + k] = 1;
          b[k * m + i] = 2;
          c[i * n + k + 1] = 3;
        }
    })");
  trace::PolyModel m = trace::buildPolyModel(t);
  const trace::PolyAccess* a = accessOf(m, t, "a[i * n + k]", ir::AccessMode::Write);
  REQUIRE(a);
  CHECK(printed(a->subscripts) == std::vector<std::string>{"i", "k"});
  CHECK(printed(a->extents) == std::vector<std::string>{"0", "n"});
  CHECK(printed(accessOf(m, t, "b[k * m + i]", ir::AccessMode::Write)->subscripts) == std::vector<std::string>{"k", "i"});
  CHECK(reasonFor(m, t, "c[i * n + k + 1]").find("non-affine product") != std::string::npos);
  CHECK(checkCounts(t, 5) == 2);
}

TEST_CASE("the leading extent comes from the allocation's size", "[poly-model]") {
  trace::Trace t = test::analyzeSource(R"(
    #include <stdlib.h>
    void f(int n, int m) {
      double *a = malloc(m * n * sizeof(double));
      for (int i = 0; i < m; i++)
        for (int k = 0; k < n; k++)
          a[i * n + k] = 1;
      free(a);
    })");
  trace::PolyModel m = trace::buildPolyModel(t);
  const trace::PolyAccess* a = accessOf(m, t, "a[i * n + k]", ir::AccessMode::Write);
  REQUIRE(a);
  CHECK(printed(a->extents) == std::vector<std::string>{"m", "n"});
  CHECK(a->elementBytes == 8);
}

TEST_CASE("analyze --dump model prints statements, domains, schedules and reasons", "[poly-model][cli]") {
  auto r = test::runCli("analyze --dump model examples/matmul-heap --entry multiply");
  REQUIRE(r.exitCode == 0);
  CHECK(r.out.find("params: [n]") != std::string::npos);
  CHECK(r.out.find("S0 in multiply at examples/matmul-heap/matmul.c:14:25") != std::string::npos);
  CHECK(r.out.find("schedule [0, i, 0, j, 0, k, 0]") != std::string::npos);
  CHECK(r.out.find("read A[i][k]  extents [?][n] x 8 B") != std::string::npos);
  CHECK(r.out.find("coverage: 100.0%") != std::string::npos);
  auto spmv = test::runCli("analyze --dump model examples/spmv-csr");
  CHECK(spmv.out.find("not affine: x[col[j]]") != std::string::npos);
}

TEST_CASE("a branch on data makes a may-write in an inexact domain", "[poly-model]") {
  trace::Trace t = test::analyzeSource(R"(
    void f(int n, double *a, double *b) {
      for (int i = 0; i < n; i++)
        if (a[i] > 0)
          b[i] = 1;
    })");
  trace::PolyModel m = trace::buildPolyModel(t);
  const trace::PolyAccess* write = accessOf(m, t, "b[i]", ir::AccessMode::Write);
  REQUIRE(write);
  CHECK(write->kind == trace::PolyAccessKind::MayWrite);
  CHECK_FALSE(statementOf(m, t, "b[i]")->exactDomain);
  CHECK(statementOf(m, t, "a[i]")->exactDomain);
  // --branch both runs a data-dependent arm wherever it is not decided false: the domain.
  trace::Trace mixed = test::analyzeSource(R"(
    void f(int n, double *a, double *b) {
      for (int i = 0; i < n; i++)
        if (i < n / 2 && a[i] > 0)
          b[i] = 1;
        else
          b[i + 1] = 2;
    })");
  for (std::int64_t size : {1, 6, 9}) CHECK(checkCounts(mixed, size, true) == 3);
}

TEST_CASE("indirect, unknown and non-affine accesses are named with a reason", "[poly-model]") {
  trace::Trace t = test::analyzeSource(R"(
    void f(int n, int *col, double *x, double *y, double *z) {
      for (int j = 0; j < n; j++) {
        y[j] = x[col[j]];
        z[j * j] = 1;
      }
      for (int j = 0; j < col[0]; j++)
        y[j] = 2;
    })");
  trace::PolyModel m = trace::buildPolyModel(t);
  CHECK(reasonFor(m, t, "x[col[j]]").find("indirect via col") != std::string::npos);
  CHECK(reasonFor(m, t, "z[j * j]").find("is not affine: non-affine power j^2") != std::string::npos);
  CHECK(reasonFor(m, t, "y[j] = 2").empty());
  bool boundReason = false;
  for (const auto& n : m.nonAffine) boundReason |= n.reason.find("non-affine bound") != std::string::npos;
  CHECK(boundReason);
  CHECK(accessOf(m, t, "col[j]", ir::AccessMode::Read));
  CHECK(m.coverage() > 0.0);
  CHECK(m.coverage() < 1.0);
}

TEST_CASE("loop headers run once more than the body, also when the body never runs", "[poly-model]") {
  // Real headers read memory only in loops whose bound is a load (non-affine); this trace
  // gives an affine loop a header access to check the domain against the concretiser.
  for (std::int64_t step : {1, 3, -1, -2}) {
    trace::Trace t;
    sym::Symbol n = t.context.symbol("n", sym::SymbolKind::Parameter);
    sym::Symbol i = t.context.symbol("i", sym::SymbolKind::Iterator);
    trace::Container a;
    a.name = "a";
    a.elementBytes = 8;
    a.sizeBytes = 8000;
    a.dims = {1000};
    t.containers.push_back(a);
    trace::Scope root;
    trace::Scope function;
    function.id = 1;
    function.parent = 0;
    function.kind = trace::ScopeKind::Function;
    function.function = "f";
    trace::Scope loop;
    loop.id = 2;
    loop.parent = 1;
    loop.kind = trace::ScopeKind::Loop;
    loop.iterator = "i";
    loop.start = step > 0 ? sym::Expr(2) : sym::Expr(n);
    loop.bound = step > 0 ? sym::Expr(n) : sym::Expr(2);
    loop.comparison = step > 0 ? ir::Comparison::Less : ir::Comparison::GreaterEqual;
    loop.step = step;
    t.scopes = {root, function, loop};
    for (bool header : {true, false}) {
      trace::Event e;
      e.scope = 2;
      e.offset = 8 * i;
      e.subscripts = {i};
      e.bytes = 8;
      e.loopHeader = header;
      e.text = header ? "a[i] (header)" : "a[i]";
      e.loc.line = header ? 1 : 2;
      t.events.push_back(e);
    }
    trace::PolyModel m = trace::buildPolyModel(t);
    REQUIRE(m.statements.size() == 2);
    CHECK(m.statements[0].accesses[0].loopHeader);
    CHECK(printed(m.statements[0].schedule) == std::vector<std::string>{"0", "i", "0"});
    CHECK(printed(m.statements[1].schedule) == std::vector<std::string>{"0", "i", "1"});
    for (std::int64_t size : {0, 2, 3, 10, 11}) {
      INFO("step " << step << " n " << size);
      sym::ParamValues values{{"n", size}};
      auto simulated = simulatedCounts(t, values);
      CHECK(points(m.statements[0].domain, values) == simulated[0]);
      CHECK(points(m.statements[1].domain, values) == simulated[1]);
      CHECK(simulated[0] == simulated[1] + 1);
    }
  }
}

TEST_CASE("every example: the model's counts equal -O0 simulation at a small size", "[poly-model][examples]") {
  namespace fs = std::filesystem;
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(test::sourcePath("examples")))
    if (entry.is_directory()) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  test::AnalyzeOptions small;
  small.defines = {{"N", "16"}, {"LEN", "64"}, {"NP", "32"}, {"ROWS", "16"}, {"ITERS", "3"}, {"TSTEPS", "3"}};
  for (const auto& dir : dirs) {
    INFO(dir.filename().string());
    trace::Trace t = test::analyze({dir.string()}, small);
    CHECK_NOTHROW(trace::buildPolyModel(t));
    CHECK(checkCounts(t, 16) > 0);
  }
}

TEST_CASE("example kernels as entries: parametric domains count as -O0 simulates", "[poly-model][examples]") {
  struct Kernel {
    std::string path, entry;
    std::size_t params;
  };
  for (const Kernel& k : {Kernel{"examples/matmul-heap", "multiply", 1}, Kernel{"examples/multifile/src", "scale_rows", 2},
                          Kernel{"examples/multifile/src", "axpy", 1}, Kernel{"examples/jacobi-2d", "jacobi_2d", 2}}) {
    INFO(k.path << " --entry " << k.entry);
    test::AnalyzeOptions options;
    options.entries = {k.entry};
    options.defines = {{"N", "16"}, {"TSTEPS", "3"}};
    trace::Trace t = test::analyze({k.path}, options);
    trace::PolyModel m = trace::buildPolyModel(t);
    CHECK(m.params.size() == k.params);
    CHECK(m.coverage() == 1.0);
    for (std::int64_t size : {0, 3, 16}) CHECK(checkCounts(t, size) > 0);
  }
}

TEST_CASE("subscripts that index a container in another shape fall back to the offset", "[poly-model]") {
  trace::Trace t = test::analyzeSource(R"(
    struct s { double w; double v[4]; };
    double A[8][16];
    struct s S[10];
    void g(double (*p)[8]) {
      for (int i = 0; i < 16; i++)
        for (int k = 0; k < 8; k++)
          p[i][k] = 0;
    }
    void f(void) {
      g((double (*)[8])A);
      for (int i = 0; i < 10; i++)
        for (int k = 0; k < 4; k++)
          S[i].v[k] = 1;
    }
    int main(void) { f(); return 0; })");
  trace::PolyModel m = trace::buildPolyModel(t);
  const trace::PolyAccess* p = accessOf(m, t, "p[i][k]", ir::AccessMode::Write);
  REQUIRE(p);
  CHECK(printed(p->subscripts) == std::vector<std::string>{"8*i + k"});
  CHECK(printed(p->extents) == std::vector<std::string>{"128"});
  const trace::PolyAccess* v = accessOf(m, t, "S[i].v[k]", ir::AccessMode::Write);
  REQUIRE(v);
  CHECK(printed(v->subscripts) == std::vector<std::string>{"40*i + 8*k + 8"});
  CHECK(v->elementBytes == 1);
  CHECK(checkCounts(t, 4) == 2);
}

TEST_CASE("nested union guards do not multiply statements without bound", "[poly-model]") {
  std::string code = "void f(int n, double *a) { for (int i = 0; i < n; i++) ";
  for (int d = 0; d < 10; ++d) code += "if (i != " + std::to_string(d) + ") ";
  code += "a[i] = 1; }";
  trace::Trace t = test::analyzeSource(code);
  trace::PolyModel m = trace::buildPolyModel(t);
  CHECK(m.statements.size() <= 64);
  CHECK(m.nonAffine.empty());
  CHECK(m.coverage() == 1.0);
}

TEST_CASE("the model's total equals the accesses `simulate --model O0 --no-stack-slots` reports", "[poly-model][cli]") {
  for (const std::string example : {"examples/matmul-stack", "examples/jacobi-2d", "examples/transpose"}) {
    INFO(example);
    test::AnalyzeOptions small;
    small.defines = {{"N", "16"}, {"TSTEPS", "3"}};
    trace::Trace t = test::analyze({example}, small);
    trace::PolyModel m = trace::buildPolyModel(t);
    REQUIRE(m.coverage() == 1.0);
    std::int64_t predicted = 0;
    for (const auto& s : m.statements) {
      REQUIRE(s.exactDomain);
      for (const auto& a : s.accesses) predicted += points(s.domain, {}) * static_cast<std::int64_t>(a.multiplicity);
    }
    // The model counts the program's data accesses; the stack slots of -O0 code are left out.
    auto r = test::runCli("simulate " + example + " -D N=16 -D TSTEPS=3 --model O0 --no-stack-slots --format json");
    REQUIRE(r.exitCode == 0);
    CHECK(nlohmann::json::parse(r.out)["accesses"].get<std::int64_t>() == predicted);
  }
}
