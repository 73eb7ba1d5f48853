// --compile-cmd: the compilers' own reports read (golden text recorded from GCC 12.2 and Clang
// 14.0.6 on this machine), matched to the model's loops and calls, and the whole command run
// with the real compilers, a missing one, a failing one and one that prints garbage.
#include "sim/compiler_report.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

using namespace cats;

namespace {

// gcc -O3 -c v.c -fopt-info-vec-optimized -fopt-info-vec-missed -fopt-info-inline-optimized -fopt-info-inline-missed
const char* const kGccV = R"(v.c:13:3: optimized:  Inlining axpy/0 into main/3.
v.c:14:3: missed:   not inlinable: main/3 -> big/1, function not inlinable
v.c:2:21: optimized: loop vectorized using 16 byte vectors
v.c:2:21: optimized:  loop versioned for vectorization because of possible aliasing
v.c:2:21: optimized: loop vectorized using 8 byte vectors
v.c:6:21: optimized: loop vectorized using 16 byte vectors
v.c:9:40: optimized: basic block part vectorized using 16 byte vectors
v.c:2:21: optimized: loop vectorized using 16 byte vectors
v.c:12:21: missed: couldn't vectorize loop
v.c:12:68: missed: not vectorized: complicated access pattern.
v.c:12:51: optimized: loop vectorized using 16 byte vectors
v.c:14:3: missed: statement clobbers memory: big (&y, 100);
)";

// The source of kGccV; line 12 holds two loops (GCC names each by its condition's column).
const char* const kSourceV = R"(void axpy(float *y, const float *x, float a, int n) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}
__attribute__((noinline)) void big(float *y, int n) {
  for (int i = 0; i < n; i++) y[i] = i;
}
struct P { double x, y; };
void slp(struct P *p, double a) { p->x *= a; p->y *= a; }
int main(void) {
  static float y[100], x[100];
  for (int j = 0; j < 100; j++) for (int i = 0; i < 100; i++) y[i] += x[j];
  axpy(y, x, 2, 100);
  big(y, 100);
  return 0;
}
)";

// clang-14 -O2 -c k.c '-Rpass=loop-vectorize|inline' '-Rpass-missed=loop-vectorize|inline' -fno-caret-diagnostics
const char* const kClangK = R"(k.c:25:3: remark: 'add' inlined into 'main' with (cost=-14990, threshold=225) at callsite main:1:3; [-Rpass=inline]
k.c:27:14: remark: 'sum' inlined into 'main' with (cost=-15, threshold=225) at callsite main:3:14; [-Rpass=inline]
k.c:13:3: remark: loop not vectorized [-Rpass-missed=loop-vectorize]
k.c:19:3: remark: vectorized loop (vectorization width: 4, interleaved count: 2) [-Rpass=loop-vectorize]
k.c:26:3: remark: the cost-model indicates that vectorization is not beneficial [-Rpass-missed=loop-vectorize]
k.c:26:3: remark: the cost-model indicates that interleaving is not beneficial [-Rpass-missed=loop-vectorize]
v.c:14:3: remark: 'big' not inlined into 'main' because it should never be inlined (cost=never): noinline function attribute [-Rpass-missed=inline]
)";

sim::ReportedDecisions parse(const std::string& text) {
  sim::ReportedDecisions r;
  sim::parseCompilerReport(text, r);
  return r;
}

/* "text" with every "from:" position renamed to "to:" (a recorded report over a fresh file). */
std::string renamed(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = 0; (at = text.find(from + ":", at)) != std::string::npos; at += to.size()) text.replace(at, from.size(), to);
  return text;
}

const sim::LoopDecision& loopAt(const trace::Trace& t, const sim::CompilationPlan& plan, unsigned line, unsigned column) {
  for (const trace::Scope& s : t.scopes)
    if (s.kind == trace::ScopeKind::Loop && s.loc.line == line && s.loc.column == column) return *plan.loop(s.id);
  FAIL("no loop at " << line << ":" << column);
  throw;
}

const sim::CallDecision& callOf(const trace::Trace& t, const sim::CompilationPlan& plan, const std::string& callee) {
  for (const trace::Scope& s : t.scopes)
    if (s.kind == trace::ScopeKind::Call && s.function == callee) return *plan.call(s.id);
  FAIL("no call of " << callee);
  throw;
}

bool haveProgram(const std::string& name) { return std::system(("command -v " + name + " >/dev/null 2>&1").c_str()) == 0; }

/* The compiler's report on "file", as --compile-cmd runs it (report flags, stderr kept). */
sim::ReportedDecisions reportOf(const std::string& compiler, const std::string& flags, sim::CompilerKind kind, const std::string& file) {
  std::string command = compiler + " " + flags;
  for (const std::string& f : sim::reportFlags(kind)) command += " '" + f + "'";
  std::string err = test::tempDir() + "/stderr";
  command += " -c '" + file + "' -o /dev/null 2>'" + err + "'";
  REQUIRE(std::system(command.c_str()) == 0);
  sim::ReportedDecisions r = parse(test::readFile(err));
  r.command = compiler + " " + flags;
  return r;
}

}  // namespace

TEST_CASE("GCC 12's -fopt-info lines read into loops and calls", "[compile-cmd]") {
  sim::ReportedDecisions r = parse(kGccV);
  REQUIRE(r.loops.size() == 8);  // five vectorised copies, one versioning line, one SLP statement, one missed loop
  CHECK(r.loops[0].loc == ir::SourceLoc{"v.c", 2, 21});
  CHECK(r.loops[0].vectorized);
  CHECK(r.loops[0].vectorBytes == 16);
  CHECK(r.loops[1].versioned);
  CHECK(r.loops[2].vectorBytes == 8);
  CHECK(r.loops[4].straightLine);
  CHECK(r.loops[4].loc == ir::SourceLoc{"v.c", 9, 40});
  CHECK(r.loops[6].loc == ir::SourceLoc{"v.c", 12, 21});
  CHECK_FALSE(r.loops[6].vectorized);
  CHECK(r.loops[7].loc.column == 51);
  REQUIRE(r.calls.size() == 2);
  CHECK(r.calls[0].callee == "axpy");
  CHECK(r.calls[0].caller == "main");
  CHECK(r.calls[0].inlined);
  CHECK(r.calls[0].loc == ir::SourceLoc{"v.c", 13, 3});
  CHECK(r.calls[1].callee == "big");
  CHECK_FALSE(r.calls[1].inlined);

  sim::ReportedDecisions clones = parse("m.c:30:5: optimized: Inlined multiply.constprop.0/12 into main/1 which now has time 9.5\n"
                                        "m.c:31:5: optimized:  Inlining dot.part.0/3 into kernel.isra.0/7.\r\n");
  REQUIRE(clones.calls.size() == 2);
  CHECK(clones.calls[0].callee == "multiply");
  CHECK(clones.calls[1].callee == "dot");
  CHECK(clones.calls[1].caller == "kernel");
}

TEST_CASE("Clang 14's remarks read into loops with width and interleave, and calls", "[compile-cmd]") {
  sim::ReportedDecisions r = parse(kClangK);
  REQUIRE(r.loops.size() == 3);  // "interleaving is not beneficial" says nothing about vectorising
  CHECK(r.loops[0].loc == ir::SourceLoc{"k.c", 13, 3});
  CHECK_FALSE(r.loops[0].vectorized);
  CHECK(r.loops[1].vectorized);
  CHECK(r.loops[1].vectorFactor == 4);
  CHECK(r.loops[1].interleave == 2);
  CHECK_FALSE(r.loops[1].saysVersioning);
  CHECK_FALSE(r.loops[2].vectorized);
  REQUIRE(r.calls.size() == 3);
  CHECK(r.calls[0].callee == "add");
  CHECK(r.calls[0].caller == "main");
  CHECK(r.calls[1].loc == ir::SourceLoc{"k.c", 27, 14});
  CHECK(r.calls[2].callee == "big");
  CHECK_FALSE(r.calls[2].inlined);
}

TEST_CASE("report text that is not a report line is skipped, whatever it holds", "[compile-cmd]") {
  const char* const lines[] = {
      "",
      ":::: optimized: : : :",
      "k.c:1:2:",
      "k.c: optimized: loop vectorized using 16 byte vectors",
      ":12:3: optimized: loop vectorized using 16 byte vectors",
      "k.c:99999999999:3: optimized: loop vectorized using 16 byte vectors",
      "k.c:1:2: remark: '",
      "k.c:1:2: remark: '' inlined into 'main'",
      "k.c:1:2: remark: 'f' inlined into 'main",
      "k.c:1:2: optimized: Inlining  into main/1.",
      "k.c:1:2: missed: not inlinable: -> f/1",
      "k.c:1:2: error: expected ';'",
      "In file included from k.c:1:",
      "\x01\xff\xfe:1:2: remark: \x80",
  };
  for (const char* line : lines) {
    INFO(line);
    sim::ReportedDecisions r = parse(line);
    CHECK(r.loops.empty());
    CHECK(r.calls.empty());
  }
  sim::ReportedDecisions huge = parse("k.c:7:3: remark: vectorized loop (vectorization width: 99999999999, interleaved count: -3)");
  REQUIRE(huge.loops.size() == 1);
  CHECK(huge.loops[0].vectorFactor <= 999999);
  CHECK(huge.loops[0].interleave == 0);
  sim::ReportedDecisions noColumn = parse("dir:with:colons/k.c:7: optimized: loop vectorized using 32 byte vectors");
  REQUIRE(noColumn.loops.size() == 1);
  CHECK(noColumn.loops[0].loc == ir::SourceLoc{"dir:with:colons/k.c", 7, 0});
  CHECK(parse("k.c:x:2: optimized: loop vectorized using 16 byte vectors").loops.at(0).loc == ir::SourceLoc{"k.c:x", 2, 0});
}

TEST_CASE("reported loops and calls override the model where they speak, by position", "[compile-cmd]") {
  trace::Trace t = test::analyzeSource(kSourceV);
  REQUIRE(t.files.size() == 1);
  sim::ReportedDecisions r = parse(renamed(kGccV, "v.c", t.files[0]));
  r.command = "gcc -O3";
  auto target = std::get<sim::CompilerTarget>(sim::parseCompilerTarget("gcc", "3", ""));
  sim::CompilationPlan model = sim::planCompilation(t, target);
  sim::CompilationPlan plan = sim::planCompilation(t, target, &r);

  const sim::LoopDecision& outer = loopAt(t, plan, 12, 3);
  const sim::LoopDecision& inner = loopAt(t, plan, 12, 33);
  CHECK(outer.source == sim::DecisionSource::Report);
  CHECK(outer.vectorFactor == 1);
  CHECK(inner.source == sim::DecisionSource::Report);
  CHECK(inner.vectorFactor == 4);  // 16 byte vectors of 4-byte floats
  CHECK(inner.vectorBytes == 16);
  CHECK(outer.vectorBytes == 0);
  CHECK(inner.reason.find("loop vectorized using 16 byte vectors") != std::string::npos);
  CHECK_FALSE(inner.scalarEpilogue);  // 100 iterations, 4 per vector iteration
  const sim::LoopDecision& axpy = loopAt(t, plan, 2, 3);
  CHECK(axpy.source == sim::DecisionSource::Report);
  CHECK(axpy.vectorFactor == 4);  // the widest copy, not the 8-byte epilogue
  CHECK(axpy.runtimeAliasCheck);

  CHECK(callOf(t, plan, "axpy").inlined);
  CHECK(callOf(t, plan, "axpy").source == sim::DecisionSource::Report);
  CHECK_FALSE(callOf(t, plan, "big").inlined);
  CHECK(callOf(t, plan, "big").source == sim::DecisionSource::Report);
  REQUIRE(plan.notes.size() == 1);
  CHECK(plan.notes[0].find("4 loop decision(s) from the compiler's report, 0 from the model") != std::string::npos);

  sim::ReportedDecisions one = parse(renamed("v.c:12:51: optimized: loop vectorized using 16 byte vectors\n", "v.c", t.files[0]));
  sim::CompilationPlan partly = sim::planCompilation(t, target, &one);
  CHECK(loopAt(t, partly, 12, 33).source == sim::DecisionSource::Report);
  for (const sim::LoopDecision& d : partly.loops) {
    if (d.source == sim::DecisionSource::Report) continue;
    const sim::LoopDecision* m = model.loop(d.scope);
    REQUIRE(m);
    CHECK(d.vectorFactor == m->vectorFactor);
    CHECK(d.reason == m->reason);
  }
  for (const sim::CallDecision& d : partly.calls) CHECK(d.source == sim::DecisionSource::Model);
  CHECK(partly.notes[0].find("1 loop decision(s) from the compiler's report, 3 from the model") != std::string::npos);
}

TEST_CASE("GCC -O2 on the issue's matrix multiply: the kernel inlined, the j loop vectorised around a scalar k loop", "[compile-cmd]") {
  // gcc -O2 -c mm.c -fopt-info-vec-optimized -fopt-info-vec-missed -fopt-info-inline-optimized -fopt-info-inline-missed
  const char* const report = R"(mm.c:16:3: missed:   not inlinable: main/23 -> printf/25, function body not available
mm.c:15:3: optimized:  Inlined multiply.constprop/27 into main/23 which now has time 9816.887466 and size 59, net change of -8.
mm.c:4:21: missed: couldn't vectorize loop
mm.c:4:21: missed: not vectorized: multiple nested loops.
mm.c:5:23: optimized: loop vectorized using 16 byte vectors
mm.c:7:25: missed: couldn't vectorize loop
mm.c:7:25: missed: outer-loop already vectorized.
mm.c:14:21: optimized: loop vectorized using 16 byte vectors
)";
  trace::Trace t = test::analyzeSource(R"(#include <stdlib.h>
#include <stdio.h>
static void multiply(int n, const double *a, const double *b, double *c) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
      c[i * n + j] = s;
    }
}
int main(void) {
  int n = 500;
  double *a = malloc(sizeof(double) * n * n), *b = malloc(sizeof(double) * n * n), *c = malloc(sizeof(double) * n * n);
  for (int i = 0; i < n * n; i++) { a[i] = i; b[i] = 2 * i; }
  multiply(n, a, b, c);
  printf("%f\n", c[7]);
  free(a); free(b); free(c);
  return 0;
}
)");
  sim::ReportedDecisions r = parse(renamed(report, "mm.c", t.files.at(0)));
  r.command = "gcc -O2";
  auto target = std::get<sim::CompilerTarget>(sim::parseCompilerTarget("gcc", "2", ""));
  sim::CompilationPlan plan = sim::planCompilation(t, target, &r);
  CHECK(callOf(t, plan, "multiply").inlined);
  CHECK(callOf(t, plan, "multiply").source == sim::DecisionSource::Report);
  CHECK(loopAt(t, plan, 4, 3).vectorFactor == 1);
  CHECK(loopAt(t, plan, 5, 5).vectorFactor == 2);  // 16 byte vectors over c[i * n + j], 8 bytes
  CHECK(loopAt(t, plan, 7, 7).vectorFactor == 1);
  CHECK(loopAt(t, plan, 14, 3).vectorFactor == 2);
  for (const sim::LoopDecision& d : plan.loops) CHECK(d.source == sim::DecisionSource::Report);
  CHECK(plan.notes.at(0).find("(1 reported position(s) name no analysed loop or call)") != std::string::npos);  // printf
}

TEST_CASE("an SLP report marks the reported loop around its statement", "[compile-cmd]") {
  // clang-14 -O2 -c s.c '-Rpass=loop-vectorize|slp-vectorizer|inline' ... (both copies of the loop)
  const char* const report = R"(s.c:7:3: remark: 'scale' inlined into 'main' with (cost=20, threshold=225) at callsite main:1:3; [-Rpass=inline]
s.c:4:3: remark: vectorized loop (vectorization width: 2, interleaved count: 1) [-Rpass=loop-vectorize]
s.c:4:40: remark: Stores SLP vectorized with cost -3 and with tree size 4 [-Rpass=slp-vectorizer]
s.c:4:3: remark: vectorized loop (vectorization width: 2, interleaved count: 1) [-Rpass=loop-vectorize]
)";
  trace::Trace t = test::analyzeSource(R"(struct P { double x, y; };
struct P pts[1000];
void scale(struct P *p, int n, double a) {
  for (int i = 0; i < n; i++) { p[i].x *= a; p[i].y *= a; }
}
int main(int argc, char **argv) {
  scale(pts, argc * 100, 2.0);
  return 0;
}
)");
  sim::ReportedDecisions r = parse(renamed(report, "s.c", t.files.at(0)));
  REQUIRE(r.loops.size() == 3);
  CHECK(r.loops[1].straightLine);
  auto target = std::get<sim::CompilerTarget>(sim::parseCompilerTarget("clang", "2", ""));
  sim::CompilationPlan plan = sim::planCompilation(t, target, &r);
  const sim::LoopDecision& loop = loopAt(t, plan, 4, 3);
  CHECK(loop.source == sim::DecisionSource::Report);
  CHECK(loop.vectorFactor == 2);
  CHECK(loop.vectorBytes == 16);  // width 2 of 8-byte doubles
  CHECK(loop.interleave == 1);
  CHECK(loop.slp);
  CHECK(loop.scalarEpilogue);  // argc * 100 iterations: not known when compiling
  CHECK(loop.reason.find("Stores SLP vectorized") != std::string::npos);
  CHECK(plan.notes.at(0).find("1 loop decision(s) from the compiler's report, 0 from the model") != std::string::npos);
}

namespace {

// A vectorised loop (add: constant trips, distinct arrays), a loop no compiler vectorises
// (an indirect read-modify-write), and calls inlined into main. The arrays are not static: GCC
// would see that b and c stay zero and make add a memset, and say nothing of the loop.
const char* const kSmall = R"(#define N 1024
float a[N], b[N], c[N];
int hist[N], idx[N];
static void add(void) {
  for (int i = 0; i < N; i++) a[i] = b[i] + c[i];
}
static void count(void) {
  for (int i = 0; i < N; i++) hist[idx[i]] += 1;
}
int main(void) {
  add();
  count();
  return (int)a[1] + hist[2];
}
)";

void checkSmallPlan(const std::string& compiler, sim::CompilerKind kind) {
  std::string file = test::writeFile(test::tempDir(), "small.c", kSmall);
  trace::Trace t = test::analyze({file});
  sim::ReportedDecisions r = reportOf(compiler, "-O2", kind, file);
  auto target = std::get<sim::CompilerTarget>(sim::parseCompilerTarget(std::string(sim::toString(kind)), "2", ""));
  sim::CompilationPlan plan = sim::planCompilation(t, target, &r);
  const sim::LoopDecision& add = loopAt(t, plan, 5, 3);
  CHECK(add.source == sim::DecisionSource::Report);
  CHECK(add.vectorFactor == 4);
  const sim::LoopDecision& count = loopAt(t, plan, 8, 3);
  CHECK(count.source == sim::DecisionSource::Report);
  CHECK(count.vectorFactor == 1);
  CHECK(callOf(t, plan, "add").inlined);
  CHECK(callOf(t, plan, "add").source == sim::DecisionSource::Report);
  CHECK(callOf(t, plan, "count").inlined);
}

// Nothing the simulation would call approximate: the notes are the report's own.
const char* const kPlain = R"(#define N 1024
float a[N], b[N], c[N];
static void add(void) {
  for (int i = 0; i < N; i++) a[i] = b[i] + c[i];
}
int main(void) {
  add();
  return (int)a[1];
}
)";

}  // namespace

TEST_CASE("the real GCC's report decides a vectorised loop, a scalar one and inlined calls", "[compile-cmd]") {
  if (!haveProgram("gcc")) WARN("gcc is not installed: skipped");
  else checkSmallPlan("gcc", sim::CompilerKind::Gcc);
}

TEST_CASE("the real Clang's report decides a vectorised loop, a scalar one and inlined calls", "[compile-cmd]") {
  if (!haveProgram("clang-14")) WARN("clang-14 is not installed: skipped");
  else checkSmallPlan("clang-14", sim::CompilerKind::Clang);
}

TEST_CASE("simulate --compile-cmd says which decisions came from the compiler", "[compile-cmd][cli]") {
  if (!haveProgram("gcc")) {
    WARN("gcc is not installed: skipped");
    return;
  }
  std::string file = test::writeFile(test::tempDir(), "plain.c", kPlain);
  auto r = test::runCli("simulate '" + file + "' --compile-cmd 'gcc -O2 -march=x86-64-v3 -o prog " + file + "'");
  CHECK(r.exitCode == 0);
  CHECK(r.out.find("model gcc -O2 -march=x86-64-v3") != std::string::npos);
  CHECK(r.out.find("`gcc -O2 -march=x86-64-v3 -o prog " + file + "`: 1 loop decision(s) from the compiler's report, 0 from the model") !=
        std::string::npos);
  CHECK(r.out.find("approximate") == std::string::npos);
  auto lto = test::runCli("simulate '" + file + "' --compile-cmd 'gcc -O2 -flto=auto'");
  CHECK(lto.out.find("1 loop decision(s) from the compiler's report, 0 from the model") != std::string::npos);
  auto json = test::runCli("simulate '" + file + "' --format json --compile-cmd 'gcc -O2'");
  CHECK(json.out.find("loop decision(s) from the compiler's report") != std::string::npos);
}

TEST_CASE("a missing, failing or babbling compiler under --compile-cmd warns and leaves the model to decide", "[compile-cmd][cli]") {
  std::string dir = test::tempDir();
  std::string file = test::writeFile(dir, "plain.c", kPlain);

  auto missing = test::runCli("simulate '" + file + "' --compile-cmd 'gcc-not-installed -O2'");
  CHECK(missing.exitCode == 0);
  CHECK(missing.err.find("warning: --compile-cmd: `gcc-not-installed -O2` on " + file + ": cannot run 'gcc-not-installed'") !=
        std::string::npos);
  CHECK(missing.out.find("0 loop decision(s) from the compiler's report, 1 from the model") != std::string::npos);
  CHECK(missing.out.find("approximate") != std::string::npos);

  if (haveProgram("gcc")) {
    auto failing = test::runCli("simulate '" + file + "' --compile-cmd 'gcc -O2 -fno-such-flag'");
    CHECK(failing.exitCode == 0);
    CHECK(failing.err.find("exit code 1") != std::string::npos);
    CHECK(failing.err.find("-fno-such-flag") != std::string::npos);
  }

  std::string fake = test::writeFile(dir, "gcc-babbling",
                                     "#!/bin/sh\nhead -c 4000 /dev/zero | tr '\\000' '\\377' >&2\nprintf '\\001:2: remark: \\200\\n::: missed:\\n' >&2\n"
                                     "echo 'plain.c:4:9999: optimized: loop vectorized using 7 byte vectors' >&2\n"
                                     "echo 'nowhere.c:1:1: optimized:  Inlining add/1 into main/2.' >&2\n");
  std::filesystem::permissions(fake, std::filesystem::perms::owner_exec, std::filesystem::perm_options::add);
  auto babbling = test::runCli("simulate '" + file + "' --compile-cmd \"'" + fake + "' -O2\"");
  CHECK(babbling.exitCode == 0);
  CHECK(babbling.out.find("reported position(s) name no analysed loop or call") != std::string::npos);

  CHECK(test::runCli("simulate '" + file + "' --compile-cmd 'icc -O2'").exitCode == 2);
  CHECK(test::runCli("simulate '" + file + "' --compile-cmd \"gcc '-O2\"").exitCode == 2);
  auto both = test::runCli("simulate '" + file + "' --compile-cmd 'gcc -O2' -O3");
  CHECK(both.exitCode == 2);
  CHECK(both.err.find("--compile-cmd") != std::string::npos);
}
