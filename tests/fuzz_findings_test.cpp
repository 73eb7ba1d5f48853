// What the fuzzers found, as behaviour: each case is a bug fuzz/regressions/ holds an input for,
// restated on a small source of our own.
#include "reports/analysis.hpp"
#include "sim/formula.hpp"
#include "support.hpp"
#include "tracer/trace_json.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

using namespace cats;

namespace {

/// An access whose source text holds a Latin-1 byte (0xE9, "é"), which is not UTF-8.
const char* const kLatin1Source = "int t[256];\nint main(void) { return t[(unsigned char)\"caf\xe9\"[3]]; }\n";

}  // namespace

TEST_CASE("source text that is not UTF-8 reaches the JSON outputs as U+FFFD", "[fuzz]") {
  trace::Trace t = test::analyzeSource(kLatin1Source);
  std::string json = report::analysisJson(t);
  CHECK(json.find("caf\xef\xbf\xbd") != std::string::npos);  // U+FFFD in UTF-8
  CHECK_NOTHROW(nlohmann::json::parse(json));

  std::string traceFile = trace::writeTraceJson(t);
  trace::Trace back = trace::readTraceJson(traceFile);
  CHECK(trace::writeTraceJson(back) == traceFile);
}

TEST_CASE("analyze --format json and --dump trace accept a source that is not UTF-8", "[fuzz][cli]") {
  std::string file = test::writeFile(test::tempDir(), "latin1.c", kLatin1Source);
  for (const char* how : {"--format json", "--dump trace"}) {
    INFO(how);
    test::CliResult r = test::runCli(std::string("analyze ") + how + " " + file);
    CHECK(r.exitCode == 0);
    CHECK(r.err.find("UTF-8") == std::string::npos);
    CHECK(r.out.find("caf\xef\xbf\xbd") != std::string::npos);
  }
}

TEST_CASE("a trace file whose scope parent is not a number is a format error", "[fuzz][trace-json]") {
  trace::Trace t = test::analyzeSource("int a[4];\nint main(void) { for (int i = 0; i < 4; i++) a[i] = i; return 0; }\n");
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(trace::writeTraceJson(t));
  REQUIRE(j["scopes"].size() >= 2);
  j["scopes"][1]["parent"] = "0";
  CHECK_THROWS_WITH(trace::readTraceJson(j.dump()), Catch::Contains("scopes[1].parent"));
}

TEST_CASE("a trace file with a bad container dimension is a format error", "[fuzz][trace-json]") {
  trace::Trace t = test::analyzeSource("double a[4][8];\nint main(void) { a[1][2] = 0; return 0; }\n");
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(trace::writeTraceJson(t));
  for (auto& c : j["containers"]) {
    if (c["dims"].empty()) continue;
    for (nlohmann::ordered_json bad : {nlohmann::ordered_json("no_such_symbol"), nlohmann::ordered_json(8)}) {
      c["dims"][0] = bad;
      CHECK_THROWS_WITH(trace::readTraceJson(j.dump()), Catch::Contains(".dims"));
    }
    return;
  }
  FAIL("no container with dimensions");
}

TEST_CASE("an allocation function called with the wrong argument count is an ordinary call", "[fuzz][frontend]") {
  trace::Trace t = test::analyzeSource("int a[8];\nint main(void) { int *p; posix_memalign(&p, 64); a[posix_memalign(1) % 8] = 1; return 0; }\n");
  CHECK(test::findAccess(t, "a[posix_memalign(1) % 8]", ir::AccessMode::Write).classification.kind == trace::AccessClass::Indirect);
  bool warned = false;
  for (const auto& d : t.diagnostics) warned |= d.message.find("posix_memalign") != std::string::npos;
  CHECK(warned);
  CHECK(t.approximate);
}

TEST_CASE("a trace file with a float, negative or huge number where a count belongs is a format error", "[fuzz][trace-json]") {
  trace::Trace t = test::analyzeSource("int a[4];\nint main(void) { for (int i = 0; i < 4; i++) a[i] = i; return 0; }\n");
  const nlohmann::ordered_json good = nlohmann::ordered_json::parse(trace::writeTraceJson(t));
  REQUIRE(good["scopes"].size() >= 2);
  // Found as 1.18447e+20 in scopes[].first_event: nlohmann casts a float to size_t, which is UB.
  for (nlohmann::ordered_json bad : {nlohmann::ordered_json(1.18447e+20), nlohmann::ordered_json(2.5), nlohmann::ordered_json(-1)}) {
    INFO(bad.dump());
    nlohmann::ordered_json j = good;
    j["scopes"][1]["first_event"] = bad;
    CHECK_THROWS_WITH(trace::readTraceJson(j.dump()), Catch::Contains("scopes[1].first_event"));
  }
  nlohmann::ordered_json j = good;
  j["defaults"]["N"] = 9.3e25;
  CHECK_THROWS_WITH(trace::readTraceJson(j.dump()), Catch::Contains("defaults.N: must be a whole number"));
  j = good;
  j["version"] = 2.0;
  CHECK_THROWS_WITH(trace::readTraceJson(j.dump()), Catch::Contains("version: must be a whole number"));
  j = good;
  j["containers"][0]["element_bytes"] = 18446744073709551615ULL;
  CHECK_THROWS_WITH(trace::readTraceJson(j.dump()), Catch::Contains("out of range"));
}

TEST_CASE("formulas wrap in two's complement where the program's 64-bit values overflow", "[fuzz][formula]") {
  // frontend_fuzz reached 90072061267148801 * 262144 in the stack machine; the linear path and
  // binding a slot must wrap the same way (UBSan, which the sanitizer build runs, flags overflow).
  const std::int64_t big = 90072061267148801;
  const std::uint64_t wrapped = static_cast<std::uint64_t>(big) * 262144U + 7U;
  sim::Formula f = sim::Formula::linear(7, {{0, 262144}});
  std::int64_t slots[1] = {big};
  CHECK(static_cast<std::uint64_t>(f.evaluate(slots)) == wrapped);
  CHECK(static_cast<std::uint64_t>(*f.withSlotValue(0, big).constantValue()) == wrapped);
}
