// Coverage at a glance: exact vs approximate source accesses and the reasons, per function.
#include "reports/analysis.hpp"
#include "reports/coverage.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>

using namespace cats;

namespace {

bool hasReason(const report::CoverageCounts& c, const std::string& prefix, std::size_t accesses) {
  return std::any_of(c.reasons.begin(), c.reasons.end(),
                     [&](const report::CoverageReason& r) { return r.text.rfind(prefix, 0) == 0 && r.accesses == accesses; });
}

}  // namespace

TEST_CASE("a counted kernel is exact", "[coverage]") {
  trace::Trace t = test::analyzeSource(R"(
    void scale(int n, double *restrict y, const double *restrict x) { for (int i = 0; i < n; i++) y[i] = 2 * x[i]; })");
  report::Coverage c = report::coverage(t);
  CHECK(c.program.accesses == 2);
  CHECK(c.program.exact == 2);
  CHECK(c.program.approximate == 0);
  CHECK(c.program.exactShare() == 1.0);
  CHECK(c.program.reasons.empty());
  CHECK(c.byFunction.at("scale").exact == 2);
}

TEST_CASE("a gather is exact but data-dependent", "[coverage]") {
  trace::Trace t = test::analyzeSource(R"(
    void gather(int n, double *y, const double *x, const int *idx) { for (int i = 0; i < n; i++) y[i] = x[idx[i]]; })");
  report::Coverage c = report::coverage(t);
  CHECK(c.program.accesses == 3);
  CHECK(c.program.exact == 3);
  CHECK(c.program.dataDependent == 1);
}

TEST_CASE("approximate accesses name what the analysis could not follow", "[coverage]") {
  trace::Trace t = test::analyzeSource(R"(
    #include <string.h>
    int more(void);
    void f(int n, double *a, const char *s) {
      int k = (int)strlen(s);
      a[k] = 1;
      for (int i = 0; i < n; i++) {
        if (i == 3) break;
        a[i] = 2;
      }
    })");
  report::Coverage c = report::coverage(t);
  const report::CoverageCounts& f = c.byFunction.at("f");
  // a[k], a[i], and strlen's reads of s, whose length is unknown
  CHECK(f.accesses >= 2);
  CHECK(f.approximate == f.accesses);
  CHECK(f.exact == 0);
  CHECK(hasReason(f, "loop with an early exit", 1));
  // the strlen result is an unknown whose note says where it came from
  CHECK(std::any_of(f.reasons.begin(), f.reasons.end(), [](const report::CoverageReason& r) { return r.accesses == 1 && r.text != "loop with an early exit: trip count is an upper bound"; }));
  for (const auto& r : f.reasons) CHECK(r.text.find(".c:") == std::string::npos);  // locations are stripped for grouping
}

TEST_CASE("an opaque loop's accesses count under its reason, once per source access", "[coverage]") {
  trace::Trace t = test::analyzeSource(R"(
    int more(int);
    void body(double *a, int i) { a[i] = 0; }
    void f(double *a, double *b) {
      int i = 0;
      while (more(i)) { b[0] += 1; i = i * 2 + 1; }
      body(a, 1);
      body(a, 2);
    })");
  report::Coverage c = report::coverage(t);
  const report::CoverageCounts& f = c.byFunction.at("f");
  CHECK(f.accesses == 2);  // b[0] read and write
  // whatever loop recognition can do, i = i * 2 + 1 is not affine: the loop's trip count stays unknown
  CHECK(f.approximate == 2);
  CHECK(hasReason(f, "trip count unknown", 2));
  // a[i] in body is one source access however many call sites reach it
  CHECK(c.byFunction.at("body").accesses == 1);
  CHECK(c.byFunction.at("body").exact == 1);
  CHECK(c.program.accesses == 3);
}

TEST_CASE("coverage appears in the text and JSON analysis reports", "[coverage][reports]") {
  // A list walk: its accesses are approximate (the chase and the while loop's trip count).
  trace::Trace t = test::analyze({"bench/fidelity-corpus/linked_array.c"});
  std::string text = report::analysisText(t);
  CHECK(text.find("Coverage (distinct source accesses") != std::string::npos);
  CHECK(text.find("top reasons for approximate accesses") != std::string::npos);
  auto json = nlohmann::json::parse(report::analysisJson(t));
  const auto& cov = json.at("coverage");
  CHECK(cov.at("accesses").get<int>() == cov.at("exact").get<int>() + cov.at("approximate").get<int>());
  CHECK(cov.at("by_function").contains("traverse"));
  CHECK(cov.at("by_function").at("traverse").at("exact_share").get<double>() == 0.0);
  REQUIRE(!cov.at("reasons").empty());
  CHECK(cov.at("reasons")[0].at("example").get<std::string>().find("fidelity-corpus/linked_array.c:") != std::string::npos);
}

TEST_CASE("a counter bumped in a counted inner loop is followed: CSR assembly is exact", "[coverage][reports]") {
  // nnz++ in the b loop (5 iterations) is an induction of the r loop by 5: col[nnz] is col + 20*r + 4*b.
  trace::Trace t = test::analyze({"examples/spmv-csr"});
  auto json = nlohmann::json::parse(report::analysisJson(t));
  const auto& cov = json.at("coverage");
  CHECK(cov.at("by_function").at("main").at("exact_share").get<double>() == 1.0);
  CHECK(cov.at("by_function").at("spmv").at("exact_share").get<double>() == 1.0);
  CHECK(cov.at("reasons").empty());
  CHECK(report::analysisText(t).find("approximate") == std::string::npos);
}
