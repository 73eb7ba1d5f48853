// The compiler target from --compiler/-O/--cflags, and the function traits the inliner reads.
#include "sim/compiler.hpp"
#include "support.hpp"
#include "tracer/trace_json.hpp"

#include <catch2/catch.hpp>

using namespace cats;

TEST_CASE("compiler targets parse from --compiler, -O and --cflags", "[compiler]") {
  auto gcc = std::get<sim::CompilerTarget>(sim::parseCompilerTarget("gcc", "", "-O2"));
  CHECK(gcc.compiler == sim::CompilerKind::Gcc);
  CHECK(gcc.optLevel == 2);
  CHECK(gcc.vectorBytes == 16);
  CHECK(gcc.label() == "gcc -O2");

  auto clang = std::get<sim::CompilerTarget>(sim::parseCompilerTarget("clang", "3", "-O2 -march=x86-64-v3 -fno-inline -g -Wall"));
  CHECK(clang.optLevel == 3);  // -O wins over the level inside --cflags
  CHECK(clang.vectorBytes == 32);
  CHECK_FALSE(clang.inlining);
  CHECK(clang.ignoredFlags == std::vector<std::string>{"-g", "-Wall"});
  CHECK(clang.label() == "clang -O3 -march=x86-64-v3 -fno-inline");

  auto fast = std::get<sim::CompilerTarget>(sim::parseCompilerTarget("gcc", "fast", ""));
  CHECK(fast.optLevel == 3);
  CHECK(fast.fastMath);

  CHECK(std::holds_alternative<std::string>(sim::parseCompilerTarget("icc", "2", "")));
  CHECK(std::holds_alternative<std::string>(sim::parseCompilerTarget("gcc", "4", "")));
  CHECK(std::holds_alternative<std::string>(sim::parseCompilerTarget("gcc", "", "-march=armv8-a")));
}

TEST_CASE("function traits reach the trace and survive its JSON", "[compiler]") {
  trace::Trace t = test::analyzeSource(R"(
static void scale(double *a, int n) { for (int i = 0; i < n; i++) a[i] *= 2.0; }
__attribute__((noinline)) void keep(double *a) { a[0] = 1.0; }
static inline __attribute__((always_inline)) void tiny(double *a) { a[1] = 0.0; }
double data[100];
int main(void) { scale(data, 100); keep(data); tiny(data); return 0; }
)");
  REQUIRE(t.functions.count("scale"));
  CHECK(t.functions["scale"].isStatic);
  CHECK_FALSE(t.functions["scale"].declaredInline);
  CHECK(t.functions["scale"].statements > 3);
  CHECK(t.functions["keep"].noInline);
  CHECK_FALSE(t.functions["keep"].isStatic);
  CHECK(t.functions["tiny"].alwaysInline);
  CHECK(t.functions["tiny"].declaredInline);
  CHECK(t.functions["main"].statements > t.functions["keep"].statements);
  trace::Trace back = trace::readTraceJson(trace::writeTraceJson(t));
  CHECK(back.functions == t.functions);
}

TEST_CASE("operations: a repeated subexpression once, a small constant loop once per iteration", "[compiler]") {
  trace::Trace t = test::analyzeSource(R"(
double w[64], x[64];
void shared(double *a, int n, int i, int j, int k) { a[i * n] = a[i * n + 1] + a[i * n + 2]; }
void distinct(double *a, int n, int i, int j, int k) { a[i * n] = a[j * n + 1] + a[k * n + 2]; }
double taps8(void) { double s = 0; for (int k = 0; k < 8; k++) s += w[k] * x[k]; return s; }
double tapsN(int n) { double s = 0; for (int k = 0; k < n; k++) s += w[k] * x[k]; return s; }
double taps64(void) { double s = 0; for (int k = 0; k < 64; k++) s += w[k] * x[k] + w[k] / x[k]; return s; }
void zero16(double *a) { for (int k = 0; k < 16; k++) a[k] = 0; }
void zeroN(double *a, int n) { for (int k = 0; k < n; k++) a[k] = 0; }
int main(void) { return 0; }
)");
  auto ops = [&](const char* f) { return t.functions.at(f).operations; };
  auto statements = [&](const char* f) { return t.functions.at(f).statements; };
  // The same text size; the row offset i * n computed once (j * n and k * n are two more).
  CHECK(statements("shared") == statements("distinct"));
  CHECK(ops("shared") + 2 == ops("distinct"));
  // Eight copies of the load-load-multiply-add body; with a bound n the loop stays a loop.
  CHECK(statements("taps8") == statements("tapsN") + 1);  // the literal 8 for n
  CHECK(ops("taps8") >= 32);  // 8 copies of 4 operations
  CHECK(ops("tapsN") < 12);
  // Too many copies (64 x 8 operations over LLVM's 150) stay a loop too.
  CHECK(ops("taps64") < 20);
  // A zeroing loop becomes memset before the unroller sees it.
  CHECK(ops("zero16") == ops("zeroN"));
}

TEST_CASE("simulate names the compiler it models, and --model stays an alias", "[compiler][cli]") {
  auto r = test::runCli("simulate examples/transpose -D N=64 --compiler clang -O3 --cflags=-march=native");
  CHECK(r.exitCode == 0);
  CHECK(r.out.find("model clang -O3 -march=native") != std::string::npos);
  CHECK(test::runCli("simulate examples/transpose -D N=64 --model O0").out.find("model gcc -O0") != std::string::npos);
  auto both = test::runCli("simulate examples/transpose -D N=64 --model O0 -O2");
  CHECK(both.exitCode == 2);
  CHECK(both.err.find("--model") != std::string::npos);
  CHECK(test::runCli("simulate examples/transpose -D N=64 --cflags=-march=armv8-a").exitCode == 2);
}
