// Counting formulas (symbolic/polyhedral.hpp) against isl enumeration at fixed parameters, over
// seeded random and boundary parameter values, on the nest shapes of issue 7.
#include "support.hpp"

#include "symbolic/polyhedral.hpp"
#include "tracer/poly_model.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <random>

using namespace cats::sym;

namespace {

Symbol N("N"), M("M"), i("i"), j("j"), k("k"), ii("ii"), t("t"), u("u");

Constraint ge(const Expr& a, const Expr& b) { return Constraint::atLeast(a, b); }
Constraint lt(const Expr& a, const Expr& b) { return Constraint::lessThan(a, b); }
Constraint eq(const Expr& a, const Expr& b) { return Constraint::equal(a, b); }

IntegerSet makeSet(std::vector<Symbol> dims, std::vector<Constraint> constraints, std::vector<Symbol> existentials = {},
                   std::vector<Symbol> params = {N}) {
  IntegerSet s;
  s.name = "S";
  s.dims = std::move(dims);
  s.existentials = std::move(existentials);
  s.params = std::move(params);
  s.constraints = std::move(constraints);
  return s;
}

/* 20 parameter values per parameter: boundary values and seeded random ones in [-3, 70]. */
std::vector<ParamValues> parameterPoints(const std::vector<Symbol>& params, unsigned seed) {
  std::vector<std::int64_t> fixed{-2, 0, 1, 2, 7, 8, 9, 31, 32, 33};
  std::mt19937 random(seed);
  std::uniform_int_distribution<std::int64_t> draw(-3, 70);
  std::vector<ParamValues> out;
  for (std::size_t n = 0; n < 20; ++n) {
    ParamValues values;
    for (std::size_t p = 0; p < params.size(); ++p)
      values[params[p].get_name()] = (n < fixed.size() && p == 0) ? fixed[n] : draw(random);
    out.push_back(values);
  }
  return out;
}

std::string show(const ParamValues& values) {
  std::string out;
  for (const auto& [name, v] : values) out += name + "=" + std::to_string(v) + " ";
  return out;
}

void checkPoints(const IntegerSet& set, const std::string& method = "summation") {
  PiecewiseCount count = countPoints(set);
  INFO(count.str());
  REQUIRE(count.method == method);
  REQUIRE(count.exact);
  for (const auto& values : parameterPoints(set.params, 7)) {
    INFO(show(values));
    CHECK(count.evaluate(values) == enumeratePoints(set, values));
  }
}

void checkImage(const IntegerSet& set, const std::vector<Expr>& subscripts) {
  PiecewiseCount count = countImage(set, subscripts);
  INFO(count.str());
  REQUIRE(!count.method.empty());
  for (const auto& values : parameterPoints(set.params, 11)) {
    INFO(show(values));
    CHECK(count.evaluate(values) == enumerateImage(set, subscripts, values));
  }
}

}  // namespace

TEST_CASE("rectangular nest: N^2 for N >= 1", "[counting]") {
  IntegerSet s = makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, 0), lt(j, N)});
  checkPoints(s);
  PiecewiseCount c = countPoints(s);
  CHECK(c.str() == "N >= 1: N^2\n");
  CHECK(c.evaluate({{"N", 0}}) == 0);
  CHECK(c.evaluate({{"N", -5}}) == 0);
  CHECK(c.evaluate({}) == std::nullopt);
}

TEST_CASE("triangular nests both ways", "[counting]") {
  checkPoints(makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, 0), Constraint::atLeast(i, j)}));
  checkPoints(makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, i), lt(j, N)}));
  CHECK(countPoints(makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, 0), Constraint::atLeast(i, j)})).str() ==
        "N >= 1: (1/2)*N + (1/2)*N^2\n");
}

TEST_CASE("skewed nest: j from i to i+N", "[counting]") {
  checkPoints(makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, i), Constraint::atLeast(i + N, j)}));
}

TEST_CASE("tiled nest with min: ii step 32, i < min(ii+32, N)", "[counting]") {
  IntegerSet s = makeSet({ii, i}, {eq(ii, 32 * t), ge(ii, 0), lt(ii, N), ge(i, ii), lt(i, minOf(ii + 32, N))}, {t});
  checkPoints(s);
  CHECK(countPoints(s).str() == "N >= 1: N\n");
  IntegerSet square = makeSet({ii, i, j}, {eq(ii, 32 * t), ge(ii, 0), lt(ii, N), ge(i, ii), lt(i, minOf(ii + 32, N)),
                                           ge(j, 0), lt(j, minOf(N, 40))},
                              {t});
  checkPoints(square);
}

TEST_CASE("empty ranges count 0", "[counting]") {
  IntegerSet s = makeSet({i}, {ge(i, N), lt(i, 0)});
  PiecewiseCount c = countPoints(s);
  CHECK(c.evaluate({{"N", 5}}) == 0);
  CHECK(c.evaluate({{"N", -5}}) == 5);
  checkPoints(s);
}

TEST_CASE("strided and backward loops", "[counting]") {
  checkPoints(makeSet({i}, {eq(i, 3 * t), ge(t, 0), lt(i, N)}, {t}));                  // i += 3
  checkPoints(makeSet({i}, {eq(i, N - 1 - t), ge(t, 0), ge(i, 0)}, {t}));              // i--
  checkPoints(makeSet({i}, {eq(i, N - 1 - 2 * t), ge(t, 0), ge(i, 0)}, {t}));          // i -= 2
  checkPoints(makeSet({i, j}, {eq(i, 5 + 4 * t), ge(t, 0), lt(i, N), ge(j, 0), lt(j, i)}, {t}));  // i = 5; i < N; i += 4
}

TEST_CASE("guarded statements", "[counting]") {
  checkPoints(makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, 0), lt(j, N), Constraint::atLeast(i, j)}));  // if (i >= j)
  checkPoints(makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, 0), lt(j, N), eq(imod(i, 2), 0)}));         // if (i % 2 == 0)
}

TEST_CASE("floor of a parameter in a bound", "[counting]") {
  checkPoints(makeSet({i, j}, {ge(i, 0), lt(i, idiv(N, 2)), ge(j, i), lt(j, N)}));  // i < N / 2
}

TEST_CASE("multi-parameter nests", "[counting]") {
  IntegerSet rect = makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, 0), lt(j, M)}, {}, {M, N});
  checkPoints(rect);
  CHECK(countPoints(rect).str() == "M >= 1 and N >= 1: M*N\n");
  checkPoints(makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, 0), lt(j, minOf(i, M))}, {}, {M, N}));
  checkPoints(makeSet({i, j}, {ge(i, 1), Constraint::atLeast(N, i), ge(j, i), Constraint::atLeast(i + M, j)}, {}, {M, N}));
}

TEST_CASE("three-deep nests", "[counting]") {
  checkPoints(makeSet({i, j, k}, {ge(i, 0), lt(i, N), ge(j, 0), lt(j, N), ge(k, 0), lt(k, N)}));
  checkPoints(makeSet({i, j, k}, {ge(i, 0), lt(i, N), ge(j, 0), Constraint::atLeast(i, j), ge(k, j), lt(k, N)}));
}

TEST_CASE("image counts: distinct elements an access touches", "[counting]") {
  IntegerSet cube = makeSet({i, j, k}, {ge(i, 0), lt(i, N), ge(j, 0), lt(j, N), ge(k, 0), lt(k, N)});
  checkImage(cube, {k, j});  // B[k][j]: N^2
  CHECK(countImage(cube, {k, j}).str() == "N >= 1: N^2\n");
  IntegerSet square = makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, 0), lt(j, N)});
  checkImage(square, {i + j});  // A[i+j]: 2N - 1
  CHECK(countImage(square, {i + j}).str() == "N >= 1: 2*N - 1\n");
  IntegerSet line = makeSet({i}, {ge(i, 0), lt(i, N)});
  checkImage(line, {imod(i, 8)});  // A[i%8]: min(N, 8)
  CHECK(countImage(line, {imod(i, 8)}).evaluate({{"N", 5}}) == 5);
  CHECK(countImage(line, {imod(i, 8)}).evaluate({{"N", 100}}) == 8);
  checkImage(line, {idiv(i, 4)});  // A[i/4]: ceil(N/4)
  checkImage(square, {2 * i + 4 * j});
}

TEST_CASE("strided inner loop bounded by the outer iterator", "[counting]") {
  // for (i = 0; i < N; i++) for (j = 0; j < i; j += 2): summed over i first, j's floor is of N.
  checkPoints(makeSet({i, j}, {ge(i, 0), lt(i, N), eq(j, 2 * t), ge(t, 0), lt(j, i)}, {t}));
}

TEST_CASE("non-unit coefficients on two dimensions: residue splitting", "[counting]") {
  // 3j <= 2i couples both dimensions with non-unit coefficients: i is split by its residue mod 3.
  IntegerSet s = makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, 0), Constraint::atLeast(2 * i, 3 * j)});
  checkPoints(s);
  CHECK(countPoints(s).str() ==
        "N >= 1 and imod(N, 3) == 1: (1/3)*N + (1/3)*N^2 + 1/3\n"
        "N >= 2 and imod(N, 3) == 2: (1/3)*N + (1/3)*N^2\n"
        "N >= 3 and imod(N, 3) == 0: (1/3)*N + (1/3)*N^2\n");
}

TEST_CASE("bad input gives a reason, never a throw", "[counting]") {
  IntegerSet unbounded = makeSet({i}, {ge(i, 0)});
  PiecewiseCount c = countPoints(unbounded);
  CHECK(c.method.empty());
  CHECK_FALSE(c.reason.empty());
  CHECK(c.evaluate({{"N", 3}}) == 0);  // no pieces: callers must check method
  IntegerSet nonAffine = makeSet({i}, {ge(i, 0), lt(i, N * N)});
  PiecewiseCount d = countPoints(nonAffine);
  CHECK(d.method.empty());
  CHECK(d.reason.find("not affine") != std::string::npos);
  CHECK_THROWS_AS(enumeratePoints(makeSet({i}, {ge(i, 0), lt(i, N)}), {}), std::runtime_error);
}

namespace {

void checkLines(const IntegerSet& set, const std::vector<Expr>& subscripts, const std::vector<Expr>& extents,
                const std::string& method) {
  PiecewiseCount count = countLines(set, subscripts, extents, 8, 64);
  INFO(count.str());
  REQUIRE(count.method == method);
  REQUIRE(count.exact);
  for (const auto& values : parameterPoints(set.params, 13)) {
    INFO(show(values));
    CHECK(count.evaluate(values) == enumerateLines(set, subscripts, extents, 8, 64, values));
  }
}

}  // namespace

TEST_CASE("lines of row-major double arrays with 64-byte lines", "[counting]") {
  IntegerSet square = makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, 0), lt(j, N)});
  checkLines(square, {i, j}, {N, N}, "interpolation");  // double A[N][N], A[i][j]: ceil(N^2 / 8)
  checkLines(square, {j, i}, {N, N}, "interpolation");  // the column walk touches the same lines
  PiecewiseCount whole = countLines(square, {i, j}, {N, N}, 8, 64);
  CHECK(whole.evaluate({{"N", 64}}) == 512);  // N a multiple of 8: N^2/8
  CHECK(whole.evaluate({{"N", 10}}) == 13);   // not: ceil(100/8)
  IntegerSet column = makeSet({i}, {ge(i, 0), lt(i, N)});
  checkLines(column, {i, Expr(0)}, {N, N}, "interpolation");  // A[i][0]: one line per row once N >= 8
  CHECK(countLines(column, {i, Expr(0)}, {N, N}, 8, 64).evaluate({{"N", 40}}) == 40);
  IntegerSet triangle = makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, 0), Constraint::atLeast(i, j)});
  checkLines(triangle, {i, j}, {N, N}, "interpolation");
  // Numeric inner extents: the line index is affine, summation is exact.
  checkLines(square, {i, j}, {Expr(0), Expr(16)}, "summation");  // double A[][16], j < N
  IntegerSet rows = makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, 0), lt(j, 16)});
  checkLines(rows, {i, j}, {N, Expr(16)}, "summation");
  CHECK(countLines(rows, {i, j}, {N, Expr(16)}, 8, 64).str() == "N >= 1: 2*N\n");
  checkLines(rows, {i, j}, {N, Expr(20)}, "summation");  // rows of 160 bytes: not line-aligned
}

TEST_CASE("lines: bad shapes give a reason", "[counting]") {
  IntegerSet line = makeSet({i}, {ge(i, 0), lt(i, N)});
  CHECK(countLines(line, {i}, {N, N}, 8, 64).reason == "subscripts and extents differ in number");
  CHECK(countLines(line, {i}, {N}, 8, 0).method.empty());
  IntegerSet twoParams = makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, 0), lt(j, M)}, {}, {M, N});
  PiecewiseCount c = countLines(twoParams, {i, j}, {N, M}, 8, 64);
  CHECK(c.method.empty());
  CHECK(c.reason.find("one parameter") != std::string::npos);
}

namespace {

/* Every statement's domain, and every access's image and lines, of "t": formula = isl
   enumeration at "sizes" (every parameter at the size, global defaults kept). Returns the
   formulas checked. */
std::size_t checkModelCounts(const cats::trace::Trace& t, const std::vector<std::int64_t>& sizes) {
  cats::trace::PolyModel m = cats::trace::buildPolyModel(t);
  std::size_t checked = 0;
  for (const auto& s : m.statements) {
    INFO(s.name << " at " << s.loc.str());
    PiecewiseCount domain = countPoints(s.domain);
    INFO(domain.str());
    REQUIRE(!domain.method.empty());
    std::vector<std::pair<PiecewiseCount, const cats::trace::PolyAccess*>> images;
    std::vector<std::pair<PiecewiseCount, const cats::trace::PolyAccess*>> lines;
    for (const auto& a : s.accesses) {
      images.emplace_back(countImage(s.domain, a.subscripts), &a);
      lines.emplace_back(countLines(s.domain, a.subscripts, a.extents, a.elementBytes, 64), &a);
    }
    for (std::int64_t size : sizes) {
      ParamValues values;
      for (const auto& info : t.context.symbols())
        if (info.kind == SymbolKind::Parameter) values[info.name] = size;
      for (const auto& [name, value] : t.defaults) values[name] = value;
      INFO("size " << size);
      CHECK(domain.evaluate(values) == enumeratePoints(s.domain, values));
      ++checked;
      for (const auto& [count, a] : images) {
        INFO(t.events[a->event].text << ": " << count.str());
        REQUIRE(!count.method.empty());
        CHECK(count.evaluate(values) == enumerateImage(s.domain, a->subscripts, values));
        ++checked;
      }
      for (const auto& [count, a] : lines) {
        INFO(t.events[a->event].text << " lines: " << count.str());
        if (count.method.empty()) {
          CHECK_FALSE(count.reason.empty());
          continue;
        }
        CHECK(count.evaluate(values) == enumerateLines(s.domain, a->subscripts, a->extents, a->elementBytes, 64, values));
        ++checked;
      }
    }
  }
  return checked;
}

}  // namespace

TEST_CASE("the model's domains, images and lines: formulas = isl enumeration", "[counting][examples]") {
  cats::trace::Trace t = cats::test::analyzeSource(R"(
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
        b[i - 1] = a[i - 1][n - i];
    })");
  CHECK(checkModelCounts(t, {0, 1, 7, 8, 13, 33}) > 0);
}

TEST_CASE("every example: the model's counts as formulas = isl enumeration", "[counting][examples]") {
  namespace fs = std::filesystem;
  std::vector<fs::path> dirs;
  for (const auto& entry : fs::directory_iterator(cats::test::sourcePath("examples")))
    if (entry.is_directory()) dirs.push_back(entry.path());
  std::sort(dirs.begin(), dirs.end());
  for (const auto& dir : dirs) {
    INFO(dir.filename().string());
    cats::trace::Trace t = cats::test::analyze({dir.string()});
    CHECK(checkModelCounts(t, {3, 16, 37}) > 0);
  }
}

TEST_CASE("lines with a byte offset: struct fields and unaligned bases", "[counting]") {
  IntegerSet line = makeSet({i}, {ge(i, 0), lt(i, N)});
  // struct { double x, y, z; } p[N] (24 bytes): p[i].y is at 24*i + 8.
  PiecewiseCount fields = countLines(line, {i}, {Expr(0)}, 24, 64, 8);
  REQUIRE(fields.method == "summation");
  for (const auto& values : parameterPoints({N}, 17)) {
    INFO(show(values));
    CHECK(fields.evaluate(values) == enumerateLines(line, {i}, {Expr(0)}, 24, 64, values, 8));
  }
  // double a[N][N] starting 40 bytes into a line: the parametric path with an offset.
  IntegerSet square = makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, 0), lt(j, N)});
  PiecewiseCount shifted = countLines(square, {i, j}, {N, N}, 8, 64, 40);
  REQUIRE(shifted.method == "interpolation");
  for (const auto& values : parameterPoints({N}, 19)) {
    INFO(show(values));
    CHECK(shifted.evaluate(values) == enumerateLines(square, {i, j}, {N, N}, 8, 64, values, 40));
  }
  CHECK(shifted.evaluate({{"N", 8}}) == 9);  // 512 bytes from byte 40 span 9 lines
}

TEST_CASE("limits: a tiny isl budget gives a reason, a piece cap gives interpolation", "[counting]") {
  IntegerSet tiled = makeSet({ii, i}, {eq(ii, 32 * t), ge(ii, 0), lt(ii, N), ge(i, ii), lt(i, minOf(ii + 32, N))}, {t});
  CountLimits tinyBudget;
  tinyBudget.islOperations = 1;
  PiecewiseCount starved = countPoints(tiled, tinyBudget);
  CHECK(starved.method.empty());
  CHECK_FALSE(starved.reason.empty());
  CountLimits onePiece;
  onePiece.maxPieces = 1;
  IntegerSet mins = makeSet({i, j}, {ge(i, 0), lt(i, N), ge(j, 0), lt(j, minOf(i, 10))});
  PiecewiseCount fitted = countPoints(mins, onePiece);
  INFO(fitted.str());
  REQUIRE(fitted.method == "interpolation");
  CHECK(fitted.exact);
  for (const auto& values : parameterPoints({N}, 23)) {
    INFO(show(values));
    CHECK(fitted.evaluate(values) == enumeratePoints(mins, values));
  }
  CHECK(countPoints(mins).method == "summation");
}
