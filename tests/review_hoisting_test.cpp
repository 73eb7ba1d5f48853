// `cats-static review`, hoisting (issue 11): an access that does not move in its loop but is
// stored or loaded every iteration because a pointer parameter may alias it; the restrict
// variant checked against the restrict written by hand, no finding where restrict is already
// written or nothing aliases, an unprovable promise not recommended, and the trace change.
#include "tracer/expand.hpp"
#include "tracer/hoisting.hpp"
#include "review_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace cats;
using test::findingOf;
using test::parsed;
using test::simulatedD1Misses;

namespace {

/* `simulate ARGS`'s first-level accesses (reads and writes). */
std::uint64_t simulatedD1Accesses(const std::string& args) {
  nlohmann::json j = parsed(test::runCli("simulate " + args + " --format json"));
  const auto& d1 = j.at("totals").at("D1");
  return d1.at("reads").get<std::uint64_t>() + d1.at("writes").get<std::uint64_t>();
}

std::size_t hoistingFindings(const std::string& args) {
  const nlohmann::json j = parsed(test::runCli("review " + args + " --format json"));
  std::size_t n = 0;
  for (const auto& f : j.at("findings")) n += f.at("kind") == "hoisting";
  return n;
}

bool within10Percent(std::uint64_t predicted, std::uint64_t handFixed) {
  return std::llabs(static_cast<long long>(predicted) - static_cast<long long>(handFixed)) * 10 <= static_cast<long long>(handFixed);
}

}  // namespace

TEST_CASE("review: y[i] stored every j through a pointer parameter is a hoisting finding that restrict written by hand confirms",
          "[review][hoisting]") {
  const std::string file = "examples/review/row-update.c", fixed = "examples/review/row-update-restrict.c";
  nlohmann::json f = findingOf("hoisting", file);
  CHECK(f.at("function") == "row_update");
  CHECK(f.at("file") == file);
  CHECK(f.at("line") == 15);
  CHECK(f.at("legal") == true);  // main passes three distinct arrays
  const std::string recommendation = f.at("recommendation");
  CHECK(recommendation.find("`double *restrict y`") != std::string::npos);
  const std::string message = f.at("message");
  CHECK(message.find("promise the programmer must check") != std::string::npos);
  // The misses: as simulated before, and as the hand-written restrict gives after (within 10 %).
  const auto& p = f.at("predicted");
  CHECK(p.at("level") == "D1");
  CHECK(p.at("before").get<std::uint64_t>() == simulatedD1Misses(file));
  const std::uint64_t after = p.at("after").get<std::uint64_t>(), handFixed = simulatedD1Misses(fixed);
  INFO("predicted " << after << ", hand-fixed " << handFixed);
  CHECK(within10Percent(after, handFixed));
  // The accesses (where the gain is): the message names both counts, the hand fix has the "after".
  const std::uint64_t accessesBefore = simulatedD1Accesses(file), accessesAfter = simulatedD1Accesses(fixed);
  CHECK(accessesAfter < accessesBefore);
  CHECK(message.find(std::to_string(accessesBefore)) != std::string::npos);
  CHECK(message.find(std::to_string(accessesAfter)) != std::string::npos);  // exact: the same events in the same order
  const std::string text = test::runCli("review " + file).out;
  const std::string line = text.substr(text.find("  D1  accesses"), text.find('\n', text.find("  D1  accesses")) - text.find("  D1  accesses"));
  INFO(line);
  CHECK(line.find(std::to_string(accessesBefore) + " ->") != std::string::npos);
  CHECK(line.find(std::to_string(accessesAfter) + " (-") != std::string::npos);
}

TEST_CASE("review: --min-gain applies to the larger of the D1 access and miss gains for hoisting", "[review][hoisting]") {
  // row-update saves 28.5 % of the D1 accesses and no miss.
  CHECK(hoistingFindings("examples/review/row-update.c --min-gain 25") == 1);
  CHECK(hoistingFindings("examples/review/row-update.c --min-gain 30") == 0);
}

TEST_CASE("review: no hoisting finding where restrict is written or nothing may alias", "[review][hoisting]") {
  for (const char* file : {"examples/review/row-update-restrict.c", "examples/review/dot.c", "examples/review/column-sums-fixed.c"}) {
    INFO(file);
    CHECK(hoistingFindings(file) == 0);
  }
  // Inlined into main, the arrays are main's own mallocs: the compiler tells them apart.
  const std::string inlined = test::writeFile(test::tempDir(), "inlined.c",
                                              "#include <stdlib.h>\n"
                                              "static void f(double *y, const double *a, int n) {\n"
                                              "  for (int i = 0; i < n; i++)\n"
                                              "    for (int j = 0; j < n; j++)\n"
                                              "      y[i] += a[i * n + j];\n"
                                              "}\n"
                                              "int main(void) {\n"
                                              "  double *a = malloc(100 * 100 * sizeof(double)), *y = calloc(100, sizeof(double));\n"
                                              "  f(y, a, 100);\n"
                                              "  free(a);\n"
                                              "  free(y);\n"
                                              "  return 0;\n"
                                              "}\n");
  CHECK(hoistingFindings(inlined) == 0);
}

TEST_CASE("review: a kernel reviewed alone leaves restrict unproven: legality unknown, nothing recommended", "[review][hoisting]") {
  // No caller: what y and a point to is not known, restrict may be a false promise.
  const std::string file = test::writeFile(test::tempDir(), "kernel.c",
                                           "void f(double *y, const double *a, int n) {\n"
                                           "  for (int i = 0; i < n; i++)\n"
                                           "    for (int j = 0; j < n; j++)\n"
                                           "      y[i] += a[i * n + j];\n"
                                           "}\n");
  nlohmann::json f = findingOf("hoisting", file + " -D n=100");
  CHECK(f.at("line") == 4);
  CHECK(f.at("legal").is_null());
  CHECK(f.at("recommendation") == "");
  CHECK(f.at("message").get<std::string>().find("what 'y' points to is not known") != std::string::npos);
  CHECK(f.at("predicted").at("before") == f.at("predicted").at("after"));  // the stores hit: the gain is in accesses
  auto text = test::runCli("review " + file + " -D n=100");
  CHECK(text.out.find("legal: unknown") != std::string::npos);
  CHECK(text.out.find("recommendation: none") != std::string::npos);
}

TEST_CASE("review: the restrict trace marks exactly the accesses through the parameter, and the promise is checked per call",
          "[review][hoisting]") {
  trace::Trace summaries = test::analyzeSummaries({"examples/review/row-update.c"});
  trace::Trace contexts = trace::expandContexts(summaries);
  std::optional<std::size_t> y;
  std::size_t throughY = 0;
  for (std::size_t e = 0; e < contexts.events.size(); ++e) {
    const trace::Event& ev = contexts.events[e];
    if (ev.kind != trace::EventKind::Access) continue;
    auto p = trace::parameterOf(contexts, summaries, e);
    CHECK(p.has_value() == (contexts.functionOf(ev.scope) == "row_update"));  // main's accesses use its own mallocs
    if (ev.text == "y[i]") y = p;
  }
  REQUIRE(y);
  CHECK(summaries.containers.at(*y).declaredName == "y");
  CHECK(summaries.containers.at(*y).kind == ir::ContainerKind::Parameter);
  trace::Trace marked = trace::withRestrict(contexts, summaries, {*y});
  REQUIRE(marked.events.size() == contexts.events.size());
  for (std::size_t e = 0; e < marked.events.size(); ++e) {
    INFO(contexts.events[e].text);
    CHECK(!contexts.events[e].viaRestrict);
    CHECK(marked.events[e].viaRestrict == (contexts.events[e].kind == trace::EventKind::Access && contexts.events[e].text == "y[i]"));
    throughY += marked.events[e].viaRestrict;
    CHECK(sym::print(marked.events[e].offset) == sym::print(contexts.events[e].offset));
    CHECK(marked.events[e].container == contexts.events[e].container);
  }
  CHECK(throughY == 2);  // the load and the store of y[i]
  std::string why;
  CHECK(trace::restrictHolds(contexts, summaries, {*y}, &why) == std::optional<bool>(true));
  // The kernel alone, as an entry: what y points to is not known.
  trace::Trace entry = trace::expandContexts(summaries, {"row_update"});
  CHECK(!trace::restrictHolds(entry, summaries, {*y}, &why).has_value());
  CHECK(why.find("not known") != std::string::npos);
}

TEST_CASE("review: the accesses one restrict keeps in registers are one finding", "[review][hoisting]") {
  const std::string code = "#include <stdio.h>\n#include <stdlib.h>\n#define N 300\nstruct acc { double sum, sq; };\n"
                           "__attribute__((noinline)) void stats(struct acc *RESTRICT r, const double *a, int n) {\n"
                           "  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++) {\n"
                           "      r[i].sum += a[i * n + j];\n      r[i].sq += a[i * n + j] * a[i * n + j];\n    }\n}\n"
                           "int main(void) {\n  double *a = calloc(N * N, sizeof(double));\n  struct acc *r = calloc(N, sizeof(struct acc));\n"
                           "  stats(r, a, N);\n  printf(\"%f\\n\", r[N - 1].sq);\n  return 0;\n}\n";
  const std::string dir = test::tempDir();
  const std::string file = test::writeFile(dir, "stats.c", "#define RESTRICT\n" + code);
  const std::string fixed = test::writeFile(dir, "stats-restrict.c", "#define RESTRICT restrict\n" + code);
  CHECK(hoistingFindings(file) == 1);
  nlohmann::json f = findingOf("hoisting", file);
  CHECK(f.at("line") == 9);
  const std::string message = f.at("message");
  CHECK(message.find("r[i].sum does not move in loop j") != std::string::npos);
  CHECK(message.find("likewise 1 more access(es) of stats() (line 10)") != std::string::npos);
  CHECK(f.at("recommendation").get<std::string>().find("keeps r[i].sum (and the 1 others) in a register") != std::string::npos);
  // The D1 accesses of the variant are those of the restrict written by hand: both fields leave the loop.
  CHECK(message.find("would be " + std::to_string(simulatedD1Accesses(fixed)) + " instead of " + std::to_string(simulatedD1Accesses(file))) !=
        std::string::npos);
  CHECK(hoistingFindings(fixed) == 0);
}
