// Function summaries and calling contexts on demand: each function once, call bindings,
// expansion equal to what the inlining tracer produced, recursion, linear growth, file format.
#include "support.hpp"

#include "tracer/expand.hpp"
#include "tracer/trace_json.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>

using namespace cats;
using nlohmann::json;

namespace {

trace::Trace summarize(const std::string& code, std::vector<std::string> entries = {}) {
  sym::Context ctx;
  ir::Program program = test::lowerSource(code, ctx);
  trace::TracerOptions options;
  options.entries = std::move(entries);
  return trace::buildSummaries(program, ctx, options);
}

std::size_t count(const trace::Trace& t, trace::ScopeKind kind, const std::string& function = {}) {
  return std::count_if(t.scopes.begin(), t.scopes.end(),
                       [&](const trace::Scope& s) { return s.kind == kind && (function.empty() || s.function == function); });
}

/* Every field the reference (written by the inlining tracer, trace format 1) has, "actual" has
   with the same value; "where" names the place of a difference. */
void checkSubset(const json& reference, const json& actual, const std::string& where) {
  if (reference.is_object()) {
    REQUIRE(actual.is_object());
    for (const auto& [key, value] : reference.items()) {
      if (key == "version") continue;
      INFO(where << "." << key);
      REQUIRE(actual.contains(key));
      checkSubset(value, actual.at(key), where + "." + key);
    }
    return;
  }
  if (reference.is_array()) {
    INFO(where);
    REQUIRE(actual.is_array());
    REQUIRE(actual.size() == reference.size());
    for (std::size_t i = 0; i < reference.size(); ++i) checkSubset(reference[i], actual[i], where + "[" + std::to_string(i) + "]");
    return;
  }
  INFO(where);
  CHECK(actual == reference);
}

std::vector<std::string> diagnosticLines(const json& trace) {
  std::vector<std::string> out;
  for (const auto& d : trace.at("diagnostics")) out.push_back(d.dump());
  std::sort(out.begin(), out.end());
  return out;
}

/* A program of k+1 functions, f_i calling f_{i+1} twice: 2^k call paths. */
std::string callDag(int k) {
  std::string code = "double a[1024];\nvoid f" + std::to_string(k) + "(int n) { for (int i = 0; i < n; i++) a[i] += 1.0; }\n";
  for (int i = k - 1; i >= 0; --i)
    code += "void f" + std::to_string(i) + "(int n) { a[" + std::to_string(i) + "] = 0; f" + std::to_string(i + 1) + "(n); f" +
            std::to_string(i + 1) + "(n / 2); }\n";
  return code + "int main(void) { f0(1000); return 0; }\n";
}

}  // namespace

// The references were written by the inlining tracer before summaries existed. spmv-csr's was
// re-recorded from the expansion after the frontend started following loop counters (only the
// names and notes of its unknowns changed), and again when counters bumped in counted inner loops
// (nnz) were followed; the others are the inlining tracer's own output, less the unknowns that
// stood for loop counters after their loops (now their exit values).
TEST_CASE("expanding the summaries gives the inlining tracer's trace", "[summaries][expand]") {
  struct Case {
    std::string reference, path;
  };
  std::vector<Case> cases = {
      {"alloc-in-loop", "examples/alloc-in-loop"}, {"jacobi-2d", "examples/jacobi-2d"},     {"matmul-heap", "examples/matmul-heap"},
      {"matmul-ikj", "examples/matmul-ikj"},       {"matmul-stack", "examples/matmul-stack"}, {"matmul-static", "examples/matmul-static"},
      {"multifile", "examples/multifile/src"},     {"particles-aos", "examples/particles-aos"}, {"spmv-csr", "examples/spmv-csr"},
      {"transpose", "examples/transpose"},         {"summaries-calls", "tests/inputs/summaries/calls.c"},
      {"summaries-nested", "tests/inputs/summaries/nested.c"}, {"summaries-recursion", "tests/inputs/summaries/recursion.c"},
  };
  for (const auto& c : cases) {
    SECTION(c.reference) {
      json reference = json::parse(test::readFile(test::sourcePath("tests/golden/inlined/" + c.reference + ".trace.json")));
      auto r = test::runCli("analyze " + c.path + " --dump contexts");
      REQUIRE(r.exitCode == 0);
      json actual = json::parse(r.out);
      CHECK(actual.at("form") == "contexts");
      for (const char* key : {"files", "entries", "bindings", "defaults", "approximate", "symbols", "containers", "scopes", "events"})
        checkSubset(reference.at(key), actual.at(key), key);
      CHECK(diagnosticLines(actual) == diagnosticLines(reference));
    }
  }
}

TEST_CASE("simulation through the summaries equals the inlining tracer's", "[summaries][expand]") {
  for (const std::string name : {"calls", "nested", "recursion"}) {
    SECTION(name) {
      auto r = test::runCli("simulate tests/inputs/summaries/" + name + ".c --by context");
      REQUIRE(r.exitCode == 0);
      CHECK(r.out == test::readFile(test::sourcePath("tests/golden/inlined/summaries-" + name + ".sim.txt")));
    }
  }
}

TEST_CASE("a function called from several sites is summarised once, its calls record bindings", "[summaries]") {
  trace::Trace t = test::analyzeSummaries({"tests/inputs/summaries/calls.c"});
  REQUIRE(t.form == trace::TraceForm::Summaries);
  CHECK(count(t, trace::ScopeKind::Function, "fill") == 1);
  CHECK(count(t, trace::ScopeKind::Call, "fill") == 4);
  CHECK(count(t, trace::ScopeKind::Function, "sum_tmp") == 1);
  std::size_t fillAccesses = 0;
  for (const auto& e : t.events) fillAccesses += e.kind == trace::EventKind::Access && t.functionOf(e.scope) == "fill";
  CHECK(fillAccesses == 1);
  for (const auto& s : t.scopes) CHECK((s.kind != trace::ScopeKind::Call || t.events.end() == std::find_if(t.events.begin(), t.events.end(), [&](const trace::Event& e) { return e.scope == s.id; })));

  auto root = t.summaryOf("fill");
  REQUIRE(root);
  const auto& params = t.scopes[*root].params;
  REQUIRE(params.size() == 3);
  CHECK(params[0].isPointer);
  REQUIRE(params[0].container);
  CHECK(t.containers[*params[0].container].kind == ir::ContainerKind::Parameter);
  CHECK(t.containers[*params[0].container].owner == root);
  CHECK_FALSE(params[1].isPointer);

  const trace::Scope* inLoop = nullptr;
  for (const auto& s : t.scopes)
    if (s.kind == trace::ScopeKind::Call && s.function == "fill" && t.scopes[*s.parent].kind == trace::ScopeKind::Loop) inLoop = &s;
  REQUIRE(inLoop);
  REQUIRE(inLoop->bindings.size() == 3);
  CHECK(inLoop->bindings[0].kind == trace::CallBinding::Kind::Pointer);
  CHECK(t.containers[inLoop->bindings[0].container].declaredName == "a");
  CHECK(sym::print(inLoop->bindings[0].value) == "80*i");
  CHECK(inLoop->bindings[1].kind == trace::CallBinding::Kind::Scalar);
  CHECK(sym::print(inLoop->bindings[1].value) == "10");
  CHECK_FALSE(inLoop->recursive);
}

TEST_CASE("recursion gives an approximate summary with a diagnostic, not a drop", "[summaries][recursion]") {
  trace::Trace t = test::analyzeSummaries({"tests/inputs/summaries/recursion.c"});
  for (const std::string f : {"down", "even", "odd"}) {
    CHECK(count(t, trace::ScopeKind::Function, f) == 1);
    bool hasAccess = std::any_of(t.events.begin(), t.events.end(), [&](const trace::Event& e) {
      return e.kind == trace::EventKind::Access && t.functionOf(e.scope) == f;
    });
    CHECK(hasAccess);
  }
  std::size_t recursive = 0;
  for (const auto& s : t.scopes) recursive += s.kind == trace::ScopeKind::Call && s.recursive;
  CHECK(recursive == 3);  // down -> down, even -> odd, odd -> even; main's calls are not in a cycle
  CHECK(t.approximate);
  std::vector<std::string> messages;
  for (const auto& d : t.diagnostics) messages.push_back(d.str());
  CHECK(std::count_if(messages.begin(), messages.end(), [](const std::string& m) {
          return m.find("recursion.c:6:") != std::string::npos && m.find("recursive call to 'down'") != std::string::npos;
        }) == 1);

  trace::Trace contexts = trace::expandContexts(t);
  CHECK(count(contexts, trace::ScopeKind::Call, "even") == 2);  // main > even, main > odd > even; even > odd > even stops
  CHECK(contexts.approximate);
}

TEST_CASE("a 2^k call DAG gives a summary linear in k and 2^k contexts", "[summaries][dag]") {
  auto size = [](int k) {
    trace::Trace t = summarize(callDag(k));
    return std::pair{t.scopes.size(), t.events.size()};
  };
  auto [s4, e4] = size(4);
  auto [s8, e8] = size(8);
  auto [s12, e12] = size(12);
  CHECK(s12 - s8 == s8 - s4);
  CHECK(e12 - e8 == e8 - e4);
  CHECK(s12 - s8 == 4 * 3);  // per function: its summary, two call scopes
  CHECK(e12 - e8 == 4);      // per function: one access
  trace::Trace contexts = trace::expandContexts(summarize(callDag(8)));
  CHECK(count(contexts, trace::ScopeKind::Call, "f8") == 256);
  trace::ExpansionLimits limits;
  limits.maxEvents = 100;
  trace::Trace limited = trace::expandContexts(summarize(callDag(8)), {}, limits);
  CHECK(limited.events.size() <= 100);
  CHECK(limited.approximate);
}

TEST_CASE("the summary trace file round-trips and expands like the original", "[summaries][trace-json]") {
  trace::Trace t = test::analyzeSummaries({"tests/inputs/summaries/calls.c"});
  std::string text = trace::writeTraceJson(t);
  trace::Trace read = trace::readTraceJson(text);
  CHECK(read.form == trace::TraceForm::Summaries);
  CHECK(trace::writeTraceJson(read) == text);
  CHECK(trace::writeTraceJson(trace::expandContexts(read)) == trace::writeTraceJson(trace::expandContexts(t)));

  json bad = json::parse(text);
  for (auto& s : bad["scopes"])
    if (s["kind"] == "call") s["bindings"][0]["container"] = 100000;
  CHECK_THROWS_WITH(trace::readTraceJson(bad.dump()), Catch::Contains("no such container"));
}
