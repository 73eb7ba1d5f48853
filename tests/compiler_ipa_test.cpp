// The interprocedural half of the compiler model (sim/compiler: inliner, constant propagation,
// trip counts, alias view). Where GCC or Clang is on the machine, its own report on the same
// source is the expected answer: -fopt-info-inline-optimized, -Rpass=inline, and the
// name.constprop.0 clones in the object file.
#include "sim/compiler.hpp"
#include "support.hpp"

#include "../sim/compiler/view.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <regex>
#include <set>

using namespace cats;

namespace {

bool haveTool(const std::string& tool) { return std::system(("command -v " + tool + " >/dev/null 2>&1").c_str()) == 0; }

std::string capture(const std::string& command) {
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
    pclose(pipe);
  }
  return out;
}

sim::CompilerTarget targetOf(const std::string& compiler, const std::string& level, const std::string& flags = "") {
  return std::get<sim::CompilerTarget>(sim::parseCompilerTarget(compiler, level, flags));
}

using Site = std::pair<int, int>;  // line, column of a call

/* The model's decision per call site of "contexts" ("callee" -> inlined), keyed by position. */
std::map<Site, bool> modelInlined(const trace::Trace& contexts, const sim::CompilationPlan& plan) {
  std::map<Site, bool> out;
  for (const auto& d : plan.calls) {
    const trace::Scope& s = contexts.scopes[d.scope];
    out[{static_cast<int>(s.loc.line), static_cast<int>(s.loc.column)}] = d.inlined;
  }
  return out;
}

/* Call sites the compiler's report says it inlined: "file:line:col: ... Inlin(ing|ed) f" or
   "file:line:col: remark: 'f' inlined into". */
std::set<Site> reportedInlined(const std::string& report) {
  static const std::regex gcc(R"(:(\d+):(\d+): optimized:\s+Inlin(?:ing|ed) )");
  static const std::regex clang(R"(:(\d+):(\d+): remark: '[^']+' inlined into )");
  std::set<Site> out;
  for (const std::regex* r : {&gcc, &clang})
    for (auto it = std::sregex_iterator(report.begin(), report.end(), *r); it != std::sregex_iterator(); ++it)
      out.insert({std::stoi((*it)[1].str()), std::stoi((*it)[2].str())});
  return out;
}

const sim::CallDecision& callTo(const trace::Trace& contexts, const sim::CompilationPlan& plan, const std::string& callee) {
  for (const auto& d : plan.calls)
    if (contexts.scopes[d.scope].function == callee) return d;
  FAIL("no call to " << callee);
  return plan.calls.front();
}

const sim::LoopDecision& loopAt(const trace::Trace& contexts, const sim::CompilationPlan& plan, int line) {
  for (const auto& d : plan.loops)
    if (static_cast<int>(contexts.scopes[d.scope].loc.line) == line) return d;
  FAIL("no loop at line " << line);
  return plan.loops.front();
}

const std::string kSizes = "tests/inputs/compiler/inline_sizes.c";

void agreeWithCompiler(const std::string& compiler, const std::string& level, const std::string& command,
                       const std::string& source = kSizes, std::size_t minSites = 15) {
  trace::Trace contexts = test::analyze({source});
  sim::CompilationPlan plan = sim::planCompilation(contexts, targetOf(compiler, level));
  std::set<Site> inlined = reportedInlined(capture("cd '" + std::string(CATS_SOURCE_DIR) + "' && " + command + " " + source + " -o /dev/null 2>&1"));
  REQUIRE(!inlined.empty());
  auto model = modelInlined(contexts, plan);
  REQUIRE(model.size() >= minSites);
  for (const auto& [site, isInlined] : model) {
    const sim::CallDecision* d = nullptr;
    for (const auto& c : plan.calls)
      if (static_cast<int>(contexts.scopes[c.scope].loc.line) == site.first && static_cast<int>(contexts.scopes[c.scope].loc.column) == site.second) d = &c;
    INFO(compiler << " -O" << level << ": call at " << site.first << ":" << site.second << " to "
                  << contexts.scopes[d->scope].function << ": model says " << d->reason);
    CHECK(isInlined == (inlined.count(site) == 1));
  }
}

}  // namespace

TEST_CASE("the inliner agrees with gcc -fopt-info-inline-optimized per call site", "[compiler-ipa]") {
  if (!haveTool("gcc")) {
    WARN("gcc is not installed: its report cannot be compared");
    return;
  }
  for (const char* level : {"1", "2"}) agreeWithCompiler("gcc", level, std::string("gcc -O") + level + " -c -fopt-info-inline-optimized");
}

TEST_CASE("the inliner agrees with clang -Rpass=inline per call site", "[compiler-ipa]") {
  if (!haveTool("clang-14")) {
    WARN("clang-14 is not installed: its remarks cannot be compared");
    return;
  }
  for (const char* level : {"2"}) agreeWithCompiler("clang", level, std::string("clang-14 -O") + level + " -c -Rpass=inline");
}

TEST_CASE("a wrapper is priced with the helper inlined into it, as both compilers inline bottom-up", "[compiler-ipa]") {
  const std::string wrappers = "tests/inputs/compiler/wrappers.c";
  if (haveTool("gcc"))
    for (const char* level : {"1", "2"})
      agreeWithCompiler("gcc", level, std::string("gcc -O") + level + " -c -fopt-info-inline-optimized", wrappers, 5);
  if (haveTool("clang-14")) agreeWithCompiler("clang", "2", "clang-14 -O2 -c -Rpass=inline", wrappers, 5);
  // Without the helper, the one-statement wrapper would be inlined by both.
  trace::Trace contexts = test::analyze({wrappers});
  for (const char* compiler : {"gcc", "clang"}) {
    sim::CompilationPlan plan = sim::planCompilation(contexts, targetOf(compiler, "2"));
    INFO(compiler);
    CHECK_FALSE(callTo(contexts, plan, "smooth").inlined);
    CHECK(callTo(contexts, plan, "smooth").reason.find("inlined calls") != std::string::npos);
  }
}

TEST_CASE("gcc -O2 inlines a call main makes once only within early-inlining-insns", "[compiler-ipa]") {
  // Expected answers: GCC 12.2's own report, quoted in the input's header. column_sum is the
  // shape of the corpus's matvec_t, which GCC keeps out of line; column_sum_r, called in a loop,
  // that of matvec, which GCC inlines.
  const std::string path = "tests/inputs/compiler/cold_calls.c";
  trace::Trace contexts = test::analyze({path});
  sim::CompilationPlan plan = sim::planCompilation(contexts, targetOf("gcc", "2"));
  std::map<std::string, bool> expected = {{"small_sum", true}, {"small_copy", true}, {"two_stores", false}, {"column_sum", false}, {"column_sum_r", true}};
  std::size_t seen = 0;
  for (const auto& d : plan.calls) {
    auto it = expected.find(contexts.scopes[d.scope].function);
    if (it == expected.end()) continue;
    ++seen;
    INFO(it->first << ": " << d.reason);
    CHECK(d.inlined == it->second);
  }
  CHECK(seen == 9);
  CHECK(callTo(contexts, plan, "column_sum").reason.rfind("call executed once (main, outside loops) and grows the caller by", 0) == 0);
  if (haveTool("gcc")) {
    std::set<Site> inlined = reportedInlined(capture("cd '" + std::string(CATS_SOURCE_DIR) + "' && gcc -O2 -c -fopt-info-inline-optimized " + path + " -o /dev/null 2>&1"));
    for (const auto& [site, isInlined] : modelInlined(contexts, plan)) {
      INFO("call at " << site.first << ":" << site.second);
      CHECK(isInlined == (inlined.count(site) == 1));
    }
  }
}

TEST_CASE("attributes decide before sizes, at every level and with -fno-inline", "[compiler-ipa]") {
  trace::Trace contexts = test::analyze({kSizes});
  for (const char* compiler : {"gcc", "clang"}) {
    for (const char* level : {"0", "2", "3"}) {
      INFO(compiler << " -O" << level);
      sim::CompilationPlan plan = sim::planCompilation(contexts, targetOf(compiler, level));
      CHECK(callTo(contexts, plan, "always").inlined);
      CHECK(callTo(contexts, plan, "always").reason == "always_inline");
      CHECK_FALSE(callTo(contexts, plan, "never").inlined);
      CHECK(callTo(contexts, plan, "never").reason == "noinline");
      CHECK(callTo(contexts, plan, "once").inlined == (std::string(level) != "0"));
    }
    sim::CompilationPlan plain = sim::planCompilation(contexts, targetOf(compiler, "2", "-fno-inline"));
    for (const auto& d : plain.calls)
      CHECK(d.inlined == (contexts.scopes[d.scope].function == "always"));
  }
}

TEST_CASE("a recursive function is not inlined", "[compiler-ipa]") {
  trace::Trace contexts = test::analyzeSource(R"(
double a[100];
static void walk(int n) { if (n > 0) { a[n] = n; walk(n - 1); } }
int main(void) { walk(99); return 0; }
)");
  sim::CompilationPlan plan = sim::planCompilation(contexts, targetOf("gcc", "2"));
  CHECK_FALSE(callTo(contexts, plan, "walk").inlined);
  CHECK(callTo(contexts, plan, "walk").reason == "recursive");
}

namespace {

const char* kConstprop = R"(
double g[1000];
void scale(int n, double *a) {
  for (int i = 0; i < n; i++) a[i] = a[i] * 2 + a[i / 2];
}
static void sscale(int n, double *a) {
  for (int i = 0; i < n; i++) a[i] = a[i] * 3 + a[i / 2];
}
void k1(void) { scale(100, g); sscale(100, g); }
void k2(void) { scale(100, g); sscale(100, g); }
int main(void) { for (int t = 0; t < 10; t++) { k1(); k2(); } return 0; }
)";

/* Functions GCC cloned as name.constprop.N when compiling "path" with "flags". */
std::set<std::string> gccClones(const std::string& path, const std::string& flags) {
  std::string object = test::tempDir() + "/k.o";
  std::string symbols = capture("gcc " + flags + " -c '" + path + "' -o '" + object + "' && nm '" + object + "'");
  std::set<std::string> out;
  static const std::regex clone(R"((\w+)\.constprop\.\d+)");
  for (auto it = std::sregex_iterator(symbols.begin(), symbols.end(), clone); it != std::sregex_iterator(); ++it) out.insert((*it)[1].str());
  return out;
}

}  // namespace

TEST_CASE("interprocedural constant propagation: static functions at -O2, GCC clones others at -O3", "[compiler-ipa]") {
  std::string path = test::writeFile(test::tempDir(), "k.c", kConstprop);
  trace::Trace contexts = test::analyze({path});
  struct Case {
    const char* compiler;
    const char* level;
    bool scale, sscale;  // parameter n fixed at 100
  };
  for (const Case& c : {Case{"gcc", "2", false, true}, Case{"gcc", "3", true, true}, Case{"clang", "2", false, true}, Case{"gcc", "1", false, false}}) {
    INFO(c.compiler << " -O" << c.level);
    sim::CompilationPlan plan = sim::planCompilation(contexts, targetOf(c.compiler, c.level, "-fno-inline"));
    for (const auto& d : plan.calls) {
      const std::string& callee = contexts.scopes[d.scope].function;
      if (callee != "scale" && callee != "sscale") continue;
      bool expected = callee == "scale" ? c.scale : c.sscale;
      INFO(callee);
      CHECK(d.constantParameters == (expected ? std::vector<std::string>{"n=100"} : std::vector<std::string>{}));
    }
    CHECK(loopAt(contexts, plan, 4).constantTrips == c.scale);
    CHECK(loopAt(contexts, plan, 7).constantTrips == c.sscale);
    if (!c.scale) CHECK(loopAt(contexts, plan, 4).tripsReason == "bound n: n is a parameter of scale, which is not inlined (called from 2 sites)");
  }
  if (haveTool("gcc")) {
    CHECK(gccClones(path, "-O2 -fno-inline") == std::set<std::string>{"sscale"});
    CHECK(gccClones(path, "-O3 -fno-inline") == std::set<std::string>{"scale", "sscale"});
  }
}

TEST_CASE("callers that pass different numbers fix nothing, nor does a global variable", "[compiler-ipa]") {
  trace::Trace differ = test::analyzeSource(R"(
double g[1000];
static void sscale(int n, double *a) { for (int i = 0; i < n; i++) a[i] = a[i] * 3 + a[i / 2]; }
int main(void) { for (int t = 0; t < 10; t++) { sscale(100, g); sscale(200, g); } return 0; }
)");
  sim::CompilationPlan plan = sim::planCompilation(differ, targetOf("gcc", "2", "-fno-inline"));
  CHECK(callTo(differ, plan, "sscale").constantParameters.empty());
  CHECK_FALSE(loopAt(differ, plan, 3).constantTrips);

  trace::Trace global = test::analyzeSource(R"(
int n = 100;
double g[1000];
static void sscale(int m, double *a) { for (int i = 0; i < m; i++) a[i] = a[i] * 3 + a[i / 2]; }
int main(void) { for (int t = 0; t < 10; t++) { sscale(n, g); sscale(n, g); } return 0; }
)");
  sim::CompilationPlan bound = sim::planCompilation(global, targetOf("gcc", "2", "-fno-inline"));
  CHECK(callTo(global, bound, "sscale").constantParameters.empty());
  for (const auto& d : bound.loops) {
    if (global.scopes[d.scope].loc.line != 4) continue;
    CHECK_FALSE(d.constantTrips);
  }
}

namespace {

const char* kMatmul = R"(
#include <stdlib.h>
#define N 48
int printf(const char *, ...); static void multiply(int n, double *A, double *B, double *C) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
}
int main(void) {
  double *A = malloc(N * N * sizeof(double)), *B = malloc(N * N * sizeof(double)), *C = calloc(N * N, sizeof(double));
  for (int i = 0; i < N * N; i++) { A[i] = i % 7; B[i] = i % 5; }
  multiply(N, A, B, C);
  printf("%f\n", C[N + 1]); free(A); free(B); free(C);
  return 0;
}
)";

}  // namespace

TEST_CASE("matmul: a static kernel called once is inlined, its trips constant and its arrays distinct", "[compiler-ipa]") {
  std::string path = test::writeFile(test::tempDir(), "matmul.c", kMatmul);
  trace::Trace contexts = test::analyze({path});
  for (const char* compiler : {"gcc", "clang"}) {
    INFO(compiler);
    sim::CompilationPlan plan = sim::planCompilation(contexts, targetOf(compiler, "2"));
    const sim::CallDecision& call = callTo(contexts, plan, "multiply");
    CHECK(call.inlined);
    for (int line : {5, 6, 7}) {
      INFO("loop at line " << line << ": " << loopAt(contexts, plan, line).tripsReason);
      CHECK(loopAt(contexts, plan, line).constantTrips);
    }
    CHECK(plan.compiledFunction(contexts, call.scope) == "main");
    sim::compiler::CompilerView view = sim::compiler::viewOfCompiler(contexts, targetOf(compiler, "2"));
    const trace::Event& a = test::findAccess(contexts, "A[i * n + k]", ir::AccessMode::Read, "multiply");
    const trace::Event& c = test::findAccess(contexts, "C[i * n + j]", ir::AccessMode::Write, "multiply");
    std::size_t ia = static_cast<std::size_t>(&a - contexts.events.data()), ic = static_cast<std::size_t>(&c - contexts.events.data());
    CHECK(view.objectOf[ia]);
    CHECK(view.objectOf[ic]);
    CHECK_FALSE(view.mayAlias(contexts, ia, ic));
  }
  sim::CompilationPlan apart = sim::planCompilation(contexts, targetOf("gcc", "2", "-fno-inline"));
  CHECK_FALSE(callTo(contexts, apart, "multiply").inlined);
  CHECK(callTo(contexts, apart, "multiply").constantParameters == std::vector<std::string>{"n=48"});
  CHECK(loopAt(contexts, apart, 5).constantTrips);  // ipa-cp: the one call passes N
  sim::CompilationPlan o1 = sim::planCompilation(contexts, targetOf("gcc", "1"));
  CHECK(loopAt(contexts, o1, 5).tripsReason == "bound n: n is a parameter of multiply, which is not inlined (called from 1 site)");
  if (haveTool("gcc")) {
    CHECK(gccClones(path, "-O2 -fno-inline") == std::set<std::string>{"multiply"});
    std::string report = capture("gcc -O2 -c -fopt-info-inline-optimized '" + path + "' -o /dev/null 2>&1");
    CHECK(reportedInlined(report).count({13, 3}) == 1);
  }
}

TEST_CASE("alias view: pointer parameters of a real function are unknown objects, restrict and types tell them apart",
          "[compiler-ipa]") {
  trace::Trace contexts = test::analyzeSource(R"(
#include <stdlib.h>
__attribute__((noinline)) void axpy(int n, double *x, double *y, int *idx, double *restrict z) {
  for (int i = 0; i < n; i++) { y[i] += x[i]; idx[i] = i; z[i] = y[i]; }
}
int main(void) {
  double *x = malloc(800), *y = malloc(800), *z = malloc(800);
  int *idx = malloc(400);
  axpy(100, x, y, idx, z);
  return 0;
}
)");
  auto index = [&](const std::string& text, ir::AccessMode mode) {
    return static_cast<std::size_t>(&test::findAccess(contexts, text, mode, "axpy") - contexts.events.data());
  };
  std::size_t x = index("x[i]", ir::AccessMode::Read), y = index("y[i]", ir::AccessMode::Write);
  std::size_t idx = index("idx[i]", ir::AccessMode::Write), z = index("z[i]", ir::AccessMode::Write);
  sim::compiler::CompilerView o2 = sim::compiler::viewOfCompiler(contexts, targetOf("gcc", "2"));
  CHECK_FALSE(o2.objectOf[x]);
  CHECK_FALSE(o2.objectOf[y]);
  CHECK(o2.mayAlias(contexts, x, y));       // two unknown double pointers
  CHECK_FALSE(o2.mayAlias(contexts, y, idx));  // double and int under strict aliasing
  CHECK(o2.restrictPointer[z]);
  CHECK_FALSE(o2.mayAlias(contexts, y, z));  // restrict
  sim::compiler::CompilerView o1 = sim::compiler::viewOfCompiler(contexts, targetOf("gcc", "1"));
  CHECK(o1.mayAlias(contexts, y, idx));  // GCC turns strict aliasing on at -O2
  sim::compiler::CompilerView loose = sim::compiler::viewOfCompiler(contexts, targetOf("gcc", "2", "-fno-strict-aliasing"));
  CHECK(loose.mayAlias(contexts, y, idx));
}

TEST_CASE("simulate reports per compiled function: inlined code counts in its caller", "[compiler-ipa][cli]") {
  std::string dir = test::tempDir();
  test::writeFile(dir, "matmul.c", kMatmul);
  auto inlined = test::runCli("simulate '" + dir + "' --D1=32768,8,64 --LL=262144,8,64 --format json");
  REQUIRE(inlined.exitCode == 0);
  auto json = nlohmann::json::parse(inlined.out);
  CHECK(json["by_function"].contains("multiply"));
  CHECK_FALSE(json["by_compiled_function"].contains("multiply"));
  CHECK(json["by_compiled_function"]["main"]["D1"]["reads"] == json["accesses"].get<std::uint64_t>() - json["totals"]["D1"]["writes"].get<std::uint64_t>());
  auto apart = test::runCli("simulate '" + dir + "' --D1=32768,8,64 --LL=262144,8,64 --cflags=-fno-inline --format json");
  REQUIRE(apart.exitCode == 0);
  CHECK(nlohmann::json::parse(apart.out)["by_compiled_function"].contains("multiply"));
  auto text = test::runCli("simulate '" + dir + "' --D1=32768,8,64 --LL=262144,8,64 --by function");
  CHECK(text.out.find("By compiled-function") != std::string::npos);
}

TEST_CASE("plain gcc -O2 matmul: reads and read misses of main agree with Cachegrind", "[compiler-ipa][cli]") {
  if (!haveTool("gcc") || !haveTool("valgrind")) {
    WARN("gcc or valgrind is not installed: nothing to compare with");
    return;
  }
  // The issue's program (a static kernel called once, heap arrays) at N = 96: GCC inlines the
  // kernel into main, its trip counts become constants and the j loop is vectorised. Before
  // the interprocedural view the model predicted twice the reads (the issue: 250.8 M instead
  // of 125.5 M at N = 500). Writes are left out here: the initialisation loop is the loop
  // half's (vectoriser) business.
  std::string dir = test::tempDir();
  std::string source = test::writeFile(dir, "mm.c", std::string(kMatmul).replace(std::string(kMatmul).find("#define N 48"), 12, "#define N 96"));
  std::string run = "gcc -O2 -g '" + source + "' -o '" + dir + "/mm' && valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 " +
                    "--LL=262144,8,64 --I1=32768,8,64 --cachegrind-out-file='" + dir + "/cg' '" + dir + "/mm' >/dev/null 2>&1 && python3 '" +
                    CATS_SOURCE_DIR + "/bench/cachegrind_misses.py' '" + dir + "/cg'";
  auto cachegrind = nlohmann::json::parse(capture(run))["main"];
  auto r = test::runCli("simulate '" + source + "' --D1=32768,8,64 --LL=262144,8,64 --format json");
  REQUIRE(r.exitCode == 0);
  auto main = nlohmann::json::parse(r.out)["by_compiled_function"]["main"];
  double reads = cachegrind["Dr"].get<double>(), misses = cachegrind["D1mr"].get<double>();
  INFO("Cachegrind main: " << cachegrind.dump() << "\nmodel main: " << main.dump());
  CHECK(std::abs(main["D1"]["reads"].get<double>() - reads) <= 0.02 * reads);
  CHECK(std::abs(main["D1"]["read_misses"].get<double>() - misses) <= 0.02 * misses);
}
