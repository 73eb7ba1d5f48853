// `cats-static review` (issue 11): interchange findings on kernels with a known fix, the
// prediction checked against simulating the fix written by hand, no finding on code that is
// already good, an illegal interchange reported and not recommended, and the three formats.
#include "reports/review.hpp"
#include "tracer/interchange.hpp"
#include "tracer/padding.hpp"
#include "review_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <set>

using namespace cats;
using test::loopScopes;
using test::checkAgainstFix;
using test::findingOf;
using test::onlyFinding;
using test::parsed;
using test::simulatedD1Misses;


TEST_CASE("review: interchange on the column sums predicts what the rows-first variant gives", "[review]") {
  checkAgainstFix("examples/review/column-sums.c", "examples/review/column-sums-fixed.c", "column_sums", 12, "-D N=1000");
}

TEST_CASE("review: interchange on the ijk matrix multiply predicts what ikj gives", "[review]") {
  // A D1 of 8 KiB: a column of B (200 lines) no longer fits, as at N = 600 with 32 KiB, at an
  // eighth of the accesses. With 32 KiB at N = 300 the column stays in D1 and ijk loses nothing.
  checkAgainstFix("examples/review/matmul-ijk.c", "examples/review/matmul-ikj-fixed.c", "multiply", 14,
                  "-D N=200 --D1 8192,8,64 --LL 262144,8,64");
}

TEST_CASE("review: padding the rows of a 256 x 256 matrix walked by columns predicts what the padded array gives", "[review]") {
  checkAgainstFix("examples/review/column-sums-2d.c", "examples/review/column-sums-2d-padded.c", "column_sums", 19, "", "padding");
  nlohmann::json f = findingOf("padding", "examples/review/column-sums-2d.c");
  CHECK(f.at("recommendation").get<std::string>().find("8 more elements") != std::string::npos);
  // Padded, the column's lines spread over every set: nothing left to find, not even the interchange (it would gain nothing).
  CHECK(parsed(test::runCli("review examples/review/column-sums-2d-padded.c --format json")).at("findings").empty());
}

TEST_CASE("review: no finding when the large stride costs nothing (a column of B stays in D1)", "[review]") {
  // Only the interchange: B (80 KB) does not fit D1, and tiling, a kind of its own, saves misses here (and C[i][j] stored
  // every k through a pointer parameter is a hoisting finding: tests/review_hoisting_test.cpp).
  const nlohmann::json review = parsed(test::runCli("review examples/review/matmul-ijk.c -D N=100 --format json"));
  for (const auto& f : review.at("findings")) CHECK(f.at("kind") != "interchange");
}

TEST_CASE("review: a streaming dot product and the fixed kernels get no finding", "[review]") {
  for (const char* file : {"examples/review/dot.c", "examples/review/column-sums-fixed.c"}) {
    INFO(file);
    nlohmann::json j = parsed(test::runCli(std::string("review ") + file + " --format json"));
    CHECK(j.at("findings").empty());
    auto text = test::runCli(std::string("review ") + file);
    CHECK(text.exitCode == 0);
    CHECK(text.out == "review: no findings\n");
  }
}

TEST_CASE("review: an interchange the dependences forbid is reported illegal and not recommended", "[review]") {
  nlohmann::json f = findingOf("interchange", "examples/review/wavefront.c -D N=1000");
  CHECK(f.at("function") == "wavefront");
  CHECK(f.at("line") == 14);
  CHECK(f.at("legal") == false);
  CHECK(f.at("recommendation") == "");
  CHECK(f.at("message").get<std::string>().find("illegal") != std::string::npos);
  auto text = test::runCli("review examples/review/wavefront.c -D N=1000");
  CHECK(text.out.find("legal: no") != std::string::npos);
  CHECK(text.out.find("recommendation: none") != std::string::npos);
}

TEST_CASE("review: the JSON has exactly the contract's fields", "[review]") {
  nlohmann::json j = parsed(test::runCli("review examples/review/column-sums.c -D N=500 --format json"));
  std::set<std::string> top;
  for (const auto& [key, value] : j.items()) top.insert(key);
  CHECK(top == std::set<std::string>{"format", "version", "findings"});
  CHECK(j.at("format") == "cats-static-review");
  CHECK(j.at("version") == 1);
  REQUIRE(j.at("findings").size() == 2);  // the interchange, and sums[j] stored every i (hoisting)
  std::set<std::string> fields;
  for (const auto& [key, value] : j.at("findings").at(0).items()) fields.insert(key);
  CHECK(fields == std::set<std::string>{"kind", "function", "file", "line", "message", "recommendation", "legal", "predicted"});
  std::set<std::string> predicted;
  for (const auto& [key, value] : j.at("findings").at(0).at("predicted").items()) predicted.insert(key);
  CHECK(predicted == std::set<std::string>{"level", "before", "after"});
}

namespace {

/* The SARIF log of `review FILE`, checked for the properties SARIF 2.1.0 requires and the
   ones its results must carry; returns the level of the one result of rule "kind". */
std::string checkedSarifLevel(const std::string& args, const std::string& kind = "interchange") {
  nlohmann::json s = parsed(test::runCli("review " + args + " --format sarif"));
  CHECK(s.at("version") == "2.1.0");
  CHECK(s.at("$schema").get<std::string>().find("sarif-2.1.0") != std::string::npos);
  REQUIRE(s.at("runs").size() == 1);
  const auto& run = s.at("runs").at(0);
  const auto& driver = run.at("tool").at("driver");
  CHECK(driver.at("name") == "cats-static");
  std::set<std::string> ruleIds;
  for (const auto& rule : driver.at("rules")) {
    ruleIds.insert(rule.at("id").get<std::string>());
    CHECK(!rule.at("shortDescription").at("text").get<std::string>().empty());
  }
  std::vector<nlohmann::json> results;
  for (const auto& r : run.at("results"))
    if (r.at("ruleId") == kind) results.push_back(r);
  REQUIRE(results.size() == 1);
  const auto& r = results.at(0);
  CHECK(ruleIds.count(r.at("ruleId").get<std::string>()) == 1);
  CHECK(driver.at("rules").at(r.at("ruleIndex").get<std::size_t>()).at("id") == r.at("ruleId"));
  CHECK(!r.at("message").at("text").get<std::string>().empty());
  const auto& physical = r.at("locations").at(0).at("physicalLocation");
  CHECK(physical.at("artifactLocation").at("uri").get<std::string>().rfind("examples/review/", 0) == 0);
  CHECK(physical.at("region").at("startLine").get<int>() >= 1);
  return r.at("level").get<std::string>();
}

}  // namespace

TEST_CASE("review: SARIF 2.1.0 has the properties the schema requires", "[review]") {
  // A recommended interchange warns, an illegal one is a note.
  CHECK(checkedSarifLevel("examples/review/column-sums.c -D N=1000") == "warning");
  CHECK(checkedSarifLevel("examples/review/wavefront.c -D N=1000") == "note");
  nlohmann::json none = parsed(test::runCli("review examples/review/dot.c --format sarif"));
  CHECK(none.at("runs").at(0).at("results").empty());
  CHECK(none.at("runs").at(0).at("tool").at("driver").at("rules").empty());
}

TEST_CASE("review: --min-gain drops findings that save less", "[review]") {
  nlohmann::json all = parsed(test::runCli("review examples/review/column-sums.c -D N=500 --format json"));
  REQUIRE(all.at("findings").size() == 2);
  CHECK(parsed(test::runCli("review examples/review/column-sums.c -D N=500 --format json --min-gain 100")).at("findings").empty());
}

TEST_CASE("review: output is the same every run", "[review]") {
  auto a = test::runCli("review examples/review/wavefront.c -D N=500 --format sarif");
  auto b = test::runCli("review examples/review/wavefront.c -D N=500 --format sarif");
  CHECK(a.exitCode == 0);
  CHECK(a.out == b.out);
}

TEST_CASE("review: bad input gives exit code 1 or 2 with a message", "[review]") {
  auto missing = test::runCli("review examples/review/no-such-file.c");
  CHECK(missing.exitCode == 2);
  CHECK(missing.err.find("no-such-file.c") != std::string::npos);
  const std::string broken = test::writeFile(test::tempDir(), "broken.c", "int main(void) { int x = ; return x; }\n");
  auto analysis = test::runCli("review " + broken);
  CHECK(analysis.exitCode == 1);
  CHECK(analysis.err.find("expected expression") != std::string::npos);
  auto format = test::runCli("review examples/review/dot.c --format xml");
  CHECK(format.exitCode == 2);
  CHECK(format.err.find("--format") != std::string::npos);
  auto gain = test::runCli("review examples/review/dot.c --min-gain 150");
  CHECK(gain.exitCode == 2);
  CHECK(gain.err.find("--min-gain") != std::string::npos);
  auto twoCaches = test::runCli("review examples/review/dot.c --D1 32768,8,64 --D1 16384,4,64");
  CHECK(twoCaches.exitCode == 2);
  CHECK(twoCaches.err.find("one cache configuration") != std::string::npos);
}

TEST_CASE("review: findings sort by predicted gain, the unevaluated last, and --min-gain keeps them", "[review]") {
  report::Finding small{"interchange", "f", "a.c", 3, "m", "r", true, {{"D1", 100, 90}}};
  report::Finding large{"interchange", "g", "b.c", 9, "m", "r", true, {{"D1", 100, 10}}};
  report::Finding unevaluated{"interchange", "h", "a.c", 1, "m", "", std::nullopt, {}};
  std::vector<report::Finding> findings{unevaluated, small, large};
  report::sortFindings(findings);
  CHECK(findings.at(0).function == "g");
  CHECK(findings.at(1).function == "f");
  CHECK(findings.at(2).function == "h");
  auto kept = report::withMinimumGain(findings, 50.0);
  REQUIRE(kept.size() == 2);
  CHECK(kept.at(0).function == "g");
  CHECK(kept.at(1).function == "h");
}

TEST_CASE("review: the interchanged trace swaps the loops' descriptions and keeps the tree and the events", "[review]") {
  trace::Trace t = test::analyzeSource(
      "double a[64][64], s[64];\n"
      "int main(void) {\n"
      "  for (int j = 0; j < 64; j++)\n"
      "    for (int i = 2; i < 60; i += 2)\n"
      "      s[j] += a[i][j];\n"
      "  return 0;\n"
      "}\n");
  auto loops = loopScopes(t);
  REQUIRE(loops.size() == 2);
  std::string why;
  auto swapped = trace::interchanged(t, loops[0], loops[1], &why);
  INFO(why);
  REQUIRE(swapped);
  const auto& outer = swapped->scopes[loops[0]];
  const auto& inner = swapped->scopes[loops[1]];
  CHECK(outer.iterator == t.scopes[loops[1]].iterator);
  CHECK(inner.iterator == t.scopes[loops[0]].iterator);
  CHECK(sym::print(outer.start) == "2");
  CHECK(sym::print(outer.step) == "2");
  CHECK(sym::print(inner.start) == "0");
  CHECK(outer.loc.line == 4);
  CHECK(inner.loc.line == 3);
  CHECK(outer.id == loops[0]);
  CHECK(inner.parent == std::optional<std::size_t>(loops[0]));
  CHECK(outer.parent == t.scopes[loops[0]].parent);
  REQUIRE(swapped->events.size() == t.events.size());
  for (std::size_t e = 0; e < t.events.size(); ++e) {
    CHECK(swapped->events[e].scope == t.events[e].scope);
    CHECK(sym::print(swapped->events[e].offset) == sym::print(t.events[e].offset));
  }
}

TEST_CASE("review: a triangular nest is reported not evaluated, with no prediction and no recommendation", "[review]") {
  const std::string file = test::writeFile(test::tempDir(), "lower.c",
                                           "#include <stdlib.h>\n"
                                           "void lower(const double *a, double *s) {\n"
                                           "  for (int j = 0; j < 500; j++)\n"
                                           "    for (int i = j; i < 500; i++)\n"
                                           "      s[j] += a[i * 500 + j];\n"
                                           "}\n"
                                           "int main(void) {\n"
                                           "  double *a = (double *)malloc(500 * 500 * sizeof(double));\n"
                                           "  double *s = (double *)calloc(500, sizeof(double));\n"
                                           "  lower(a, s);\n"
                                           "  free(a);\n"
                                           "  free(s);\n"
                                           "  return 0;\n"
                                           "}\n");
  nlohmann::json f = findingOf("interchange", file);
  CHECK(f.at("line") == 4);
  CHECK(f.at("predicted").is_null());
  CHECK(f.at("recommendation") == "");
  CHECK(f.at("message").get<std::string>().find("not evaluated") != std::string::npos);
  trace::Trace t = test::analyze({file});
  auto loops = loopScopes(t);
  REQUIRE(loops.size() == 2);
  std::string why;
  CHECK(!trace::interchanged(t, loops[0], loops[1], &why));
  CHECK(why.find("depend on another loop") != std::string::npos);
}

TEST_CASE("review: the padded trace re-addresses every access from its subscripts, or says why it cannot", "[review]") {
  trace::Trace t = test::analyzeSource(
      "struct p { double x, y; };\n"
      "struct p g[4][16];\n"
      "double m[8][32];\n"
      "void set(double *r) { r[5] = 2.0; }\n"
      "int main(void) {\n"
      "  for (int i = 0; i < 4; i++) g[i][3].y = 1.0;\n"
      "  set(&m[1][0]);\n"
      "  return 0;\n"
      "}\n");
  auto containerNamed = [&t](const std::string& name) {
    for (const auto& c : t.containers)
      if (c.name == name) return c.id;
    FAIL("no container " << name);
    return std::size_t{0};
  };
  const std::size_t g = containerNamed("g");
  auto padded = trace::padded(t, g, 4);
  REQUIRE(padded);
  CHECK(sym::print(padded->containers[g].sizeBytes) == "1280");  // 4 rows of 20 elements of 16 bytes
  bool seen = false;
  for (const auto& e : padded->events) {
    if (e.kind != trace::EventKind::Access || e.container != g) continue;
    seen = true;
    CHECK(sym::print(e.offset) == "320*i + 56");  // row 320 bytes, element 3 at 48, field y at 8
  }
  CHECK(seen);
  std::string why;
  CHECK(!trace::padded(t, containerNamed("m"), 8, &why));
  CHECK(why.find("without its subscripts") != std::string::npos);
}
