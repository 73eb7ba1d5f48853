// `cats-static review`'s `fusion` findings (issue 11): two passes over the same large arrays,
// the prediction checked against simulating the loops fused by hand, no finding on the fused
// kernel or when the arrays fit the first level, an illegal fusion reported and not
// recommended, loops over different ranges not evaluated, and the fused trace itself.
#include "tracer/fusion.hpp"
#include "review_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

using namespace cats;
using test::loopScopes;
using test::checkAgainstFix;
using test::findingOf;
using test::parsed;

namespace {

/* The fusion findings of `review ARGS --format json`. */
std::vector<nlohmann::json> fusionFindings(const std::string& args) {
  const nlohmann::json review = parsed(test::runCli("review " + args + " --format json"));
  std::vector<nlohmann::json> out;
  for (const auto& f : review.at("findings"))
    if (f.at("kind") == "fusion") out.push_back(f);
  return out;
}

bool has(const nlohmann::json& f, const std::string& field, const std::string& text) {
  return f.at(field).get<std::string>().find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("review: fusing two passes over arrays larger than LL predicts what the loop fused by hand gives", "[review][fusion]") {
  checkAgainstFix("examples/review/two-passes.c", "examples/review/two-passes-fused.c", "two_passes", 12, "", "fusion");
  nlohmann::json f = findingOf("fusion", "examples/review/two-passes.c");
  // a and b, 200,000 doubles each, are shared; c is only written by the second loop.
  CHECK(has(f, "message", "loops i (line 12) and i (line 14)"));
  CHECK(has(f, "message", "'a', 'b' (3200000 bytes, more than the 262144 bytes of LL"));
  CHECK(has(f, "recommendation", "lines 12 and 14"));
}

TEST_CASE("review: fusion with the arrays larger than D1 but inside LL, sized with -D", "[review][fusion]") {
  // N = 3000: 48,000 bytes of a and b overflow a 32 KiB D1; the second pass finds them in LL.
  checkAgainstFix("examples/review/two-passes.c", "examples/review/two-passes-fused.c", "two_passes", 12, "-D N=3000", "fusion");
  nlohmann::json f = findingOf("fusion", "examples/review/two-passes.c -D N=3000");
  CHECK(has(f, "message", "(48000 bytes, more than the 32768 bytes of D1: the second loop reads them from LL again)"));
}

TEST_CASE("review: no fusion finding on the fused kernel, a dot product, or arrays that fit D1", "[review][fusion]") {
  CHECK(fusionFindings("examples/review/two-passes-fused.c").empty());
  CHECK(fusionFindings("examples/review/dot.c").empty());
  // N = 1000: a and b are 16,000 bytes: the second loop hits in D1 and fusion has nothing to save.
  CHECK(fusionFindings("examples/review/two-passes.c -D N=1000").empty());
}

TEST_CASE("review: a fusion that would read b[i + 1] before it is written is reported illegal and not recommended", "[review][fusion]") {
  nlohmann::json f = findingOf("fusion", "examples/review/two-passes-shifted.c");
  CHECK(f.at("function") == "two_passes");
  CHECK(f.at("line") == 12);
  CHECK(f.at("legal") == false);
  CHECK(f.at("recommendation") == "");
  CHECK(has(f, "message", "the fusion is illegal: flow dependence on b would be reversed"));
  auto text = test::runCli("review examples/review/two-passes-shifted.c");
  CHECK(text.out.find("legal: no") != std::string::npos);
  CHECK(text.out.find("recommendation: none") != std::string::npos);
}

TEST_CASE("review: loops over different ranges are reported not evaluated", "[review][fusion]") {
  const std::string file = test::writeFile(test::tempDir(), "ranges.c",
                                           "#include <stdlib.h>\n"
                                           "void passes(const double *a, double *b, double *c) {\n"
                                           "  for (int i = 0; i < 100000; i++)\n"
                                           "    b[i] = a[i] * 2.0;\n"
                                           "  for (int i = 1; i < 100000; i++)\n"
                                           "    c[i] = b[i] + a[i];\n"
                                           "}\n"
                                           "int main(void) {\n"
                                           "  double *a = (double *)calloc(100000, sizeof(double));\n"
                                           "  double *b = (double *)malloc(100000 * sizeof(double));\n"
                                           "  double *c = (double *)malloc(100000 * sizeof(double));\n"
                                           "  passes(a, b, c);\n"
                                           "  free(a);\n"
                                           "  free(b);\n"
                                           "  free(c);\n"
                                           "  return 0;\n"
                                           "}\n");
  std::vector<nlohmann::json> found = fusionFindings(file);
  REQUIRE(found.size() == 1);
  CHECK(found.front().at("line") == 3);
  CHECK(found.front().at("predicted").is_null());
  CHECK(found.front().at("recommendation") == "");
  CHECK(has(found.front(), "message", "not evaluated: the loops run over different ranges"));
}

TEST_CASE("review: the fused trace runs the second body after the first in one loop, in the first loop's iterator", "[review][fusion]") {
  trace::Trace t = test::analyzeSource(
      "double a[64], b[64], c[64][64];\n"
      "int main(void) {\n"
      "  for (int i = 0; i < 64; i++)\n"
      "    b[i] = a[i];\n"
      "  for (int k = 0; k < 64; k++)\n"
      "    for (int j = 0; j < k; j++)\n"
      "      c[k][j] = b[k] + a[j];\n"
      "  return 0;\n"
      "}\n");
  auto loops = loopScopes(t);
  REQUIRE(loops.size() == 3);
  const std::size_t first = loops[0], second = loops[1], nested = loops[2];
  std::string why;
  auto f = trace::fused(t, first, second, &why);
  INFO(why);
  REQUIRE(f);
  // The second loop is gone; the nested loop (renumbered one down) now sits in the first.
  REQUIRE(f->scopes.size() == t.scopes.size() - 1);
  CHECK(loopScopes(*f) == std::vector<std::size_t>{first, nested - 1});
  const trace::Scope& moved = f->scopes[nested - 1];
  CHECK(moved.parent == std::optional<std::size_t>(first));
  CHECK(moved.iterator == "j");
  CHECK(sym::print(moved.bound) == "i");
  // Same events in the same order; the second body's in the first loop (or below it), in i.
  REQUIRE(f->events.size() == t.events.size());
  for (std::size_t e = 0; e < t.events.size(); ++e) {
    const trace::Event& before = t.events[e];
    const trace::Event& after = f->events[e];
    INFO(before.text);
    CHECK(after.text == before.text);
    if (t.encloses(second, before.scope)) {
      CHECK(f->encloses(first, after.scope));
      CHECK(sym::print(after.offset).find('k') == std::string::npos);
    } else {
      CHECK(sym::print(after.offset) == sym::print(before.offset));
    }
  }
  bool sawB = false;
  for (const trace::Event& e : f->events)
    if (e.text == "b[k]") {
      sawB = true;
      CHECK(e.scope == nested - 1);
      CHECK(sym::print(e.offset) == "8*i");
      REQUIRE(e.subscripts.size() == 1);
      CHECK(sym::print(e.subscripts.front()) == "i");
    }
  CHECK(sawB);
}

TEST_CASE("review: the fused trace is refused when something between the loops or a carried value would be reordered", "[review][fusion]") {
  trace::Trace between = test::analyzeSource(
      "double a[64], b[64];\n"
      "int main(void) {\n"
      "  for (int i = 0; i < 64; i++)\n"
      "    b[i] = a[i];\n"
      "  a[0] = 1.0;\n"
      "  for (int i = 0; i < 64; i++)\n"
      "    a[i] += b[i];\n"
      "  return 0;\n"
      "}\n");
  auto loops = loopScopes(between);
  REQUIRE(loops.size() == 2);
  std::string why;
  CHECK(!trace::fused(between, loops[0], loops[1], &why));
  CHECK(why.find("'a[0]' (line 5) between the loops") != std::string::npos);

  trace::Trace sum = test::analyzeSource(
      "double a[64], b[64];\n"
      "int main(void) {\n"
      "  double s = 0.0;\n"
      "  for (int i = 0; i < 64; i++)\n"
      "    s += a[i];\n"
      "  for (int i = 0; i < 64; i++)\n"
      "    b[i] = a[i] / s;\n"
      "  return 0;\n"
      "}\n");
  loops = loopScopes(sum);
  REQUIRE(loops.size() == 2);
  CHECK(!trace::fused(sum, loops[0], loops[1], &why));
  CHECK(why.find("carries 's'") != std::string::npos);

  trace::Trace ranges = test::analyzeSource(
      "double a[64], b[64];\n"
      "int main(void) {\n"
      "  for (int i = 0; i < 64; i++)\n"
      "    b[i] = a[i];\n"
      "  for (int i = 0; i < 32; i++)\n"
      "    a[i] += b[i];\n"
      "  return 0;\n"
      "}\n");
  loops = loopScopes(ranges);
  REQUIRE(loops.size() == 2);
  CHECK(!trace::fused(ranges, loops[0], loops[1], &why));
  CHECK(why == "the loops run over different ranges");
}
