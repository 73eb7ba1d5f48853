// The concretiser and the lazy address stream: counts, order, placement, policies.
#include "sim/concretize.hpp"
#include "sim/divide.hpp"
#include "sim/formula.hpp"
#include "sim/permutation.hpp"
#include "sim/stream.hpp"
#include "sim/value_memory.hpp"
#include "stream_support.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <map>

#include <algorithm>
#include <random>
#include <set>

using namespace cats;
using test::addressesOf;
using test::drain;
using test::drainStream;

namespace {

sim::Program compile(const trace::Trace& t, sim::RegisterModel model, std::map<std::string, std::int64_t> bindings = {}) {
  sim::ConcretizeOptions options;
  options.model = model;
  options.bindings = std::move(bindings);
  return sim::concretize(t, options);
}

std::size_t countTag(const std::vector<sim::Record>& records, const trace::Trace& t, const std::string& text, bool write) {
  std::size_t n = 0;
  for (const auto& r : records) n += t.events[r.tag].text == text && r.write == write;
  return n;
}

}  // namespace

TEST_CASE("matrix multiply: every access at O0, C kept in a register at O2", "[sim][stream]") {
  test::AnalyzeOptions options;
  options.defines = {{"N", "4"}};
  trace::Trace t = test::analyze({"examples/matmul-heap"}, options);
  const std::size_t n = 4;
  auto o0 = drain(compile(t, sim::RegisterModel::O0));
  // init: 3 writes per element; multiply: A, B, C read + C write per (i, j, k); the final C[N+1] read.
  CHECK(o0.size() == 3 * n * n + 4 * n * n * n + 1);
  CHECK(countTag(o0, t, "C[i * n + j]", false) == n * n * n);
  auto o2 = drain(compile(t, sim::RegisterModel::O2));
  // GCC -O2 keeps multiply out of line (not static, called from cold main, too large), so A, B
  // and C are pointer parameters that may overlap: C[i][j] is loaded once per (i, j) and kept in
  // a register, but stored every k iteration (a later load of A or B may read it).
  // main's init loop has a compile-time trip count (N*N = 16): vectorised, 2 doubles per store.
  // Its `C[i] = 0.0` is not there at all: GCC makes C's malloc a calloc (`gcc -O2 -DN=4`,
  // objdump -d: `call calloc@plt` after two `call malloc@plt`), which clears the 128-byte chunk
  // in 32-byte stores. The kernel's loops run to the parameter n: not vectorised.
  CHECK(o2.size() == 2 * n * n / 2 + n * n * 8 / 32 + 3 * n * n * n + n * n + 1);
  CHECK(countTag(o2, t, "C[i * n + j]", false) == n * n);
  CHECK(countTag(o2, t, "C[i * n + j]", true) == n * n * n);
}

TEST_CASE("O2 vectorises loops with a compile-time trip count, like GCC 12", "[sim][stream]") {
  test::AnalyzeOptions options;
  options.defines = {{"N", "4"}};
  trace::Trace t = test::analyze({"examples/matmul-static"}, options);
  const std::size_t n = 4;
  auto o2 = drain(compile(t, sim::RegisterModel::O2));
  // The j loops (constant bound N, step 1, every access unit-stride or invariant in j) do two
  // iterations per 16-byte access; the k loop carries the C[i][j] reduction, so it is not the one.
  CHECK(countTag(o2, t, "B[k][j]", false) == n * n * n / 2);
  CHECK(countTag(o2, t, "A[i][k]", false) == n * n * n / 2);
  CHECK(countTag(o2, t, "C[i][j]", true) == n * n / 2 + n * n / 2);  // init store and sunk store, both vectorised
  for (const auto& r : o2)
    if (t.events[r.tag].text == "B[k][j]") CHECK(r.bytes == 16);
  auto o0 = drain(compile(t, sim::RegisterModel::O0));
  CHECK(countTag(o0, t, "B[k][j]", false) == n * n * n);
  trace::Trace odd = test::analyze({"examples/matmul-static"}, {{}, {{"N", "5"}}});
  CHECK(countTag(drain(compile(odd, sim::RegisterModel::O2)), odd, "B[k][j]", false) == 125);  // 5 is no multiple of 2
}

TEST_CASE("addresses follow the glibc heap model and the subscripts", "[sim][placement]") {
  test::AnalyzeOptions options;
  options.defines = {{"N", "4"}};
  trace::Trace t = test::analyze({"examples/matmul-heap"}, options);
  auto records = drain(compile(t, sim::RegisterModel::O0));
  // 128-byte blocks: chunks of align16(128 + 8) = 144 bytes after the first user chunk at
  // 0x40352a0 (heap base + glibc's 0x290-byte tcache chunk + the 16-byte chunk header).
  const std::uint64_t a = 0x40352a0, b = a + 144, c = b + 144;
  REQUIRE(records.size() > 3);
  CHECK(records[0].address == a);      // A[0]
  CHECK(records[1].address == b);      // B[0]
  CHECK(records[2].address == c);      // C[0]
  CHECK(records[3].address == a + 8);  // A[1]
  std::size_t multiplyStart = 3 * 16;
  CHECK(records[multiplyStart].address == a);          // A[0*n+0]
  CHECK(records[multiplyStart + 1].address == b);      // B[0*n+0]
  CHECK(records[multiplyStart + 4].address == a + 8);  // A[0*n+1], k = 1
  CHECK(records[multiplyStart + 5].address == b + 32); // B[1*n+0]: one row of 4 doubles further
}

TEST_CASE("large blocks are mmapped page-aligned plus 16; statics and stack arrays follow GCC's order", "[sim][placement]") {
  test::AnalyzeOptions options;
  options.defines = {{"N", "200"}};
  auto firstAddress = [&](const char* example, sim::RegisterModel model, const std::string& text) {
    trace::Trace t = test::analyze({example}, options);
    sim::StreamOptions s;
    s.model = model;
    sim::Program p = compile(t, model);
    sim::AddressStream stream(p, s);
    sim::Record r;
    while (stream.next(&r, 1))
      if (t.events[r.tag].text == text) return r.address;
    FAIL("no access " << text);
    return std::uint64_t{0};
  };
  CHECK(firstAddress("examples/matmul-heap", sim::RegisterModel::O0, "A[i]") == 0x4a2c010);
  CHECK(firstAddress("examples/matmul-heap", sim::RegisterModel::O0, "B[i]") == 0x4a2c010 + 0x4f000);
  CHECK(firstAddress("examples/matmul-static", sim::RegisterModel::O0, "A[i][j]") == 0x10c040);
  CHECK(firstAddress("examples/matmul-static", sim::RegisterModel::O0, "B[i][j]") == 0x10c040 + 320000);
  CHECK(firstAddress("examples/matmul-static", sim::RegisterModel::O2, "C[i][j]") == 0x10c040);
  std::uint64_t a = firstAddress("examples/matmul-stack", sim::RegisterModel::O0, "A[i][j]");
  std::uint64_t b = firstAddress("examples/matmul-stack", sim::RegisterModel::O0, "B[i][j]");
  CHECK(a == b + 320000);  // first declared highest
  CHECK(a % 16 == 0);
}

TEST_CASE("the stream is the same whatever the buffer size", "[sim][stream]") {
  test::AnalyzeOptions options;
  options.defines = {{"N", "6"}};
  for (const char* example : {"examples/matmul-stack", "examples/jacobi-2d", "examples/particles-aos"}) {
    INFO(example);
    trace::Trace t = test::analyze({example}, {{}, {{"N", "6"}, {"TSTEPS", "2"}, {"NP", "10"}}});
    sim::Program p = compile(t, sim::RegisterModel::O0);
    auto big = drain(p, {}, 4096);
    auto tiny = drain(p, {}, 1);
    auto odd = drain(p, {}, 7);
    REQUIRE(big.size() == tiny.size());
    REQUIRE(big.size() == odd.size());
    for (std::size_t i = 0; i < big.size(); ++i) {
      CHECK(big[i].address == tiny[i].address);
      CHECK(big[i].tag == odd[i].tag);
    }
  }
}

TEST_CASE("loop shapes run the right number of iterations; branches follow decidable conditions", "[sim][stream]") {
  trace::Trace t = test::analyzeSource(R"(
    double a[100];
    void f(int n) {
      for (int i = 0; i <= n; i++) a[i] = 0;          // n + 1
      for (int i = n; i > 0; i -= 3) a[i] = 1;        // ceil(n / 3)
      for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) a[j] += 1;        // n (n + 1) / 2 reads and writes
      for (int i = 0; i < n; i++) {
        if (i < 3) a[i] = 2; else a[i + 1] = 3;       // 3 then, n - 3 else
      }
    })");
  auto records = drain(compile(t, sim::RegisterModel::O0, {{"n", 10}}));
  CHECK(countTag(records, t, "a[i]", true) == 11 + 4 + 3);
  CHECK(countTag(records, t, "a[j]", false) == 55);
  CHECK(countTag(records, t, "a[i + 1]", true) == 7);
}

TEST_CASE("undecidable branches follow the policy", "[sim][policy]") {
  trace::Trace t = test::analyzeSource(R"(
    void f(int n, double *a, const int *flag) {
      for (int i = 0; i < n; i++) { if (flag[i]) a[i] = 1; else a[i] = 2; }
    })");
  sim::Program p = compile(t, sim::RegisterModel::O0, {{"n", 1000}});
  auto writes = [&](const char* policy) {
    sim::StreamOptions s;
    s.branches = *sim::parseBranchPolicy(policy);
    std::size_t w = 0;
    for (const auto& r : drain(p, s)) w += r.write;
    return w;
  };
  CHECK(writes("both") == 2000);
  CHECK(writes("then") == 1000);
  CHECK(writes("else") == 1000);
  std::size_t some = 0;
  {
    sim::StreamOptions s;
    s.branches = *sim::parseBranchPolicy("prob:0.25");
    for (const auto& r : drain(p, s)) some += r.write && t.events[r.tag].loc.column > 0 && t.events[r.tag].text == "a[i]";
  }
  CHECK(some == 1000);  // one of the two arms every iteration
  CHECK(!sim::parseBranchPolicy("prob:1.5"));
  CHECK(!sim::parseBranchPolicy("sometimes"));
}

// CSR as the example builds it, but with column indices the analysis cannot follow (rand()).
const char* const kRandomCsr = R"(
#include <stdlib.h>
#define ROWS 100
void spmv(int nrows, const int *rowptr, const int *col, const double *val, const double *x, double *y) {
  for (int r = 0; r < nrows; r++) {
    double sum = 0.0;
    for (int j = rowptr[r]; j < rowptr[r + 1]; j++) sum += val[j] * x[col[j]];
    y[r] = sum;
  }
}
int main(void) {
  int *rowptr = malloc((ROWS + 1) * sizeof(int));
  int *col = malloc(ROWS * 5 * sizeof(int));
  double *val = malloc(ROWS * 5 * sizeof(double));
  double *x = malloc(ROWS * sizeof(double));
  double *y = malloc(ROWS * sizeof(double));
  int nnz = 0;
  for (int r = 0; r < ROWS; r++) {
    rowptr[r] = nnz;
    for (int b = 0; b < 5; b++) { col[nnz] = rand() % ROWS; val[nnz] = 1.0; nnz++; }
    x[r] = r;
  }
  rowptr[ROWS] = nnz;
  spmv(ROWS, rowptr, col, val, x, y);
  return 0;
}
)";

TEST_CASE("indirect accesses are drawn from a seeded distribution over the container", "[sim][policy]") {
  trace::Trace t = test::analyzeSource(kRandomCsr);
  sim::Program p = compile(t, sim::RegisterModel::O0);
  {
    // col holds values the analysis cannot follow: every x[col[j]] is drawn, and the stream says so.
    sim::AddressStream stream(p, {});
    drainStream(stream);
    CHECK(stream.usedPolicy());
    CHECK(stream.storedValueUse().drawn == 500);
    CHECK(stream.storedValueUse().read == 0);
  }
  auto first = drain(p);
  auto again = drain(p);
  REQUIRE(first.size() == again.size());
  for (std::size_t i = 0; i < first.size(); ++i) CHECK(first[i].address == again[i].address);
  // CSR rows: 5 nonzeros per row, read from the rowptr values the program stored.
  CHECK(countTag(first, t, "x[col[j]]", false) == 500);
  sim::StreamOptions other;
  other.seed = 2;
  auto reseeded = drain(p, other);
  bool differs = false;
  for (std::size_t i = 0; i < first.size(); ++i) differs |= first[i].address != reseeded[i].address;
  CHECK(differs);
}

TEST_CASE("a parameter without a value is an error naming it and its use", "[sim][bindings]") {
  test::AnalyzeOptions options;
  options.entries = {"multiply"};
  trace::Trace t = test::analyze({"examples/matmul-heap"}, options);
  CHECK_THROWS_WITH(compile(t, sim::RegisterModel::O2), Catch::Contains("no value for parameter 'n'") && Catch::Contains("-D n=VALUE"));
  CHECK_NOTHROW(compile(t, sim::RegisterModel::O2, {{"n", 8}}));
}

TEST_CASE("every parameter without a value is named in one error, each with its first use", "[sim][bindings]") {
  test::AnalyzeOptions options;
  options.entries = {"fill"};
  trace::Trace t = test::analyzeSource(R"(
void fill(double *a, int n, int m) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) a[i * m + j] = 0.0;
}
)",
                                       options);
  CHECK_THROWS_WITH(compile(t, sim::RegisterModel::O2),
                    Catch::Contains("no value for parameters 'n' (used in the bounds of") && Catch::Contains("'m' (used in the bounds of") &&
                        Catch::Contains("bind them with -D n=VALUE -D m=VALUE"));
  CHECK_THROWS_WITH(compile(t, sim::RegisterModel::O2, {{"n", 8}}), Catch::Contains("no value for parameter 'm'") && Catch::Contains("-D m=VALUE"));
  CHECK_NOTHROW(compile(t, sim::RegisterModel::O2, {{"n", 8}, {"m", 4}}));
}

TEST_CASE("fields read through one data-dependent index hit one element and another index draws its own", "[sim][policy][indirect]") {
  trace::Trace t = test::analyzeSource(
      "struct p { double x, y, z; };\n"
      "struct p pts[1000];\n"
      "int idx[1000];\n"
      "double s;\n"
      "int main(void) {\n"
      "  for (int i = 0; i < 1000; i++) s += pts[idx[i]].x + pts[idx[i]].y + pts[idx[i]].z + pts[idx[999 - i]].x;\n"
      "  return 0;\n"
      "}\n");
  auto records = drain(compile(t, sim::RegisterModel::O0));
  auto x = addressesOf(records, t, "pts[idx[i]].x"), y = addressesOf(records, t, "pts[idx[i]].y"), z = addressesOf(records, t, "pts[idx[i]].z");
  auto other = addressesOf(records, t, "pts[idx[999 - i]].x");
  REQUIRE(x.size() == 1000);
  REQUIRE(y.size() == 1000);
  REQUIRE(z.size() == 1000);
  REQUIRE(other.size() == 1000);
  std::uint64_t low = *std::min_element(x.begin(), x.end());
  std::size_t same = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    CHECK(y[i] == x[i] + 8);  // the same node, at the field offsets of struct p
    CHECK(z[i] == x[i] + 16);
    CHECK((x[i] - low) % 24 == 0);  // whole 24-byte elements, not 8-byte slots
    CHECK(x[i] - low < 1000 * 24);
    same += other[i] == x[i];
  }
  CHECK(same < 20);  // independent draws over 1000 elements meet about once
  std::set<std::uint64_t> distinctX(x.begin(), x.end());
  CHECK(distinctX.size() > 500);  // a new draw every iteration (about 632 distinct of 1000 expected)
}

TEST_CASE("a chase through a linked structure visits distinct nodes, as many as --trips says", "[sim][policy][indirect]") {
  trace::Trace t = test::analyzeSource(
      "struct node { long value; int next; int pad; double weight; };\n"
      "struct node nodes[500];\n"
      "double s;\n"
      "int main(void) {\n"
      "  int cur = 0;\n"
      "  while (cur >= 0) {\n"
      "    s += nodes[cur].value * nodes[cur].weight;\n"
      "    cur = nodes[cur].next;\n"
      "  }\n"
      "  return 0;\n"
      "}\n");
  sim::ConcretizeOptions options;
  options.model = sim::RegisterModel::O0;
  options.trips = {*sim::parseTripCount("main:6=N")};
  options.bindings = {{"N", 500}};
  sim::Program p = sim::concretize(t, options);
  CHECK(p.approximate);
  bool noted = false;
  for (const auto& n : p.notes) noted |= n.find("the user gave 500 iteration(s) (--trips main:6=N)") != std::string::npos;
  CHECK(noted);
  sim::AddressStream stream(p, {});
  auto records = drainStream(stream);
  auto value = addressesOf(records, t, "nodes[cur].value"), next = addressesOf(records, t, "nodes[cur].next");
  REQUIRE(value.size() == 500);
  REQUIRE(next.size() == 500);
  for (std::size_t i = 0; i < value.size(); ++i) CHECK(next[i] == value[i] + 8);
  // cur starts at 0, so the first node is exact; no next was stored, so the other 499 are drawn
  // distinct (a permutation, which may meet node 0 once more).
  const auto nodes = static_cast<std::uint32_t>(test::findAccess(t, "nodes[cur].value", ir::AccessMode::Read, "main").container);
  CHECK(value[0] == *stream.baseOf(nodes));
  CHECK(std::set<std::uint64_t>(value.begin() + 1, value.end()).size() == 499);
  options.trips = {*sim::parseTripCount("main:7=N")};
  CHECK_THROWS_WITH(sim::concretize(t, options), Catch::Contains("those loops are main:6"));
  CHECK_THROWS_AS(sim::concretize(t, options), sim::OptionError);
  options.trips = {*sim::parseTripCount("main:6=M")};
  CHECK_THROWS_AS(sim::concretize(t, options), sim::OptionError);
}

TEST_CASE("trip counts parse as LOC and EXPR at the last equals sign and need a line", "[sim][trips]") {
  struct Case {
    std::string text;
    bool ok;
    std::string loop, count;
  };
  const Case cases[] = {
      {"traverse:28=N", true, "traverse:28", "N"},
      {"src/a.c:12=2*N+1", true, "src/a.c:12", "2*N+1"},
      {"main:6=100", true, "main:6", "100"},
      {"traverse=N", false, "", ""},
      {"traverse:=N", false, "", ""},
      {"traverse:x=N", false, "", ""},
      {":28=N", false, "", ""},
      {"traverse:28=", false, "", ""},
      {"", false, "", ""},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto parsed = sim::parseTripCount(c.text);
    REQUIRE(parsed.has_value() == c.ok);
    if (!parsed) continue;
    CHECK(parsed->loop == c.loop);
    CHECK(parsed->count == c.count);
  }
}

TEST_CASE("keyed permutations are bijections on 0..n-1 and differ by key", "[sim][permutation]") {
  for (std::uint64_t n : {1ull, 2ull, 3ull, 5ull, 16ull, 17ull, 1000ull, 4097ull}) {
    for (std::uint64_t key : {0ull, 1ull, 0x1234567890ABCDEFull}) {
      INFO("n " << n << " key " << key);
      std::set<std::uint64_t> seen;
      for (std::uint64_t k = 0; k < n; ++k) {
        std::uint64_t v = sim::permute(k, n, key);
        CHECK(v < n);
        seen.insert(v);
      }
      CHECK(seen.size() == n);
    }
  }
  std::size_t moved = 0;
  for (std::uint64_t k = 0; k < 1000; ++k) moved += sim::permute(k, 1000, 1) != sim::permute(k, 1000, 2);
  CHECK(moved > 900);
}

TEST_CASE("quotient and remainder agree with / and %, with and without a power of two", "[sim][formula]") {
  std::vector<std::uint64_t> values{0, 1, 2, 3, 63, 64, 65, 127, 4096, 99999, std::uint64_t{1} << 40, ~std::uint64_t{0}, ~std::uint64_t{0} - 7};
  std::mt19937_64 rng(7);
  for (int k = 0; k < 200; ++k) values.push_back(rng());
  std::vector<std::uint64_t> divisors;
  for (std::uint64_t d = 1; d <= 130; ++d) divisors.push_back(d);
  for (unsigned bit = 8; bit < 64; bit += 5) divisors.insert(divisors.end(), {std::uint64_t{1} << bit, (std::uint64_t{1} << bit) + 1});
  for (std::uint64_t d : divisors)
    for (std::uint64_t x : values) {
      INFO(x << " over " << d);
      CHECK(sim::quotient(x, d) == x / d);
      CHECK(sim::remainder(x, d) == x % d);
    }
}

TEST_CASE("formulas: idiv and imod truncate as C does, for either sign and any divisor", "[sim][formula]") {
  sym::Context ctx;
  const sym::Symbol i = ctx.symbol("i", sym::SymbolKind::Iterator);
  const sym::Symbol d = ctx.symbol("d", sym::SymbolKind::Parameter);
  sim::FormulaCompiler compiler(ctx);
  sim::FormulaScope scope;
  scope.iteratorSlots["i"] = 0;
  for (std::int64_t divisor : {1, 2, 3, 4, 7, 8, 64, 100, -1, -4, -3, 0}) {
    scope.parameters["d"] = divisor;
    auto quotient = compiler.compile(sym::idiv(i, d), scope);
    auto remainder = compiler.compile(sym::imod(i, d), scope);
    REQUIRE(std::holds_alternative<sim::Formula>(quotient));
    REQUIRE(std::holds_alternative<sim::Formula>(remainder));
    for (std::int64_t value : {-130, -65, -64, -9, -8, -1, 0, 1, 7, 8, 9, 63, 64, 65, 1000}) {
      INFO(value << " over " << divisor);
      CHECK(std::get<sim::Formula>(quotient).evaluate(&value) == (divisor == 0 ? 0 : value / divisor));
      CHECK(std::get<sim::Formula>(remainder).evaluate(&value) == (divisor == 0 ? 0 : value % divisor));
    }
  }
}

TEST_CASE("formulas: fractional coefficients divide as C does, quotients of lost values are data", "[sim][formula]") {
  sym::Context ctx;
  const sym::Symbol len = ctx.symbol("len", sym::SymbolKind::Parameter);
  const sym::Symbol i = ctx.symbol("i", sym::SymbolKind::Iterator);
  const sym::Symbol lost = ctx.freshSymbol("unknown_step", sym::SymbolKind::Unknown);
  sim::FormulaCompiler compiler(ctx);
  sim::FormulaScope scope;
  scope.iteratorSlots["i"] = 0;

  // (len - 1) / 255 as GiNaC keeps it: len/255 - 1/255. With len = 300: 299 / 255 = 1, truncated;
  // with len = 511 the quotient is exact (2) and nothing is truncated.
  const sym::Expr trips = len / 255 - GiNaC::numeric(1, 255);
  scope.parameters["len"] = 300;
  auto folded = compiler.compile(trips, scope);
  REQUIRE(std::holds_alternative<sim::Formula>(folded));
  CHECK(std::get<sim::Formula>(folded).truncated());
  CHECK(std::get<sim::Formula>(folded).constantValue() == 1);
  scope.parameters["len"] = 511;
  auto exact = compiler.compile(trips, scope);
  CHECK_FALSE(std::get<sim::Formula>(exact).truncated());
  CHECK(std::get<sim::Formula>(exact).constantValue() == 2);
  scope.parameters["len"] = 300;

  // With an iterator: (3 i + 1) / 2 per iteration, truncated.
  auto perIteration = compiler.compile(i * GiNaC::numeric(3, 2) + GiNaC::numeric(1, 2), scope);
  REQUIRE(std::holds_alternative<sim::Formula>(perIteration));
  const sim::Formula& f = std::get<sim::Formula>(perIteration);
  CHECK(f.truncated());
  for (std::int64_t value : {0, 1, 2, 5}) {
    INFO("i = " << value);
    CHECK(f.evaluate(&value) == (3 * value + 1) / 2);
  }

  // Integers stay exact and untruncated; a quotient of an unknown is data, not an error.
  CHECK_FALSE(std::get<sim::Formula>(compiler.compile(8 * i + 16, scope)).truncated());
  auto data = compiler.compile(64 / lost, scope);
  REQUIRE(std::holds_alternative<sim::Formula>(data));
  CHECK(std::get<sim::Formula>(data).dependsOnData());
  // A fractional power of a known value is still an error that says so.
  auto root = compiler.compile(GiNaC::pow(len, GiNaC::numeric(1, 2)), scope);
  REQUIRE(std::holds_alternative<sim::FormulaError>(root));
  CHECK(std::get<sim::FormulaError>(root).message.find("is not an integer power") != std::string::npos);
}

TEST_CASE("a pointer bumped in a loop stepping by 255 simulates, its fractional offset noted", "[sim][formula]") {
  // LZ4's length encoding: the offset of *op++ is (len - len_2) / 255, which GiNaC keeps with
  // fractional coefficients; it used to stop simulate with "'-1/255' is not an integer".
  test::AnalyzeOptions options;
  options.entries = {"put_length"};
  trace::Trace t = test::analyzeSource(R"(
void put_length(unsigned char *op, unsigned len) {
  while (len >= 255) { *op++ = 255; len -= 255; }
  *op++ = (unsigned char)len;
}
)",
                                       options);
  sim::Program p = compile(t, sim::RegisterModel::O2, {{"len", 1000}});
  CHECK(std::any_of(p.notes.begin(), p.notes.end(), [](const std::string& n) { return n.find("fractional terms (the offset of *op++") == 0; }));
  const auto records = drain(p);
  REQUIRE(records.size() == 4);  // 1000, 745, 490 in the loop, then the last byte
  CHECK(records[1].address == records[0].address + 1);
  CHECK(records[2].address == records[0].address + 2);
}

TEST_CASE("indexes and loop bounds the program stored are read back, not drawn", "[sim][stored-values]") {
  test::AnalyzeOptions options;
  options.defines = {{"ROWS", "100"}};
  trace::Trace t = test::analyze({"examples/spmv-csr"}, options);
  for (sim::RegisterModel model : {sim::RegisterModel::O0, sim::RegisterModel::O2}) {
    sim::Program p = compile(t, model);
    CHECK(!p.approximate);
    sim::AddressStream stream(p, {});
    std::vector<sim::Record> records = drainStream(stream, 64);
    // x[col[j]] in the order spmv reads it: row r, nonzero b reads x[(r + 97 b) % ROWS].
    std::uint32_t xContainer = 0;
    for (const auto& c : t.containers)
      if (c.name == "x") xContainer = static_cast<std::uint32_t>(c.id);
    const std::uint64_t x = *stream.baseOf(xContainer);
    std::vector<std::uint64_t> expected, actual;
    for (int r = 0; r < 100; ++r)
      for (int b = 0; b < 5; ++b) expected.push_back(x + 8 * static_cast<std::uint64_t>((r + 97 * b) % 100));
    for (const auto& rec : records)
      if (t.events[rec.tag].text == "x[col[j]]") actual.push_back(rec.address);
    CHECK(actual == expected);
    CHECK(stream.storedValueUse().read == 500);
    CHECK(stream.storedValueUse().drawn == 0);
    CHECK(stream.storedValueUse().boundsRead == 100);  // every row's rowptr[r], rowptr[r + 1]
    CHECK(!stream.usedPolicy());
    // no seed in it: another seed gives the same stream
    sim::StreamOptions other;
    other.seed = 7;
    auto again = drain(p, other);
    REQUIRE(again.size() == records.size());
    for (std::size_t i = 0; i < again.size(); ++i) CHECK(again[i].address == records[i].address);
  }
}

TEST_CASE("writes of values nobody can know are not kept: their loops stay on the fast paths", "[sim][stored-values]") {
  // label[i] = best (a data-dependent argmin) stores nothing known, so sums[label[i]] is drawn
  // whether or not those writes are kept; perm[i] = 511 - i is kept, perm's reads follow it.
  trace::Trace t = test::analyzeSource(R"(
double pts[512], sums[8], out;
int label[512], perm[512];
int main(void) {
  for (int i = 0; i < 512; i++) {
    int best = 0;
    for (int c = 1; c < 8; c++)
      if (pts[i] * c < pts[i] * best) best = c;
    label[i] = best;
    perm[i] = 511 - i;
  }
  for (int i = 0; i < 512; i++) sums[label[i]] += pts[perm[i]];
  return 0;
}
)");
  sim::Program p = compile(t, sim::RegisterModel::O2);
  std::map<std::string, bool> kept;
  p.forEachOp([&](const sim::Op& op) {
    if (const auto* a = std::get_if<sim::AccessOp>(&op.value); a && a->write) kept[t.events[a->tag].text] = a->recordsValue;
  });
  CHECK(kept.at("label[i]") == false);
  CHECK(kept.at("perm[i]") == true);
  sim::AddressStream stream(p, {});
  drainStream(stream);
  CHECK(stream.storedValueUse().read == 512);   // pts[perm[i]]
  CHECK(stream.storedValueUse().drawn == 1024);  // sums[label[i]], read and written
}

TEST_CASE("stored values: prefix sums, vector stores, overwrites the analysis cannot follow, reallocation", "[sim][stored-values]") {
  trace::Trace t = test::analyzeSource(R"(
#include <stdlib.h>
int unknown(int);
double a[1000];
double out;
int main(void) {
  int *len = malloc(64 * sizeof(int));
  int *start = malloc(65 * sizeof(int));
  int *perm = malloc(512 * sizeof(int));
  for (int i = 0; i < 64; i++) len[i] = i % 3;
  start[0] = 0;
  for (int i = 0; i < 64; i++) start[i + 1] = start[i] + len[i];
  for (int i = 0; i < 512; i++) perm[i] = 511 - i;
  perm[7] = unknown(7);
  for (int r = 0; r < 64; r++)
    for (int j = start[r]; j < start[r + 1]; j++) out += a[j];
  for (int i = 0; i < 512; i++) out += a[perm[i]];
  free(perm);
  perm = malloc(512 * sizeof(int));
  out += a[perm[3]];
  return 0;
}
)");
  for (sim::RegisterModel model : {sim::RegisterModel::O0, sim::RegisterModel::O2}) {
    INFO((model == sim::RegisterModel::O0 ? "O0" : "O2"));
    sim::Program p = compile(t, model);
    sim::AddressStream stream(p, {});
    std::vector<sim::Record> records = drainStream(stream);
    std::uint32_t aContainer = 0;
    for (const auto& c : t.containers)
      if (c.name == "a") aContainer = static_cast<std::uint32_t>(c.id);
    const std::uint64_t a = *stream.baseOf(aContainer);
    // the row loop runs start[r] .. start[r + 1]: the prefix sums of i % 3 (63 rows: 63 reads of a[j], in order)
    std::vector<std::uint64_t> rows, gathers;
    for (const auto& rec : records) {
      if (t.events[rec.tag].text == "a[j]") rows.push_back(rec.address);
      if (t.events[rec.tag].text == "a[perm[i]]") gathers.push_back(rec.address);
    }
    REQUIRE(rows.size() == 63);
    for (std::size_t j = 0; j < rows.size(); ++j) CHECK(rows[j] == a + 8 * j);
    // perm[i] = 511 - i (vectorised at O2: each lane's value), except perm[7], which unknown() wrote
    REQUIRE(gathers.size() == 512);
    for (std::size_t i = 0; i < gathers.size(); ++i)
      if (i != 7) CHECK(gathers[i] == a + 8 * (511 - i));
    // perm[7] and the new block's perm[3] found nothing stored: drawn
    CHECK(stream.storedValueUse().drawn == 2);
    CHECK(stream.storedValueUse().boundsModelled == 0);
  }
}

TEST_CASE("a simulation whose indexes and bounds all came from stored values is not marked approximate", "[sim][stored-values][reports]") {
  auto exact = test::runCli("simulate examples/spmv-csr -D ROWS=200");
  REQUIRE(exact.exitCode == 0);
  CHECK(exact.out.find("approximate") == std::string::npos);
  CHECK(exact.out.find(" ~ ") == std::string::npos);  // no group marked as guessed
  CHECK(exact.out.find("read from the integers the program stored (exact): 1000 indexes, 200 loop entries' bounds") != std::string::npos);
  // tests/inputs/summaries/calls.c reads src[idx[i]] from a global array nothing writes: drawn, marked, said where
  auto drawn = test::runCli("simulate tests/inputs/summaries/calls.c");
  REQUIRE(drawn.exitCode == 0);
  CHECK(drawn.out.find("(approximate: see notes)") != std::string::npos);
  CHECK(drawn.out.find(" ~ ") != std::string::npos);
  CHECK(drawn.out.find("src[idx[i]] at tests/inputs/summaries/calls.c:13:40) found no integer the program stored in 100 reads") != std::string::npos);
}

TEST_CASE("the stored-value memory: an array for aligned slots of known containers, a map for the rest", "[sim][stored-values]") {
  sim::ValueMemory m(3);
  m.reset(0, 400);  // 100 ints
  m.reset(1, 0);    // size unknown: the map
  CHECK(!m.load(0, 8));
  m.forget(0, 8);  // nothing known yet: no array made, nothing changes
  m.store(0, 8, -5);
  m.store(0, 396, 7);
  m.store(0, 2, 9);    // not 4-byte aligned: the map
  m.store(0, 400, 1);  // past the end: the map
  m.store(1, 1 << 20, 3);
  CHECK(m.load(0, 8) == std::optional<std::int64_t>(-5));
  CHECK(m.load(0, 396) == std::optional<std::int64_t>(7));
  CHECK(m.load(0, 2) == std::optional<std::int64_t>(9));
  CHECK(m.load(0, 400) == std::optional<std::int64_t>(1));
  CHECK(!m.load(0, 4));
  CHECK(m.load(1, 1 << 20) == std::optional<std::int64_t>(3));
  CHECK(!m.load(2, 0));
  CHECK(!m.load(7, 0));  // no such container
  m.forget(0, 8);
  CHECK(!m.load(0, 8));
  CHECK(m.load(0, 396) == std::optional<std::int64_t>(7));
  m.clear(0);  // a write nobody can place
  CHECK(!m.load(0, 396));
  CHECK(!m.load(0, 2));
  m.store(0, 0, 4);
  CHECK(m.load(0, 0) == std::optional<std::int64_t>(4));
  m.reset(0, 40);  // reallocated smaller: nothing known, offsets past 40 go to the map
  CHECK(!m.load(0, 0));
  m.store(0, 396, 8);
  CHECK(m.load(0, 396) == std::optional<std::int64_t>(8));
}

TEST_CASE("an Op keeps its loop on the heap: copied deeply, moved in place, small", "[sim][program]") {
  sim::LoopOp loop;
  loop.slot = 3;
  loop.body.push_back(sim::Op{sim::AccessOp{}});
  sim::Op op{std::move(loop)};
  REQUIRE(op.loop() != nullptr);
  CHECK(op.asLoop().slot == 3);

  sim::Op copy = op;  // a copy is a loop of its own
  copy.asLoop().slot = 4;
  copy.asLoop().body.clear();
  CHECK(op.asLoop().slot == 3);
  CHECK(op.asLoop().body.size() == 1);

  const sim::LoopOp* where = op.loop();
  std::vector<sim::Op> block;
  block.push_back(std::move(op));
  for (int i = 0; i < 100; ++i) block.push_back(sim::Op{sim::AccessOp{}});  // the block reallocates
  CHECK(block.front().loop() == where);  // the loop did not move

  const sim::Op access{sim::AccessOp{}};
  CHECK(access.loop() == nullptr);
  CHECK_THROWS_AS(access.asLoop(), std::bad_variant_access);
  // Real programs have an Op per access: an Op is the size of an access, not of a loop.
  CHECK(sizeof(sim::Op) < sizeof(sim::AccessOp) + 16);
  CHECK(sizeof(sim::Op) < sizeof(sim::LoopOp) / 2);
}
