// Dependences of kernel shapes against hand-derived expectations: the math on hand-built
// statements (symbolic/dependences.hpp).
#include "symbolic/dependences.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

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
