// Dependences of kernel shapes against hand-derived expectations: the math on hand-built
// statements (symbolic/dependences.hpp).
#include "symbolic/dependences.hpp"

#include "reports/dependences.hpp"
#include "support.hpp"
#include "tracer/dependences.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

using namespace cats::sym;

namespace {

struct LoopSpec {
  std::size_t id;
  Symbol iterator;
  Expr lower;  // inclusive
  Expr upper;  // exclusive
};

DepAccess read(const std::string& container, std::vector<Expr> subscripts) {
  return {container, DepAccessKind::Read, std::move(subscripts)};
}
DepAccess write(const std::string& container, std::vector<Expr> subscripts) {
  return {container, DepAccessKind::MustWrite, std::move(subscripts)};
}
DepAccess mayWrite(const std::string& container, std::vector<Expr> subscripts) {
  return {container, DepAccessKind::MayWrite, std::move(subscripts)};
}

/// A kernel of statements over the parameter n; loops by LoopSpec, schedule positions given.
struct Kernel {
  Context ctx;
  Symbol n = ctx.symbol("n", SymbolKind::Parameter);
  std::vector<DepStatement> statements;

  Symbol it(const std::string& name) { return ctx.symbol(name, SymbolKind::Iterator); }

  /// "positions" has one more entry than "loops": [p0, p1, ..., pd].
  void add(const std::vector<LoopSpec>& loops, const std::vector<int>& positions, std::vector<DepAccess> accesses,
           std::vector<Constraint> extra = {}) {
    DepStatement s;
    s.name = "S" + std::to_string(statements.size());
    s.domain.name = s.name;
    s.domain.params = {n};
    for (std::size_t k = 0; k < loops.size(); ++k) {
      s.domain.dims.push_back(loops[k].iterator);
      s.domain.constraints.push_back(Constraint::atLeast(loops[k].iterator, loops[k].lower));
      s.domain.constraints.push_back(Constraint::lessThan(loops[k].iterator, loops[k].upper));
      s.loops.push_back(loops[k].id);
      s.schedule.push_back(positions[k]);
      s.schedule.push_back(loops[k].iterator);
    }
    s.schedule.push_back(positions.back());
    for (auto& c : extra) s.domain.constraints.push_back(c);
    s.accesses = std::move(accesses);
    statements.push_back(std::move(s));
  }
};

const LoopDependences& loop(const Dependences& d, std::size_t id) {
  auto it = std::find_if(d.loops.begin(), d.loops.end(), [&](const LoopDependences& l) { return l.loop == id; });
  REQUIRE(it != d.loops.end());
  return *it;
}

/// "flow a 0,1" for every dependence: kind, container, distance vector, level.
std::vector<std::string> summary(const Dependences& d) {
  std::vector<std::string> out;
  for (const auto& dep : d.dependences) {
    std::string text = std::string(toString(dep.kind)) + " " + dep.container + " S" + std::to_string(dep.source) +
                       "->S" + std::to_string(dep.sink) + " (";
    for (std::size_t k = 0; k < dep.distance.size(); ++k) text += (k ? "," : "") + dep.distance[k].str();
    text += ")" + (dep.level ? " @" + std::to_string(*dep.level) : std::string(" indep"));
    out.push_back(text);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool has(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

}  // namespace

TEST_CASE("matrix multiply: i and j parallel, k a reduction on C", "[deps]") {
  Kernel k;
  Symbol i = k.it("i"), j = k.it("j"), kk = k.it("k");
  LoopSpec li{0, i, 0, k.n}, lj{1, j, 0, k.n}, lk{2, kk, 0, k.n};
  k.add({li, lj}, {0, 0, 0}, {write("C", {i, j})});
  k.add({li, lj, lk}, {0, 0, 1, 0},
        {read("C", {i, j}), read("A", {i, kk}), read("B", {kk, j}), write("C", {i, j})});
  Dependences d = computeDependences(k.statements);
  INFO(Catch::Detail::stringify(summary(d)));
  INFO(d.reason);
  CHECK_FALSE(d.approximate);
  CHECK(loop(d, 0).parallel);
  CHECK(loop(d, 1).parallel);
  CHECK_FALSE(loop(d, 2).parallel);
  CHECK(loop(d, 2).reduction);
  auto lines = summary(d);
  CHECK(has(lines, "flow C S1->S1 (0,0,1) @2"));
  CHECK(has(lines, "anti C S1->S1 (0,0,1) @2"));
  CHECK(has(lines, "output C S1->S1 (0,0,1) @2"));
  CHECK(has(lines, "flow C S0->S1 (0,0) indep"));
  REQUIRE(d.nests.size() == 1);
  CHECK(d.nests[0].band == std::vector<std::size_t>{0, 1, 2});
  CHECK(d.nests[0].permutable);
  CHECK(d.recurrences == std::vector<std::vector<std::size_t>>{{1}});
}

TEST_CASE("1-D Jacobi with a time loop: time carried, space loops parallel, fusion illegal", "[deps]") {
  Kernel k;
  Symbol t = k.it("t"), i = k.it("i");
  LoopSpec lt{0, t, 0, k.n}, l1{1, i, 1, k.n - 1}, l2{2, i, 1, k.n - 1};
  k.add({lt, l1}, {0, 0, 0}, {read("a", {i - 1}), read("a", {i}), read("a", {i + 1}), write("b", {i})});
  k.add({lt, l2}, {0, 1, 0}, {read("b", {i}), write("a", {i})});
  Dependences d = computeDependences(k.statements);
  INFO(Catch::Detail::stringify(summary(d)));
  CHECK_FALSE(loop(d, 0).parallel);
  CHECK_FALSE(loop(d, 0).reduction);
  CHECK(loop(d, 1).parallel);
  CHECK(loop(d, 2).parallel);
  auto lines = summary(d);
  CHECK(has(lines, "flow b S0->S1 (0) indep"));
  CHECK(has(lines, "flow a S1->S0 (1) @0"));
  REQUIRE(d.fusion.size() == 1);
  CHECK(d.fusion[0].first == 1);
  CHECK(d.fusion[0].second == 2);
  CHECK(d.fusion[0].shared == std::vector<std::string>{"a", "b"});
  CHECK(d.fusion[0].sameBounds);
  CHECK_FALSE(d.fusion[0].legal);  // a[i-1] is read after it would be overwritten
  CHECK(d.recurrences == std::vector<std::vector<std::size_t>>{{0, 1}});
}

TEST_CASE("in-place Gauss-Seidel: every loop carried, the band not permutable", "[deps]") {
  Kernel k;
  Symbol t = k.it("t"), i = k.it("i"), j = k.it("j");
  LoopSpec lt{0, t, 0, k.n}, li{1, i, 1, k.n - 1}, lj{2, j, 1, k.n - 1};
  k.add({lt, li, lj}, {0, 0, 0, 0},
        {read("a", {i - 1, j}), read("a", {i, j - 1}), read("a", {i, j}), read("a", {i + 1, j}), read("a", {i, j + 1}),
         write("a", {i, j})});
  Dependences d = computeDependences(k.statements);
  INFO(Catch::Detail::stringify(summary(d)));
  for (std::size_t l = 0; l < 3; ++l) {
    CHECK_FALSE(loop(d, l).parallel);
    CHECK_FALSE(loop(d, l).reduction);
  }
  auto lines = summary(d);
  CHECK(has(lines, "flow a S0->S0 (0,1,0) @1"));
  CHECK(has(lines, "flow a S0->S0 (0,0,1) @2"));
  CHECK(has(lines, "flow a S0->S0 (1,-1,0) @0"));
  REQUIRE(d.nests.size() == 1);
  CHECK_FALSE(d.nests[0].permutable);
  CHECK_FALSE(d.nests[0].interchangeLegal[0]);  // (1,-1,0) would become (-1,1,0)
}

TEST_CASE("prefix sum s[i] = s[i-1] + a[i] is carried with distance 1", "[deps]") {
  Kernel k;
  Symbol i = k.it("i");
  k.add({{0, i, 1, k.n}}, {0, 0}, {read("s", {i - 1}), read("a", {i}), write("s", {i})});
  Dependences d = computeDependences(k.statements);
  CHECK(summary(d) == std::vector<std::string>{"flow s S0->S0 (1) @0"});
  CHECK_FALSE(loop(d, 0).parallel);
  CHECK_FALSE(loop(d, 0).reduction);
}

TEST_CASE("prefix sum through a scalar is carried, not a reduction (the partial sums are read)", "[deps]") {
  Kernel k;
  Symbol i = k.it("i");
  LoopSpec li{0, i, 0, k.n};
  k.add({li}, {0, 0}, {read("sum", {0}), read("a", {i}), write("sum", {0})});
  k.add({li}, {0, 1}, {read("sum", {0}), write("p", {i})});
  Dependences d = computeDependences(k.statements);
  INFO(Catch::Detail::stringify(summary(d)));
  CHECK_FALSE(loop(d, 0).parallel);
  CHECK_FALSE(loop(d, 0).reduction);
}

TEST_CASE("scalar reduction sum += a[i] is a reduction on sum", "[deps]") {
  Kernel k;
  Symbol i = k.it("i");
  k.add({}, {0}, {write("sum", {0})});
  k.add({{0, i, 0, k.n}}, {1, 0}, {read("sum", {0}), read("a", {i}), write("sum", {0})});
  k.add({}, {2}, {read("sum", {0})});
  Dependences d = computeDependences(k.statements);
  INFO(Catch::Detail::stringify(summary(d)));
  CHECK(loop(d, 0).reduction);
  CHECK_FALSE(loop(d, 0).parallel);
  auto lines = summary(d);
  CHECK(has(lines, "flow sum S1->S1 (1) @0"));
  CHECK(has(lines, "flow sum S0->S1 () indep"));
  CHECK(has(lines, "flow sum S1->S2 () indep"));
}

TEST_CASE("transpose: no dependences, both loops parallel, interchange and tiling legal", "[deps]") {
  Kernel k;
  Symbol i = k.it("i"), j = k.it("j");
  k.add({{0, i, 0, k.n}, {1, j, 0, k.n}}, {0, 0, 0}, {read("a", {i, j}), write("b", {j, i})});
  Dependences d = computeDependences(k.statements);
  CHECK(d.dependences.empty());
  CHECK(loop(d, 0).parallel);
  CHECK(loop(d, 1).parallel);
  CHECK(d.nests[0].permutable);
  CHECK(d.nests[0].interchangeLegal == std::vector<bool>{true});
  CHECK(d.recurrences.empty());
}

TEST_CASE("skewed wavefront: the wave loop carries, the inner loop is parallel", "[deps]") {
  Kernel k;
  Symbol w = k.it("w"), i = k.it("i");
  // for w in [2, 2n-3]: for i in [max(1, w-n+2), min(w-1, n-1)]: a[i][w-i] = a[i-1][w-i] + a[i][w-i-1]
  k.add({{0, w, 2, 2 * k.n - 2}, {1, i, 1, k.n}}, {0, 0, 0},
        {read("a", {i - 1, w - i}), read("a", {i, w - i - 1}), write("a", {i, w - i})},
        {Constraint::atLeast(i, w - k.n + 2), Constraint::atLeast(w - 1, i)});
  Dependences d = computeDependences(k.statements);
  INFO(Catch::Detail::stringify(summary(d)));
  CHECK_FALSE(loop(d, 0).parallel);
  CHECK(loop(d, 1).parallel);
  auto lines = summary(d);
  CHECK(has(lines, "flow a S0->S0 (1,1) @0"));
  CHECK(has(lines, "flow a S0->S0 (1,0) @0"));
}

TEST_CASE("a[i] = a[i-1] is a flow dependence of distance 1", "[deps]") {
  Kernel k;
  Symbol i = k.it("i");
  k.add({{0, i, 1, k.n}}, {0, 0}, {read("a", {i - 1}), write("a", {i})});
  Dependences d = computeDependences(k.statements);
  CHECK(summary(d) == std::vector<std::string>{"flow a S0->S0 (1) @0"});
  CHECK(d.recurrences == std::vector<std::vector<std::size_t>>{{0}});
}

TEST_CASE("a[i] = a[i+1] is an anti dependence of distance 1 and no flow", "[deps]") {
  Kernel k;
  Symbol i = k.it("i");
  k.add({{0, i, 0, k.n - 1}}, {0, 0}, {read("a", {i + 1}), write("a", {i})});
  Dependences d = computeDependences(k.statements);
  CHECK(summary(d) == std::vector<std::string>{"anti a S0->S0 (1) @0"});
  CHECK_FALSE(loop(d, 0).parallel);
}

TEST_CASE("2-D stencil into another array: parallel and permutable", "[deps]") {
  Kernel k;
  Symbol i = k.it("i"), j = k.it("j");
  k.add({{0, i, 1, k.n - 1}, {1, j, 1, k.n - 1}}, {0, 0, 0},
        {read("a", {i - 1, j}), read("a", {i + 1, j}), read("a", {i, j - 1}), read("a", {i, j + 1}),
         write("b", {i, j})});
  Dependences d = computeDependences(k.statements);
  CHECK(d.dependences.empty());
  CHECK(loop(d, 0).parallel);
  CHECK(loop(d, 1).parallel);
  CHECK(d.nests[0].permutable);
}

TEST_CASE("interchange: legal for distance (1,1), illegal for (1,-1)", "[deps]") {
  SECTION("legal") {
    Kernel k;
    Symbol i = k.it("i"), j = k.it("j");
    k.add({{0, i, 1, k.n}, {1, j, 1, k.n}}, {0, 0, 0}, {read("a", {i - 1, j - 1}), write("a", {i, j})});
    Dependences d = computeDependences(k.statements);
    CHECK(summary(d) == std::vector<std::string>{"flow a S0->S0 (1,1) @0"});
    CHECK(d.nests[0].permutable);
    CHECK(d.nests[0].interchangeLegal == std::vector<bool>{true});
    CHECK(loop(d, 1).parallel);
  }
  SECTION("illegal") {
    Kernel k;
    Symbol i = k.it("i"), j = k.it("j");
    k.add({{0, i, 1, k.n}, {1, j, 0, k.n - 1}}, {0, 0, 0}, {read("a", {i - 1, j + 1}), write("a", {i, j})});
    Dependences d = computeDependences(k.statements);
    CHECK(summary(d) == std::vector<std::string>{"flow a S0->S0 (1,-1) @0"});
    CHECK_FALSE(d.nests[0].permutable);
    CHECK(d.nests[0].interchangeLegal == std::vector<bool>{false});
  }
}

TEST_CASE("fusion candidate: b produced by one loop and consumed by the next", "[deps]") {
  Kernel k;
  Symbol i = k.it("i");
  k.add({{0, i, 0, k.n}}, {0, 0}, {read("a", {i}), write("b", {i})});
  k.add({{1, i, 0, k.n}}, {1, 0}, {read("b", {i}), write("c", {i})});
  k.add({{2, i, 0, k.n + 1}}, {2, 0}, {read("c", {i}), write("d", {i})});
  Dependences d = computeDependences(k.statements);
  INFO(Catch::Detail::stringify(summary(d)));
  REQUIRE(d.fusion.size() == 2);
  CHECK(d.fusion[0].shared == std::vector<std::string>{"b"});
  CHECK(d.fusion[0].sameBounds);
  CHECK(d.fusion[0].legal);
  CHECK(d.fusion[0].reason.empty());
  CHECK(d.fusion[1].shared == std::vector<std::string>{"c"});
  CHECK_FALSE(d.fusion[1].sameBounds);
  CHECK(d.nestOrder == std::vector<std::size_t>{0, 1, 2});
}

TEST_CASE("may-writes do not kill: both the may-write and the earlier must-write reach the read", "[deps]") {
  Kernel k;
  Symbol i = k.it("i");
  k.add({}, {0}, {write("x", {0})});
  k.add({{0, i, 0, k.n}}, {1, 0}, {read("a", {i}), mayWrite("x", {0})});
  k.add({}, {2}, {read("x", {0})});
  Dependences d = computeDependences(k.statements);
  auto lines = summary(d);
  INFO(Catch::Detail::stringify(lines));
  CHECK(has(lines, "flow x S0->S2 () indep"));
  CHECK(has(lines, "flow x S1->S2 () indep"));
  CHECK(has(lines, "output x S1->S1 (<) @0"));  // a may-write kills nothing: every earlier one
}

TEST_CASE("a statement with a non-affine subscript is skipped with its reason, the result approximate", "[deps]") {
  Kernel k;
  Symbol i = k.it("i");
  k.add({{0, i, 0, k.n}}, {0, 0}, {read("a", {i * i}), write("b", {i})});
  k.add({{1, i, 0, k.n}}, {1, 0}, {read("b", {i}), write("c", {i})});
  Dependences d = computeDependences(k.statements);
  CHECK(d.approximate);
  REQUIRE(d.skipped.size() == 1);
  CHECK(d.skipped[0].first == 0);
  CHECK(d.skipped[0].second.find("not affine") != std::string::npos);
  CHECK(loop(d, 1).parallel);
}

// ---- Program level: the frontend's local scalars, the glue (tracer/dependences.hpp) on the
// polyhedral model (tracer/poly_model.hpp) and the renderers.

namespace {

using cats::trace::Trace;

cats::trace::ProgramDependences depsOf(const std::string& code) {
  cats::test::AnalyzeOptions options;
  options.localScalars = true;
  Trace t = cats::test::analyzeSource(code, options);
  return cats::trace::analyseDependences(t, cats::trace::buildPolyModel(t));
}

const cats::trace::LoopVerdict& loopAt(const cats::trace::ProgramDependences& d, unsigned line) {
  auto it = std::find_if(d.loops.begin(), d.loops.end(), [&](const auto& l) { return l.loop.loc.line == line; });
  REQUIRE(it != d.loops.end());
  return *it;
}

const char* kReduction = R"(double a[1000];
double total(int n) {
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += a[i];
  return sum;
}
)";

}  // namespace

TEST_CASE("traceLocalScalars: sum += a[i] reads and writes sum inside the loop, nothing else changes", "[deps]") {
  cats::test::AnalyzeOptions on;
  on.localScalars = true;
  auto with = cats::test::accessLines(cats::test::analyzeSource(kReduction, on));
  auto without = cats::test::accessLines(cats::test::analyzeSource(kReduction));
  INFO(Catch::Detail::stringify(with));
  CHECK(std::count_if(with.begin(), with.end(), [](const std::string& l) { return l.find("read sum -> sum") != std::string::npos; }) == 1);
  CHECK(std::count_if(with.begin(), with.end(), [](const std::string& l) { return l.find("write sum -> sum") != std::string::npos; }) == 1);
  CHECK(std::none_of(with.begin(), with.end(), [](const std::string& l) { return l.find("-> i ") != std::string::npos; }));
  for (const auto& line : without) CHECK(std::find(with.begin(), with.end(), line) != with.end());
  CHECK(std::none_of(without.begin(), without.end(), [](const std::string& l) { return l.find("sum") != std::string::npos; }));
}

TEST_CASE("program: a local scalar accumulation is a reduction on sum", "[deps]") {
  auto d = depsOf(kReduction);
  const auto& loop = loopAt(d, 4);
  CHECK(loop.loop.iterator == "i");
  CHECK(loop.loop.function == "total");
  CHECK(loop.reduction);
  CHECK_FALSE(loop.parallel);
  REQUIRE_FALSE(loop.carried.empty());
  for (const auto& c : loop.carried) CHECK(c.container == "sum");
}

TEST_CASE("program: loop iterators declared outside loops make no dependences", "[deps]") {
  auto d = depsOf(R"(double a[100][100], b[100][100];
void transpose(int n) {
  int i, j;
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      b[j][i] = a[i][j];
}
)");
  INFO(cats::report::dependencesText(d));
  CHECK(loopAt(d, 4).parallel);
  CHECK(loopAt(d, 5).parallel);
  CHECK(d.dependences.empty());
}

TEST_CASE("deps renderers: text, JSON contract and DOT", "[deps]") {
  auto d = depsOf(R"(double a[1000], b[1000], c[1000];
void kernel(int n) {
  for (int i = 1; i < n; i++)
    a[i] = a[i - 1] + 1;
  for (int i = 0; i < n; i++)
    b[i] = a[i];
  for (int i = 0; i < n; i++)
    c[i] = b[i] * 2;
}
)");
  std::string text = cats::report::dependencesText(d);
  INFO(text);
  CHECK(text.find("carried  carries flow a (1)") != std::string::npos);
  CHECK(text.find("parallel") != std::string::npos);
  CHECK(text.find("fusion candidates:") != std::string::npos);

  auto json = nlohmann::json::parse(cats::report::dependencesJson(d));
  CHECK(json["format"] == "cats-static-dependences");
  CHECK(json["version"] == 1);
  REQUIRE(json["loops"].size() == 3);
  const auto& first = json["loops"][0];
  CHECK(first["function"] == "kernel");
  CHECK(first["line"] == 3);
  CHECK(first["iterator"] == "i");
  CHECK(first["parallel"] == false);
  CHECK(first["reduction"] == false);
  REQUIRE(first["carried"].size() == 1);
  CHECK(first["carried"][0]["container"] == "a");
  CHECK(first["carried"][0]["kind"] == "flow");
  CHECK(first["carried"][0]["distance"] == nlohmann::json::array({1}));
  CHECK(json["loops"][1]["parallel"] == true);
  CHECK(json["loops"][2]["parallel"] == true);
  CHECK(json["dependences"].is_array());
  bool fusedBC = false;
  for (const auto& f : json["fusion"])
    if (f["shared"] == nlohmann::json::array({"b"})) fusedBC = f["legal"] == true && f["same_bounds"] == true;
  CHECK(fusedBC);

  std::string dot = cats::report::dependencesDot(d);
  CHECK(dot.rfind("digraph dependences {", 0) == 0);
  CHECK(dot.find("-> \"S0\" [label=\"flow a (1)") != std::string::npos);
  if (std::system("command -v dot >/dev/null 2>&1") == 0) {
    std::string dir = cats::test::tempDir();
    std::string path = cats::test::writeFile(dir, "deps.dot", dot);
    CHECK(std::system(("dot -Tsvg '" + path + "' -o '" + dir + "/deps.svg'").c_str()) == 0);
    CHECK(cats::test::readFile(dir + "/deps.svg").find("<svg") != std::string::npos);
  }
}

// ---- The command: `cats-static deps` on the examples, with the real polyhedral model.

namespace {

nlohmann::json depsJson(const std::string& args) {
  auto r = cats::test::runCli("deps " + args + " --format json");
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  return nlohmann::json::parse(r.out);
}

const nlohmann::json& jsonLoop(const nlohmann::json& doc, const std::string& function, int line) {
  for (const auto& l : doc["loops"])
    if (l["function"] == function && l["line"] == line) return l;
  FAIL("no loop of " << function << " at line " << line << " in " << doc["loops"].dump());
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("deps CLI: matrix multiply, i and j parallel, k a reduction on C", "[deps]") {
  auto doc = depsJson("examples/matmul-static");
  CHECK(doc["format"] == "cats-static-dependences");
  CHECK(doc["version"] == 1);
  CHECK(jsonLoop(doc, "matrix_mul", 13)["parallel"] == true);  // initialisation nest
  CHECK(jsonLoop(doc, "matrix_mul", 14)["parallel"] == true);
  CHECK(jsonLoop(doc, "matrix_mul", 19)["parallel"] == true);
  CHECK(jsonLoop(doc, "matrix_mul", 20)["parallel"] == true);
  const auto& k = jsonLoop(doc, "matrix_mul", 21);
  CHECK(k["iterator"] == "k");
  CHECK(k["parallel"] == false);
  CHECK(k["reduction"] == true);
  REQUIRE_FALSE(k["carried"].empty());
  for (const auto& c : k["carried"]) {
    CHECK(c["container"] == "C");
    CHECK(c["distance"] == nlohmann::json::array({0, 0, 1}));
  }
}

TEST_CASE("deps CLI: 2-D Jacobi, the time loop carried, the space loops parallel", "[deps]") {
  auto doc = depsJson("examples/jacobi-2d --entry jacobi_2d");
  const auto& t = jsonLoop(doc, "jacobi_2d", 15);
  CHECK(t["parallel"] == false);
  CHECK(t["reduction"] == false);
  for (int line : {16, 17, 19, 20}) CHECK(jsonLoop(doc, "jacobi_2d", line)["parallel"] == true);
}

TEST_CASE("deps CLI: an indirect access makes its loops unknown, with a warning, approximate", "[deps]") {
  auto r = cats::test::runCli("deps examples/spmv-csr --format json");
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["approximate"] == true);
  CHECK_FALSE(doc["unknown"].empty());
  CHECK(r.err.find("is not in the polyhedral model") != std::string::npos);
  CHECK(r.err.find("spmv.c:14:") != std::string::npos);
  bool unknownLoop = false;
  for (const auto& l : doc["loops"])
    if (l.contains("unknown")) {
      unknownLoop = true;
      CHECK(l["parallel"] == false);
    }
  CHECK(unknownLoop);
}

TEST_CASE("deps CLI: text and DOT (rendered by Graphviz when installed)", "[deps]") {
  auto text = cats::test::runCli("deps examples/matmul-static");
  REQUIRE(text.exitCode == 0);
  CHECK(text.out.find("loops:") != std::string::npos);
  CHECK(text.out.find("reduction  carries flow C (0,0,1)") != std::string::npos);
  auto dot = cats::test::runCli("deps examples/matmul-static --format dot");
  REQUIRE(dot.exitCode == 0);
  CHECK(dot.out.rfind("digraph dependences {", 0) == 0);
  if (std::system("command -v dot >/dev/null 2>&1") == 0) {
    std::string dir = cats::test::tempDir();
    std::string path = cats::test::writeFile(dir, "mm.dot", dot.out);
    CHECK(std::system(("dot -Tsvg '" + path + "' -o '" + dir + "/mm.svg'").c_str()) == 0);
  }
}

TEST_CASE("deps CLI: bad input has the documented exit codes", "[deps]") {
  CHECK(cats::test::runCli("deps does/not/exist.c").exitCode == 2);
  CHECK(cats::test::runCli("deps examples/matmul-static --format svg").exitCode == 2);
  CHECK(cats::test::runCli("deps examples/matmul-static --entry no_such_function").exitCode == 2);
  std::string dir = cats::test::tempDir();
  std::string broken = cats::test::writeFile(dir, "broken.c", "void f(int n) { for (int i = 0; i < n; i++) a[i] = ; }\n");
  auto r = cats::test::runCli("deps '" + broken + "'");
  CHECK(r.exitCode == 1);
  CHECK(r.err.find("error") != std::string::npos);
}

TEST_CASE("program: a prefix sum through a scalar is carried, not a reduction; no fusion across functions", "[deps]") {
  auto d = depsOf(R"(double a[1000], p[1000];
void prefix(int n) {
  double sum = 0;
  for (int i = 0; i < n; i++) {
    sum += a[i];
    p[i] = sum;
  }
}
void twice(int n) {
  for (int i = 0; i < n; i++)
    p[i] = 2 * a[i];
}
)");
  INFO(cats::report::dependencesText(d));
  const auto& loop = loopAt(d, 4);
  CHECK_FALSE(loop.parallel);
  CHECK_FALSE(loop.reduction);  // the read of sum in `p[i] = sum` is folded into the update's read
  CHECK(d.fusion.empty());      // the two loops share a and p, but are in different functions
}

TEST_CASE("an accumulator read twice in one iteration (folded) is not a reduction", "[deps]") {
  Kernel k;
  Symbol i = k.it("i");
  DepAccess twice = read("sum", {0});
  twice.multiplicity = 2;
  k.add({{0, i, 0, k.n}}, {0, 0}, {twice, read("a", {i}), write("sum", {0})});
  Dependences d = computeDependences(k.statements);
  CHECK_FALSE(loop(d, 0).parallel);
  CHECK_FALSE(loop(d, 0).reduction);
}

TEST_CASE("an exhausted isl operation budget gives an approximate result with isl's reason, not a crash", "[deps]") {
  Kernel k;
  Symbol t = k.it("t"), i = k.it("i"), j = k.it("j");
  LoopSpec lt{0, t, 0, k.n}, li{1, i, 1, k.n - 1}, lj{2, j, 1, k.n - 1};
  k.add({lt, li, lj}, {0, 0, 0, 0},
        {read("a", {i - 1, j}), read("a", {i, j - 1}), read("a", {i + 1, j}), read("a", {i, j + 1}), write("a", {i, j})});
  Dependences d = computeDependences(k.statements, 10);
  CHECK(d.approximate);
  CHECK_FALSE(d.reason.empty());
  CHECK(computeDependences(k.statements).approximate == false);
}

TEST_CASE("deps CLI: a loop lists each carried (container, kind, distance) once", "[deps]") {
  auto doc = depsJson("examples/jacobi-2d --entry jacobi_2d");
  std::set<std::string> seen;
  for (const auto& c : jsonLoop(doc, "jacobi_2d", 15)["carried"])
    CHECK(seen.insert(c["container"].get<std::string>() + c["kind"].get<std::string>() + c["distance"].dump()).second);
  INFO(Catch::Detail::stringify(seen));
  CHECK(std::count_if(seen.begin(), seen.end(), [](const std::string& k) { return k.find("flow[1]") != std::string::npos; }) == 1);
}

TEST_CASE("deps and analyze --counts stop expanding calling contexts at a limit, say so, and finish", "[deps][cli]") {
  // 16 functions each calling the next twice: 65,536 calling contexts of f0's loop.
  std::string source = "double a[64];\nvoid f0(void) { for (int i = 0; i < 64; i++) a[i] += 1; }\n";
  for (int k = 1; k < 17; ++k)
    source += "void f" + std::to_string(k) + "(void) { f" + std::to_string(k - 1) + "(); f" + std::to_string(k - 1) + "(); }\n";
  source += "int main(void) { f16(); return 0; }\n";
  std::string file = cats::test::writeFile(cats::test::tempDir(), "contexts.c", source);
  for (const char* command : {"deps ", "analyze --counts "}) {
    INFO(command);
    cats::test::CliResult r = cats::test::runCli(std::string(command) + file);
    CHECK(r.exitCode == 0);
    CHECK(r.err.find("the calling contexts of this program pass 20000 events") != std::string::npos);
    CHECK(r.err.find("--entry FUNCTION") != std::string::npos);
  }
  cats::test::CliResult part = cats::test::runCli("deps --entry f3 " + file);
  CHECK(part.exitCode == 0);
  CHECK(part.err.find("calling contexts") == std::string::npos);
}
