// `cats-static review`'s false-sharing finding (docs/review.md): threads of an OpenMP parallel
// loop writing different bytes of one cache line, replayed on --threads cores by the coherence
// model; the fixes (per-thread data a line apart, a schedule of whole lines) predicted by
// replaying the variant; the trace transformations on the trace itself.
#include "review_support.hpp"
#include "tracer/false_sharing.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <sstream>
#include <string>

using namespace cats;
using test::findingOf;
using test::parsed;
using test::simulatedD1Misses;

namespace {

/* Eight counters in one line, one per thread, counts[omp_get_thread_num()] += i over 8 iterations. */
std::string tinyCounters(const std::string& pragma) {
  return "#include <omp.h>\nlong counts[8] __attribute__((aligned(64)));\nint main(void) {\n" + pragma +
         "\n  for (int i = 0; i < 8; i++)\n    counts[omp_get_thread_num()] += i;\n  return counts[0] == 0;\n}\n";
}

/* The findings of "kind" in `review ARGS --format json`. */
std::size_t findingsOf(const std::string& kind, const std::string& args) {
  nlohmann::json j = parsed(test::runCli("review " + args + " --format json"));
  std::size_t n = 0;
  for (const auto& f : j.at("findings")) n += f.at("kind") == kind;
  return n;
}

/* The "after" of the D1 line of a text review with one finding ("  D1  misses  B ->  A (...)"). */
std::uint64_t textD1After(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("  D1 ", 0) != 0) continue;
    std::istringstream words(line.substr(line.find("->") + 2));
    std::uint64_t after = 0;
    words >> after;
    return after;
  }
  FAIL("no D1 line in: " << text);
  return 0;
}

}  // namespace

TEST_CASE("false sharing: per-thread counters in one line, the padded counters predicted", "[review][false-sharing]") {
  const std::string file = "examples/review/thread-counters.c";
  nlohmann::json f = findingOf("false-sharing", file);
  CHECK(f.at("function") == "count_above");
  CHECK(f.at("file") == file);
  CHECK(f.at("line") == 20);
  CHECK(f.at("legal") == true);
  CHECK(f.at("recommendation").get<std::string>().find("counts[tid * 8]") != std::string::npos);
  const auto& p = f.at("predicted");
  CHECK(p.at("level") == "coherence");
  CHECK(p.at("before").get<std::uint64_t>() > 1000);  // 20,000 increments on 4 cores: nearly each one takes the line back
  CHECK(p.at("after") == 0);
  // The single-core D1 misses of the variant are those of the padding written by hand.
  auto text = test::runCli("review " + file);
  REQUIRE(text.exitCode == 0);
  const std::uint64_t predicted = textD1After(text.out), handFixed = simulatedD1Misses("examples/review/thread-counters-padded.c");
  INFO("predicted " << predicted << ", hand-fixed " << handFixed);
  CHECK(std::llabs(static_cast<long long>(predicted) - static_cast<long long>(handFixed)) * 10 <= static_cast<long long>(handFixed));
  CHECK(findingsOf("false-sharing", "examples/review/thread-counters-padded.c") == 0);
}

TEST_CASE("false sharing: chunks of one iteration over a line of doubles; chunks of 8 predicted", "[review][false-sharing]") {
  nlohmann::json f = findingOf("false-sharing", "examples/review/thread-stripes.c");
  CHECK(f.at("function") == "scale");
  CHECK(f.at("line") == 17);
  CHECK(f.at("legal") == true);
  CHECK(f.at("recommendation").get<std::string>().find("schedule(static, 8)") != std::string::npos);
  // Every line of out (2,500 of them) has its 8 doubles written by the 4 threads in turn, twice:
  // in the second round each core finds the line taken by the three others (4 misses a line).
  CHECK(f.at("predicted").at("before") == 10000);
  CHECK(f.at("predicted").at("after") == 0);
  CHECK(findingsOf("false-sharing", "examples/review/thread-stripes-chunked.c") == 0);
  // Clang -O2 vectorises the chunks of 8 (2 x 2 per vector iteration) but not chunks of 1: the
  // vector iterations are dealt by the source iterations they do, so the fix still shares nothing.
  nlohmann::json clang = findingOf("false-sharing", "examples/review/thread-stripes.c --compiler clang");
  CHECK(clang.at("predicted").at("before") == 10000);
  CHECK(clang.at("predicted").at("after") == 0);
  CHECK(findingsOf("false-sharing", "examples/review/thread-stripes-chunked.c --compiler clang") == 0);
}

TEST_CASE("false sharing: the tiny counters counted by hand", "[review][false-sharing]") {
  // 8 iterations on 4 threads in blocks of 2: thread t runs 2t and 2t + 1, each a read and a write
  // of counts[t] (one line). Round 0: each core's first access. Round 1: each core's read finds
  // the line written by the others since (4 coherence misses); its write then hits. Padded: 0.
  const std::string dir = test::tempDir();
  const std::string file = test::writeFile(dir, "tiny.c", tinyCounters("#pragma omp parallel for"));
  nlohmann::json f = findingOf("false-sharing", file);
  CHECK(f.at("line") == 6);
  CHECK(f.at("predicted").at("before") == 4);
  CHECK(f.at("predicted").at("after") == 0);
  CHECK(f.at("message").get<std::string>().find("1 line(s) falsely shared, 4 coherence misses") != std::string::npos);
  // Two threads in blocks of 4: rounds 1 to 3 each cost both cores a miss: 6.
  CHECK(findingOf("false-sharing", file + " --threads 2").at("predicted").at("before") == 6);
  // One thread shares nothing.
  CHECK(findingsOf("false-sharing", file + " --threads 1") == 0);
  CHECK(test::runCli("review " + file + " --threads 0").exitCode == 2);
}

TEST_CASE("false sharing: a sequential loop, a dynamic schedule and a streaming kernel get none", "[review][false-sharing]") {
  const std::string dir = test::tempDir();
  CHECK(findingsOf("false-sharing", test::writeFile(dir, "sequential.c", tinyCounters(""))) == 0);
  CHECK(findingsOf("false-sharing", test::writeFile(dir, "dynamic.c", tinyCounters("#pragma omp parallel for schedule(dynamic)"))) == 0);
  CHECK(findingsOf("false-sharing", "examples/review/dot.c") == 0);
}

TEST_CASE("false sharing: the trace knows the schedule and each thread's number", "[tracer][false-sharing]") {
  trace::Trace t = test::analyzeSource(tinyCounters("#pragma omp parallel for schedule(static, 3)"));
  auto loops = trace::parallelLoops(t, {});
  REQUIRE(loops.size() == 1);
  CHECK(loops[0].chunk == 3);
  CHECK(loops[0].trips == 8);
  CHECK(loops[0].loc.line == 5);
  CHECK(trace::parallelLoops(test::analyzeSource(tinyCounters("#pragma omp parallel for schedule(guided)")), {}).empty());
  CHECK(trace::parallelLoops(test::analyzeSource(tinyCounters("")), {}).empty());

  const trace::Event& write = test::findAccess(t, "counts[omp_get_thread_num()]", ir::AccessMode::Write, "main");
  CHECK(trace::indexedByThread(t, write.container));
  // schedule(static, 3) on 4 threads: iteration i runs on thread (i / 3) % 4.
  trace::Trace numbered = trace::threadNumbered(t, loops[0], 4);
  const trace::Event& bound = numbered.events[static_cast<std::size_t>(&write - t.events.data())];
  CHECK(sym::print(bound.offset) == sym::print(8 * trace::threadOfIteration(t, loops[0], 4)));
  CHECK(sym::symbolsOfKind(bound.offset, numbered.context, sym::SymbolKind::Unknown).empty());
  const sym::Symbol i = *t.context.find(t.scopes[loops[0].scope].iterator);
  for (int k = 0; k < 8; ++k) CHECK(sym::toInteger(bound.offset.subs(GiNaC::exmap{{i, k}})) == 8 * ((k / 3) % 4));

  // The counters spread a line apart: element k at 64 k, the array 8 times longer.
  auto spread = trace::threadDataSpread(t, write.container, 8);
  REQUIRE(spread);
  CHECK(sym::toInteger(spread->containers[write.container].sizeBytes) == 512);
  const trace::Event& moved = spread->events[static_cast<std::size_t>(&write - t.events.data())];
  CHECK(sym::print((moved.offset - 8 * write.offset).expand()) == "0");
  // An array no thread number indexes is not spread (its fix is the schedule).
  trace::Trace stripes = test::analyzeSource("double out[16];\nvoid f(void) {\n#pragma omp parallel for schedule(static, 1)\n"
                                             "  for (int i = 0; i < 16; i++) out[i] = i;\n}\n");
  const trace::Event& stripe = test::findAccess(stripes, "out[i]", ir::AccessMode::Write, "f");
  std::string why;
  CHECK(!trace::threadDataSpread(stripes, stripe.container, 8, &why));
  CHECK(why.find("omp_get_thread_num") != std::string::npos);
  REQUIRE(trace::parallelLoops(stripes, {}).size() == 1);
  CHECK(trace::parallelLoops(stripes, {}).front().chunk == 1);
  CHECK(trace::rescheduled(t, loops[0].scope, 8).scopes[loops[0].scope].scheduleChunk == 8);
}
