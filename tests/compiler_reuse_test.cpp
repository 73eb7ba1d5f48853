// Values the compiler keeps in a register within one iteration (docs/register-model.md,
// "Values already in a register"), pinned by what Cachegrind counts on `gcc -O2` builds of the
// same kernels (Dr/Dw of the kernel function, noted per case). Undecidable branches run both
// arms (the simulation's default policy), as in the fidelity runs.
#include "sim/compiler.hpp"
#include "sim/concretize.hpp"
#include "sim/stream.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <map>

using namespace cats;

namespace {

struct Case {
  trace::Trace contexts;
};

Case makeCase(const std::string& code, bool localScalars = false) {
  Case c;
  std::string file = test::writeFile(test::tempDir(), "kernel.c", code);
  test::AnalyzeOptions options;
  options.localScalars = localScalars;  // local accumulators: the reductions the vectoriser looks for
  c.contexts = test::analyze({file}, options);
  return c;
}

sim::CompilationPlan planFor(const Case& c, const std::string& compiler, const std::string& flags) {
  return sim::planCompilation(c.contexts, std::get<sim::CompilerTarget>(sim::parseCompilerTarget(compiler, "", flags)));
}

/// Accesses the simulation makes, by event text and mode.
struct Counts {
  std::map<std::string, std::size_t> reads, writes;
  std::map<std::string, std::map<std::uint32_t, std::size_t>> readBytes;  // by event text: accesses per size
};

Counts countAccesses(const Case& c, const std::string& compiler, const std::string& flags, const std::map<std::string, std::int64_t>& bindings = {}) {
  sim::CompilationPlan plan = planFor(c, compiler, flags);
  sim::ConcretizeOptions options;
  options.plan = &plan;
  options.model = plan.target.optLevel == 0 ? sim::RegisterModel::O0 : sim::RegisterModel::O2;
  options.bindings = bindings;
  sim::Program program = sim::concretize(c.contexts, options);
  sim::AddressStream stream(program, {});
  std::vector<sim::Record> buffer(4096);
  Counts out;
  while (std::size_t n = stream.next(buffer.data(), buffer.size()))
    for (std::size_t k = 0; k < n; ++k) {
      const std::string& text = c.contexts.events[buffer[k].tag].text;
      ++(buffer[k].write ? out.writes : out.reads)[text];
      if (!buffer[k].write) ++out.readBytes[text][buffer[k].bytes];
    }
  return out;
}

std::size_t total(const std::map<std::string, std::size_t>& counts) {
  std::size_t sum = 0;
  for (const auto& [text, n] : counts) sum += n;
  return sum;
}

bool hasDecision(const sim::CompilationPlan& plan, const Case& c, sim::AccessDecision::Kind kind, const std::string& text) {
  for (const sim::AccessDecision& d : plan.accesses)
    if (d.kind == kind && c.contexts.events[d.event].text == text) return true;
  return false;
}

}  // namespace

TEST_CASE("a branch arm reads what its condition read from a register", "[compiler][reuse][sim]") {
  // floyd_warshall's body. Cachegrind, gcc -O2: 786,434 reads = 3 per iteration (p[i][k],
  // p[k][j], p[i][j]); the arm's p[i][k] + p[k][j] is the condition's sum.
  Case fw = makeCase(
      "int p[64][64];\nvoid kernel(void) {\n  for (int k = 0; k < 64; k++)\n    for (int i = 0; i < 64; i++)\n      for (int j = 0; j < 64; j++)\n"
      "        if (p[i][k] + p[k][j] < p[i][j])\n          p[i][j] = p[i][k] + p[k][j];\n}\n");
  for (const char* compiler : {"gcc", "clang"}) {
    Counts counts = countAccesses(fw, compiler, "-O2");
    CHECK(total(counts.reads) == 786432);  // 3 per iteration
    CHECK(counts.reads["p[i][k]"] == 262144);  // 64³: reloaded every j (the store may hit it), once
  }
  CHECK(hasDecision(planFor(fw, "gcc", "-O2"), fw, sim::AccessDecision::Kind::Reused, "p[k][j]"));
  // At -O0 every read is a load.
  CHECK(total(countAccesses(fw, "gcc", "-O0").reads) == 1310720);  // 5 per iteration
}

TEST_CASE("a store between the condition and the arm that may overwrite the value forces a reload", "[compiler][reuse][sim]") {
  // Cachegrind, gcc -O2 with n = 1000 and every a[i] > 0: 2,001 reads, a[i] twice per
  // iteration, since b[i] may be a[i] (both are pointer parameters).
  Case clobber = makeCase(
      "void kernel(int n, int *a, int *b) {\n  for (int i = 0; i < n; i++)\n    if (a[i] > 0) {\n      b[i] = 1;\n      b[i + 1000] = a[i];\n    }\n}\n");
  Counts counts = countAccesses(clobber, "gcc", "-O2", {{"n", 1000}});
  CHECK(counts.reads["a[i]"] == 2000);
}

TEST_CASE("a store every arm of an if/else makes is one store per iteration", "[compiler][reuse][sim]") {
  // Cachegrind, gcc -O2: 1,999 reads (a[i] and b[i]) and 999 writes: one store of t[i] per
  // iteration whichever arm runs; the arms' a[i] and b[i] are the condition's.
  Case ifelse = makeCase(
      "int a[1000], b[1000], t[1000];\nvoid kernel(void) {\n  for (int i = 1; i < 1000; i++) {\n    if (a[i] == b[i])\n      t[i] = a[i] + 1;\n"
      "    else\n      t[i] = b[i] - 1;\n  }\n}\n");
  Counts counts = countAccesses(ifelse, "gcc", "-O2");
  CHECK(counts.writes["t[i]"] == 999);
  CHECK(total(counts.reads) == 1998);
  CHECK(hasDecision(planFor(ifelse, "gcc", "-O2"), ifelse, sim::AccessDecision::Kind::Sunk, "t[i]"));

  // Without an else, the store happens only when the condition holds: it stays in its arm.
  Case single = makeCase("int a[1000], t[1000];\nvoid kernel(void) {\n  for (int i = 0; i < 1000; i++)\n    if (a[i] > 0)\n      t[i] = a[i];\n}\n");
  CHECK_FALSE(hasDecision(planFor(single, "gcc", "-O2"), single, sim::AccessDecision::Kind::Sunk, "t[i]"));
}

TEST_CASE("a load of what the iteration just stored is the stored value", "[compiler][reuse][sim]") {
  // Cachegrind, gcc -O2: 1,002 reads, all of x; y[i] is never read back from memory.
  Case forward = makeCase(
      "double x[1000], y[1000], z[1000];\nvoid kernel(void) {\n  for (int i = 0; i < 1000; i++) {\n    y[i] = x[i] * 3.0;\n    z[i] = y[i] + x[i];\n  }\n}\n");
  for (const char* compiler : {"gcc", "clang"}) CHECK(countAccesses(forward, compiler, "-O2").reads.count("y[i]") == 0);
}

TEST_CASE("GCC's in-order reduction loads vectors when the reduced value combines several loads", "[compiler][reuse][sim]") {
  // gcc -O2: movupd a, mulpd b (both 16 bytes), then two addsd in order. Cachegrind: 1,025 reads.
  Case dot = makeCase("double a[1024], b[1024], s;\nvoid kernel(void) {\n  double sum = 0;\n  for (int i = 0; i < 1024; i++) sum += a[i] * b[i];\n  s = sum;\n}\n",
                      true);
  sim::CompilationPlan plan = planFor(dot, "gcc", "-O2");
  REQUIRE(plan.loops.size() == 1);
  CHECK(plan.loops.front().inOrderReduction);
  CHECK(plan.loops.front().vectorLoads);
  Counts counts = countAccesses(dot, "gcc", "-O2");
  CHECK(counts.readBytes["a[i]"] == std::map<std::uint32_t, std::size_t>{{16, 512}});
  CHECK(counts.readBytes["b[i]"] == std::map<std::uint32_t, std::size_t>{{16, 512}});
  // A plain sum feeds the loads to addsd directly: they stay 8 bytes.
  Case sum = makeCase("double a[1024], s;\nvoid kernel(void) {\n  double sum = 0;\n  for (int i = 0; i < 1024; i++) sum += a[i];\n  s = sum;\n}\n", true);
  CHECK_FALSE(planFor(sum, "gcc", "-O2").loops.front().vectorLoads);
  CHECK(countAccesses(sum, "gcc", "-O2").readBytes["a[i]"] == std::map<std::uint32_t, std::size_t>{{8, 1024}});
}

TEST_CASE("a read of what the previous iteration stored or (GCC) loaded stays in a register", "[compiler][reuse][sim]") {
  // A one-row Gauss-Seidel sweep. Cachegrind: gcc -O2 10,022 reads and clang-14 -O2 10,013 for
  // 10,000 iterations: a[j - 1] is the value just stored, a[j] the a[j + 1] loaded one iteration
  // before (GCC's PRE). The model gives Clang only the store forwarding (loop-load elimination):
  // Clang reuses the load too here, but not in seidel-2d's three rows (8 reads per iteration).
  Case sweep = makeCase(
      "double a[1002];\nvoid kernel(void) {\n  for (int t = 0; t < 10; t++)\n    for (int j = 1; j < 1001; j++)\n      a[j] = (a[j - 1] + a[j] + a[j + 1]) / "
      "3.0;\n}\n");
  Counts gcc = countAccesses(sweep, "gcc", "-O2");
  CHECK(total(gcc.reads) == 10000);
  CHECK(gcc.reads["a[j + 1]"] == 10000);
  CHECK(gcc.writes["a[j]"] == 10000);
  Counts clang = countAccesses(sweep, "clang", "-O2");
  CHECK(clang.reads.count("a[j - 1]") == 0);
  CHECK(clang.reads["a[j]"] == 10000);

  // The store to b may hit a (pointer parameters): gcc -O2 reads a[j - 1] again, 1,999 reads.
  Case mayAlias = makeCase("void kernel(int n, double *a, double *b) {\n  for (int j = 1; j < n; j++)\n    b[j] = a[j - 1] + a[j];\n}\n");
  CHECK(total(countAccesses(mayAlias, "gcc", "-O2", {{"n", 1000}}).reads) == 1998);
}

TEST_CASE("a call that stays a call ends what the previous iteration left in a register", "[compiler][reuse][sim]") {
  // small_funcs' column pass: put() is noinline, so the grid[i][j] it stored is read again as
  // grid[i - 1][j] in the next iteration (Cachegrind, gcc -O2: two reads per iteration in main).
  Case call = makeCase(
      "double g[64 * 64];\n__attribute__((noinline)) static void put(int i, int j, double v) { g[i * 64 + j] = v; }\nvoid kernel(void) {\n"
      "  for (int j = 0; j < 64; j++)\n    for (int i = 1; i < 64; i++)\n      put(i, j, g[(i - 1) * 64 + j] + g[i * 64 + j]);\n}\n");
  CHECK(total(countAccesses(call, "gcc", "-O2").reads) == 8064);  // 2 × 64 × 63
}
