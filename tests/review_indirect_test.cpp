// `cats-static review`, indirect (issue 11): a gather through an index array with many misses
// and little of each line used; the sorted-indices variant checked against the sorted kernel
// written by hand, no finding on the sorted kernel, a streaming one or a gather that fits in
// the cache, an approximate and unrecommended finding, and the trace change itself.
#include "tracer/indirect.hpp"
#include "review_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace cats;
using test::findingOf;
using test::parsed;
using test::simulatedD1Misses;

namespace {

std::size_t indirectFindings(const std::string& args) {
  const nlohmann::json j = parsed(test::runCli("review " + args + " --format json"));
  std::size_t n = 0;
  for (const auto& f : j.at("findings")) n += f.at("kind") == "indirect";
  return n;
}

/* A program summing "n" doubles of x (of "size" elements) gathered through idx, "step" apart. */
std::string gatherProgram(int size, int n, int step) {
  return test::writeFile(test::tempDir(), "g.c",
                         "#include <stdlib.h>\n"
                         "double s;\n"
                         "int main(void) {\n"
                         "  double *x = calloc(" + std::to_string(size) + ", sizeof(double));\n"
                         "  int *idx = calloc(" + std::to_string(n) + ", sizeof(int));\n"
                         "  for (int i = 0; i < " + std::to_string(n) + "; i += " + std::to_string(step) + ")\n"
                         "    s += x[idx[i]];\n"
                         "  free(x);\n"
                         "  free(idx);\n"
                         "  return 0;\n"
                         "}\n");
}

}  // namespace

TEST_CASE("review: a scattered gather is an approximate indirect finding whose sorted variant the sorted kernel confirms",
          "[review][indirect]") {
  const std::string file = "examples/review/gather.c", fixed = "examples/review/gather-sorted.c";
  nlohmann::json f = findingOf("indirect", file);
  CHECK(f.at("function") == "gather");
  CHECK(f.at("file") == file);
  CHECK(f.at("line") == 15);
  CHECK(f.at("legal").is_null());           // reordering the visits is the programmer's call
  CHECK(f.at("recommendation") == "");      // ... so nothing is recommended
  const std::string message = f.at("message");
  for (const char* says : {"approximate", "drew them at random", "bytes used per 64-byte line", "% of the program's",
                           "assumes fully sorted indices", "sort the indices", "block the gather"}) {
    INFO(says);
    CHECK(message.find(says) != std::string::npos);
  }
  const auto& p = f.at("predicted");
  CHECK(p.at("level") == "D1");
  const std::uint64_t before = p.at("before").get<std::uint64_t>(), after = p.at("after").get<std::uint64_t>();
  CHECK(before == simulatedD1Misses(file));
  const std::uint64_t handFixed = simulatedD1Misses(fixed);
  INFO("predicted " << after << ", hand-fixed " << handFixed << ", before " << before);
  CHECK(after < before);
  CHECK(std::llabs(static_cast<long long>(after) - static_cast<long long>(handFixed)) * 10 <= static_cast<long long>(handFixed));
}

TEST_CASE("review: no indirect finding for sorted indices, a stream or a gather that fits in D1", "[review][indirect]") {
  for (const char* file : {"examples/review/gather-sorted.c", "examples/review/dot.c"}) {
    INFO(file);
    CHECK(indirectFindings(file) == 0);
  }
  CHECK(indirectFindings(gatherProgram(1024, 100000, 1)) == 0);  // x is 8 KiB: every line stays in D1
  CHECK(indirectFindings(gatherProgram(1000000, 100000, 1)) == 1);
}

TEST_CASE("review: a gather whose loop does not count by one is reported not evaluated", "[review][indirect]") {
  nlohmann::json f = findingOf("indirect", gatherProgram(1000000, 200000, 2));
  CHECK(f.at("line") == 7);
  CHECK(f.at("predicted").is_null());
  CHECK(f.at("recommendation") == "");
  const std::string message = f.at("message");
  CHECK(message.find("not evaluated: its loop (loop i) does not count up by one") != std::string::npos);
  CHECK(message.find("approximate") != std::string::npos);
}

TEST_CASE("review: the sorted-gather trace walks the gathered array with the loop's iterator and leaves the rest alone",
          "[review][indirect]") {
  trace::Trace t = test::analyze({"examples/review/gather.c"});
  const trace::Event& gather = test::findAccess(t, "x[idx[i]]", ir::AccessMode::Read, "gather");
  const auto event = static_cast<std::size_t>(&gather - t.events.data());
  REQUIRE(gather.classification.kind == trace::AccessClass::Indirect);
  auto loop = trace::gatherLoop(t, event);
  REQUIRE(loop);
  CHECK(t.scopes.at(*loop).kind == trace::ScopeKind::Loop);
  CHECK(gather.classification.indirectVia == std::vector<std::string>{"idx"});
  CHECK(t.scopes.at(*loop).loc.line == 14);
  std::string why;
  auto sorted = trace::sortedGather(t, event, &why);
  REQUIRE(sorted);
  REQUIRE(sorted->events.size() == t.events.size());
  const trace::Event& walked = sorted->events[event];
  CHECK(sym::print(walked.offset) == "8*" + t.scopes.at(*loop).iterator);
  CHECK(walked.classification.kind == trace::AccessClass::Stride1);
  CHECK(walked.classification.indirectVia.empty());
  for (std::size_t e = 0; e < t.events.size(); ++e) {
    if (e == event) continue;
    INFO(t.events[e].text);
    CHECK(sym::print(sorted->events[e].offset) == sym::print(t.events[e].offset));  // the read of idx[i] stays
  }
  CHECK(sorted->scopes.size() == t.scopes.size());
}

TEST_CASE("review: a gather with no more misses than D1 has lines is no finding, however scattered", "[review][indirect]") {
  // 400 scattered reads of a large array: 400 misses, less than one fill of a 512-line D1.
  CHECK(indirectFindings(gatherProgram(1000000, 400, 1)) == 0);
  CHECK(indirectFindings(gatherProgram(1000000, 2000, 1)) == 1);
}
