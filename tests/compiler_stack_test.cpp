// Stack traffic at -O0 (docs/register-model.md, "Stack traffic at -O0") and
// `simulate --explain-model` (docs/simulation-format.md, "compiler_model").
#include "reports/simulation.hpp"
#include "sim/compiler.hpp"
#include "support.hpp"
#include "tracer/expand.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using namespace cats;

namespace {

/// One loop over a global array: at -O0, `i` lives at -4(%rbp) of main.
const char* kScale = R"(#define N 1000
double a[N];
int main(void) {
  for (int i = 0; i < N; i++)
    a[i] = 2.0 * a[i];
  return 0;
}
)";

/// A kernel with parameters, called once.
const char* kKernel = R"(#include <stdlib.h>
void scale(int n, double *x) {
  for (int i = 0; i < n; i++)
    x[i] += 1.0;
}
int main(void) {
  double *x = malloc(1000 * sizeof(double));
  scale(1000, x);
  free(x);
  return 0;
}
)";

nlohmann::json simulate(const std::string& source, const std::string& flags) {
  std::string dir = test::tempDir();
  test::writeFile(dir, "k.c", source);
  auto r = test::runCli("simulate '" + dir + "/k.c' --D1=32768,8,64 --LL=262144,8,64 --format json " + flags);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  return nlohmann::json::parse(r.out);
}

std::int64_t count(const nlohmann::json& report, const std::string& container, const std::string& what) {
  if (!report["by_container"].contains(container)) return -1;
  return report["by_container"][container]["D1"][what].get<std::int64_t>();
}

}  // namespace

TEST_CASE("gcc -O0 loads and stores the loop counter in its stack slot at every use", "[stack]") {
  auto j = simulate(kScale, "--model O0");
  // `int i = 0`: one store. Test `i < N` (cmpl $999, -4(%rbp)): 1001 reads. `a[i] = 2.0 * a[i]`:
  // i read for the load's address and again for the store's: 2000. `i++` (addl $1, -4(%rbp)):
  // one modify, which Cachegrind counts as a read: 1000. As Cachegrind measures on gcc -O0.
  CHECK(count(j, "i", "reads") == 4001);
  CHECK(count(j, "i", "writes") == 1);
  CHECK(count(j, "a", "reads") == 1000);
  CHECK(count(j, "a", "writes") == 1000);
  // One line of the frame, missed once (cold), then every access hits.
  CHECK(count(j, "i", "read_misses") + count(j, "i", "write_misses") == 1);
}

TEST_CASE("clang -O0 increments by load, add and store", "[stack]") {
  auto j = simulate(kScale, "--compiler clang -O 0");
  CHECK(count(j, "i", "reads") == 4001);
  CHECK(count(j, "i", "writes") == 1001);
}

TEST_CASE("parameters are stored at entry and loaded at every use; pointers load their slot", "[stack]") {
  auto j = simulate(kKernel, "--model O0");
  // n: stored once at entry, read by each of the 1001 tests.
  CHECK(count(j, "n_slot", "writes") == 1);
  CHECK(count(j, "n_slot", "reads") == 1001);
  // x[i] += 1.0 at gcc -O0 computes the address twice (load, then store): x and i twice each.
  // (The tracer names the second slot called x_slot in the trace x_slot_2.)
  CHECK(count(j, "x_slot_2", "writes") == 1);
  CHECK(count(j, "x_slot_2", "reads") == 2000);
  CHECK(count(j, "i", "reads") == 1001 + 2000 + 1000);
  // main's pointer x: stored by the assignment, loaded for the call and for free.
  CHECK(count(j, "x_slot", "writes") == 1);
  CHECK(count(j, "x_slot", "reads") == 2);
  CHECK(count(j, "x", "reads") == 1000);
}

TEST_CASE("slots of one frame share its lines: the second counter does not miss", "[stack]") {
  auto j = simulate(R"(#define N 64
double a[N][N];
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      a[i][j] = 1.0;
  return 0;
}
)",
                    "--model O0");
  CHECK(count(j, "i", "read_misses") + count(j, "i", "write_misses") == 1);
  CHECK(count(j, "j", "read_misses") + count(j, "j", "write_misses") == 0);
}

TEST_CASE("no stack slots at -O2 or with --no-stack-slots", "[stack]") {
  CHECK(count(simulate(kScale, "--model O2"), "i", "reads") == -1);
  CHECK(count(simulate(kScale, "-O 1"), "i", "reads") == -1);
  auto j = simulate(kScale, "--model O0 --no-stack-slots");
  CHECK(count(j, "i", "reads") == -1);
  CHECK(j["accesses"].get<int>() == 2000);
}

TEST_CASE("explain-model: the text prints the model's decisions as a tree by function, call and loop", "[stack][explain]") {
  auto r = test::runCli("simulate tests/inputs/explain/kernel.c --model O0 --explain-model");
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  auto at = r.out.find("\nCompiler model");
  REQUIRE(at != std::string::npos);
  CHECK(r.out.substr(at + 1) == test::readFile(test::sourcePath("tests/golden/explain/kernel.O0.txt")));
}

TEST_CASE("explain-model in JSON: a versioned compiler_model section with the same tree", "[stack][explain]") {
  auto r = test::runCli("simulate tests/inputs/explain/kernel.c --model O0 --explain-model --format json");
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  auto model = nlohmann::json::parse(r.out)["compiler_model"];
  CHECK(model["version"] == 1);
  CHECK(model["compiler"] == "gcc -O0");
  REQUIRE(model["tree"].size() == 1);
  const auto& main = model["tree"][0];
  CHECK(main["kind"] == "function");
  CHECK(main["function"] == "main");
  CHECK(main["stack_slots"] == nlohmann::json::array({"t", "i"}));
  // main: the fill loop (constant bound 64), then the call of the kernel.
  REQUIRE(main["children"].size() == 2);
  const auto& fill = main["children"][0];
  CHECK(fill["kind"] == "loop");
  CHECK(fill["iterator"] == "i_3");  // the trace's unique name of main's i, as in --by loop
  CHECK(fill["constant_trips"] == true);
  CHECK(fill["vector_factor"] == 1);
  CHECK(fill["location"] == "tests/inputs/explain/kernel.c:13");
  const auto& call = main["children"][1];
  CHECK(call["kind"] == "call");
  CHECK(call["callee"] == "sum");
  CHECK(call["inlined"] == false);
  CHECK(call["compiled_into"] == "sum");
  CHECK(call["stack_slots"] == nlohmann::json::array({"s", "i_4", "n_slot", "x_slot"}));
  REQUIRE(call["children"].size() == 1);
  CHECK(call["children"][0]["constant_trips"] == false);  // n is a parameter of sum, which is not inlined at -O0
  CHECK(call["children"][0]["compiled_into"] == "sum");
}

TEST_CASE("explain-model: without the flag the report has no compiler_model", "[stack][explain]") {
  auto r = test::runCli("simulate tests/inputs/explain/kernel.c --model O0 --format json");
  REQUIRE(r.exitCode == 0);
  CHECK_FALSE(nlohmann::json::parse(r.out).contains("compiler_model"));
  CHECK(test::runCli("simulate tests/inputs/explain/kernel.c --model O0").out.find("Compiler model") == std::string::npos);
}

TEST_CASE("explain-model: the text shows vector factor, interleave, checks, promotions and the report as source", "[stack][explain]") {
  trace::Trace contexts = trace::expandContexts(test::analyzeSource(R"(
    double a[64], b[64], c[1];
    int main(void) {
      for (int i = 0; i < 64; i++) {
        a[i] = b[i] + 1.0;
        c[0] = c[0] + a[i];
      }
      return 0;
    })"));
  sim::CompilerTarget clang;
  clang.compiler = sim::CompilerKind::Clang;
  sim::CompilationPlan plan = sim::planCompilation(contexts, clang);
  REQUIRE(plan.loops.size() == 1);
  plan.loops[0].vectorFactor = 2;
  plan.loops[0].interleave = 4;
  plan.loops[0].runtimeAliasCheck = true;
  plan.loops[0].reason = "remark: vectorized loop";
  plan.loops[0].source = sim::DecisionSource::Report;
  std::size_t sum = 0;
  for (std::size_t e = 0; e < contexts.events.size(); ++e)
    if (contexts.events[e].kind == trace::EventKind::Access && contexts.events[e].text == "c[0]" && contexts.events[e].mode == ir::AccessMode::Write) sum = e;
  plan.accesses.push_back(sim::AccessDecision{sum, sim::AccessDecision::Kind::Promoted, plan.loops[0].scope, "invariant address, no aliasing store"});
  std::string text = report::compilerModelText(contexts, plan);
  INFO(text);
  CHECK(text.find("Compiler model (clang -O2;") == 0);
  CHECK(text.find("vectorised by 2, interleave 4, run-time alias check (remark: vectorized loop)  [report]") != std::string::npos);
  CHECK(text.find("      promoted c[0]  ") != std::string::npos);
  CHECK(text.find(": invariant address, no aliasing store") != std::string::npos);
}
