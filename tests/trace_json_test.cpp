#include "support.hpp"
#include "tracer/trace_json.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

using namespace cats;

TEST_CASE("trace files round-trip for every example", "[trace][json]") {
  auto example = GENERATE(as<std::string>{}, "examples/matmul-heap", "examples/spmv-csr", "examples/particles-aos",
                          "examples/multifile/src", "examples/alloc-in-loop", "examples/jacobi-2d");
  INFO(example);
  trace::Trace original = test::analyze({example});
  std::string text = trace::writeTraceJson(original);
  trace::Trace read = trace::readTraceJson(text);
  CHECK(trace::writeTraceJson(read) == text);
  REQUIRE(read.events.size() == original.events.size());
  for (std::size_t e = 0; e < read.events.size(); ++e) {
    CHECK(sym::print(read.events[e].offset) == sym::print(original.events[e].offset));
    CHECK(read.events[e].classification.kind == original.events[e].classification.kind);
  }
  REQUIRE(read.scopes.size() == original.scopes.size());
  for (std::size_t s = 0; s < read.scopes.size(); ++s) CHECK(read.scopes[s].label() == original.scopes[s].label());
}

TEST_CASE("the trace file names its format and version", "[trace][json]") {
  auto j = nlohmann::json::parse(trace::writeTraceJson(test::analyze({"examples/transpose"})));
  CHECK(j["format"] == "cats-static-trace");
  CHECK(j["version"] == trace::kTraceFormatVersion);
  for (const char* key : {"files", "entries", "bindings", "defaults", "approximate", "symbols", "containers", "scopes", "events", "diagnostics"})
    CHECK(j.contains(key));
}

TEST_CASE("the trace reader says what is wrong", "[trace][json]") {
  std::string good = trace::writeTraceJson(test::analyze({"examples/transpose"}));
  auto j = nlohmann::json::parse(good);
  CHECK_THROWS_WITH(trace::readTraceJson("{"), Catch::Contains("not JSON"));
  auto wrongVersion = j;
  wrongVersion["version"] = 99;
  CHECK_THROWS_WITH(trace::readTraceJson(wrongVersion.dump()), Catch::Contains("version 99 is not supported"));
  auto wrongFormat = j;
  wrongFormat["format"] = "something-else";
  CHECK_THROWS_AS(trace::readTraceJson(wrongFormat.dump()), trace::TraceFormatError);
  auto missing = j;
  missing["events"][0].erase("scope");
  CHECK_THROWS_WITH(trace::readTraceJson(missing.dump()), Catch::Contains("events[0]: missing field 'scope'"));
  auto badExpr = j;
  for (auto& e : badExpr["events"])
    if (e["kind"] == "access") {
      e["offset"] = "8*nosuchsymbol";
      break;
    }
  CHECK_THROWS_WITH(trace::readTraceJson(badExpr.dump()), Catch::Contains("offset"));
  auto badClass = j;
  for (auto& e : badClass["events"])
    if (e["kind"] == "access") {
      e["class"] = "stride-7";
      break;
    }
  CHECK_THROWS_WITH(trace::readTraceJson(badClass.dump()), Catch::Contains("unknown value 'stride-7'"));
}

TEST_CASE("a loop's carried scalars round-trip; an unknown kind is rejected", "[trace][json][carried]") {
  trace::Trace original = test::analyzeSource("long f(int n, const int *a, float *b) {\n  long s = 0;\n  float prev = 0;\n  for (int i = 0; i < n; i++) {\n"
                                              "    s += a[i];\n    b[i] = prev;\n    prev = b[i] + a[i];\n  }\n  return s;\n}\n");
  std::vector<ir::CarriedScalar> expected = {{"s", ir::CarriedScalar::Kind::IntegerReduction}, {"prev", ir::CarriedScalar::Kind::Recurrence}};
  const trace::Scope* loop = nullptr;
  for (const trace::Scope& s : original.scopes)
    if (s.kind == trace::ScopeKind::Loop) loop = &s;
  REQUIRE(loop != nullptr);
  CHECK(loop->carried == expected);
  std::string text = trace::writeTraceJson(original);
  trace::Trace read = trace::readTraceJson(text);
  CHECK(read.scopes[loop->id].carried == expected);
  auto j = nlohmann::json::parse(text);
  j["scopes"][loop->id]["carried"][0]["kind"] = "second-order";
  CHECK_THROWS_WITH(trace::readTraceJson(j.dump()), Catch::Contains("unknown value 'second-order'"));
  j["scopes"][loop->id].erase("carried");
  CHECK_THROWS_WITH(trace::readTraceJson(j.dump()), Catch::Contains("missing field 'carried'"));
}
