// The loop decisions of the compiler model against the compilers themselves: each small source
// is compiled here with GCC's -fopt-info-vec-optimized or Clang's -Rpass=loop-vectorize, and the
// model's LoopDecision for every loop must say what the compiler's report says (vectorised or
// not, the vector size for GCC, the width and interleave count for Clang).
#include "sim/compiler.hpp"
#include "sim/concretize.hpp"
#include "sim/stream.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <map>
#include <memory>
#include <regex>

using namespace cats;

namespace {

/// What a compiler's report says about the loop on one source line.
struct Reported {
  int bytes = 0;       // GCC: "using N byte vectors"
  int width = 0;       // Clang: "vectorization width: W"
  int interleave = 0;  // Clang: "interleaved count: I"
  bool versioned = false;
};

std::string run(const std::string& command) {
  std::string out;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen((command + " 2>&1").c_str(), "r"), pclose);
  if (!pipe) return out;
  char buffer[512];
  while (fgets(buffer, sizeof buffer, pipe.get())) out += buffer;
  return out;
}

bool have(const std::string& tool) { return run("command -v " + tool + " >/dev/null && echo yes").find("yes") != std::string::npos; }

std::string clangTool() { return have("clang-14") ? "clang-14" : "clang"; }

/* The vectorised loops, by line, that "gcc FLAGS" reports for "file". */
std::map<int, Reported> gccReport(const std::string& file, const std::string& flags) {
  std::map<int, Reported> out;
  std::string text = run("gcc " + flags + " -c " + file + " -o /dev/null -fopt-info-vec-optimized");
  static const std::regex vectorized(R"(:(\d+):\d+: optimized: loop vectorized using (\d+) byte vectors)");
  static const std::regex versioned(R"(:(\d+):\d+: optimized: +loop versioned for vectorization)");
  for (std::sregex_iterator it(text.begin(), text.end(), vectorized), end; it != end; ++it)
    out[std::stoi((*it)[1])].bytes = std::stoi((*it)[2]);
  for (std::sregex_iterator it(text.begin(), text.end(), versioned), end; it != end; ++it) out[std::stoi((*it)[1])].versioned = true;
  return out;
}

/* The vectorised loops, by line, that Clang's loop vectoriser reports for "file". */
std::map<int, Reported> clangReport(const std::string& file, const std::string& flags) {
  std::map<int, Reported> out;
  std::string text = run(clangTool() + " " + flags + " -c " + file + " -o /dev/null -Rpass=loop-vectorize");
  static const std::regex vectorized(R"(:(\d+):\d+: remark: vectorized loop \(vectorization width: (\d+), interleaved count: (\d+)\))");
  for (std::sregex_iterator it(text.begin(), text.end(), vectorized), end; it != end; ++it) {
    Reported& r = out[std::stoi((*it)[1])];
    r.width = std::stoi((*it)[2]);
    r.interleave = std::stoi((*it)[3]);
  }
  return out;
}

struct Case {
  std::string code;
  std::string file;
  trace::Trace contexts;
};

Case makeCase(const std::string& code) {
  Case c;
  c.code = code;
  c.file = test::writeFile(test::tempDir(), "kernel.c", code);
  test::AnalyzeOptions options;
  options.scalars = true;       // global accumulators
  options.localScalars = true;  // local accumulators: the reductions the vectoriser looks for
  c.contexts = test::analyze({c.file}, options);
  return c;
}

sim::CompilationPlan planFor(const Case& c, const std::string& compiler, const std::string& flags) {
  return sim::planCompilation(c.contexts, std::get<sim::CompilerTarget>(sim::parseCompilerTarget(compiler, "", flags)));
}

/* Every loop of the model against GCC's report for "flags"; returns how many loops GCC vectorised. */
int agreeWithGcc(const Case& c, const std::string& flags) {
  sim::CompilationPlan plan = planFor(c, "gcc", flags);
  std::map<int, Reported> reported = gccReport(c.file, flags);
  for (const sim::LoopDecision& d : plan.loops) {
    int line = c.contexts.scopes[d.scope].loc.line;
    auto it = reported.find(line);
    INFO("gcc " << flags << ", loop at line " << line << ": " << d.reason);
    CHECK((d.vectorFactor > 1 || d.slp) == (it != reported.end()));
    if (it == reported.end()) continue;
    CHECK(d.vectorBytes == it->second.bytes);
    CHECK(d.runtimeAliasCheck == it->second.versioned);
  }
  return static_cast<int>(reported.size());
}

/* Every loop of the model against Clang's remarks for "flags"; returns how many loops Clang vectorised. */
int agreeWithClang(const Case& c, const std::string& flags) {
  sim::CompilationPlan plan = planFor(c, "clang", flags);
  std::map<int, Reported> reported = clangReport(c.file, flags);
  for (const sim::LoopDecision& d : plan.loops) {
    int line = c.contexts.scopes[d.scope].loc.line;
    auto it = reported.find(line);
    INFO(clangTool() << " " << flags << ", loop at line " << line << ": " << d.reason);
    CHECK((d.vectorFactor > 1) == (it != reported.end()));
    if (it == reported.end()) continue;
    CHECK(d.vectorFactor == it->second.width);
    CHECK(d.interleave == it->second.interleave);
  }
  return static_cast<int>(reported.size());
}

const sim::LoopDecision& onlyLoop(const sim::CompilationPlan& plan) {
  REQUIRE(plan.loops.size() == 1);
  return plan.loops.front();
}

}  // namespace

TEST_CASE("GCC -O2 vectorises a constant trip count that is a multiple of the factor, and only that", "[compiler][loops]") {
  if (!have("gcc")) return;
  Case multiple = makeCase("double a[1024], b[1024], c[1024];\nvoid kernel(void) {\n  for (int i = 0; i < 1024; i++) a[i] = b[i] + c[i];\n}\n");
  CHECK(agreeWithGcc(multiple, "-O2") == 1);
  CHECK(agreeWithGcc(multiple, "-O2 -march=x86-64-v3") == 1);
  CHECK(onlyLoop(planFor(multiple, "gcc", "-O2 -march=x86-64-v3")).vectorFactor == 4);
  CHECK(agreeWithGcc(multiple, "-O1") == 0);

  Case odd = makeCase("double a[1023], b[1023], c[1023];\nvoid kernel(void) {\n  for (int i = 0; i < 1023; i++) a[i] = b[i] + c[i];\n}\n");
  CHECK(agreeWithGcc(odd, "-O2") == 0);
  CHECK(agreeWithGcc(odd, "-O3") == 1);
  CHECK(onlyLoop(planFor(odd, "gcc", "-O3")).scalarEpilogue);

  Case unknown = makeCase("double a[4096], b[4096];\nvoid kernel(int n) {\n  for (int i = 0; i < n; i++) a[i] = b[i] * 2.0;\n}\n");
  CHECK(agreeWithGcc(unknown, "-O2") == 0);
  CHECK(agreeWithGcc(unknown, "-O3") == 1);
}

TEST_CASE("GCC vectorises the outer j loop of matrix multiply (the k loop carries the sum); Clang only innermost loops", "[compiler][loops]") {
  if (!have("gcc")) return;
  Case mm = makeCase(
      "double A[64][64], B[64][64], C[64][64];\nvoid kernel(void) {\n  for (int i = 0; i < 64; i++)\n    for (int j = 0; j < 64; j++)\n      for (int k = 0; "
      "k < 64; k++) C[i][j] += A[i][k] * B[k][j];\n}\n");
  CHECK(agreeWithGcc(mm, "-O2") == 1);
  CHECK(agreeWithGcc(mm, "-O3") == 1);
  for (const sim::LoopDecision& d : planFor(mm, "clang", "-O2").loops) CHECK(d.vectorFactor == 1);
}

TEST_CASE("GCC: pointers that may alias need versioning (-O3 only), restrict and distinct arrays do not", "[compiler][loops]") {
  if (!have("gcc")) return;
  Case params = makeCase("void kernel(double *a, double *b, double *c) {\n  for (int i = 0; i < 1024; i++) a[i] = b[i] + c[i];\n}\n");
  CHECK(agreeWithGcc(params, "-O2") == 0);
  CHECK(agreeWithGcc(params, "-O3") == 1);
  CHECK(onlyLoop(planFor(params, "gcc", "-O3")).runtimeAliasCheck);

  Case restricted = makeCase(
      "void kernel(double *restrict a, double *restrict b, double *restrict c) {\n  for (int i = 0; i < 1024; i++) a[i] = b[i] + c[i];\n}\n");
  CHECK(agreeWithGcc(restricted, "-O2") == 1);
  CHECK_FALSE(onlyLoop(planFor(restricted, "gcc", "-O3")).runtimeAliasCheck);
}

TEST_CASE("GCC: float and double factors, reductions and SLP groups", "[compiler][loops]") {
  if (!have("gcc")) return;
  Case floats = makeCase("float a[1024], b[1024], c[1024];\nvoid kernel(void) {\n  for (int i = 0; i < 1024; i++) a[i] = b[i] + c[i];\n}\n");
  CHECK(agreeWithGcc(floats, "-O2") == 1);
  CHECK(onlyLoop(planFor(floats, "gcc", "-O2")).vectorFactor == 4);

  // GCC keeps a floating-point sum in order (fold-left): its report says vectorised, the loads stay scalar.
  Case fsum = makeCase("double a[1024]; double s;\nvoid kernel(void) {\n  for (int i = 0; i < 1024; i++) s += a[i];\n}\n");
  CHECK(agreeWithGcc(fsum, "-O2") == 1);
  CHECK(onlyLoop(planFor(fsum, "gcc", "-O2")).inOrderReduction);
  CHECK_FALSE(onlyLoop(planFor(fsum, "gcc", "-O2 -ffast-math")).inOrderReduction);
  Case local = makeCase("double a[1024]; double s;\nvoid kernel(void) {\n  double sum = 0;\n  for (int i = 0; i < 1024; i++) sum += a[i];\n  s = sum;\n}\n");
  CHECK(agreeWithGcc(local, "-O2") == 1);
  CHECK(onlyLoop(planFor(local, "gcc", "-O2")).inOrderReduction);

  Case isum = makeCase("int a[1024]; int s;\nvoid kernel(void) {\n  int sum = 0;\n  for (int i = 0; i < 1024; i++) sum += a[i];\n  s = sum;\n}\n");
  CHECK(agreeWithGcc(isum, "-O2") == 1);
  CHECK_FALSE(onlyLoop(planFor(isum, "gcc", "-O2")).inOrderReduction);

  // Pairs a[2i], a[2i+1] fill one 16-byte vector per iteration: no epilogue, so any trip count.
  Case pairs = makeCase(
      "double a[2000], b[2000];\nvoid kernel(int n) {\n  for (int i = 0; i < n; i++) {\n    a[2 * i] = b[2 * i] + 1.0;\n    a[2 * i + 1] = b[2 * i + 1] + "
      "1.0;\n  }\n}\n");
  CHECK(agreeWithGcc(pairs, "-O2") == 1);
  CHECK(agreeWithGcc(pairs, "-O2 -march=x86-64-v3") == 1);
  CHECK(onlyLoop(planFor(pairs, "gcc", "-O2")).slp);
}

TEST_CASE("GCC: an invariant access that a store may alias is reloaded every iteration (matvec with pointers)", "[compiler][loops]") {
  if (!have("gcc")) return;
  Case matvec = makeCase(
      "void matvec(int n, double *A, double *x, double *y) {\n  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++) y[i] += A[i * n + j] * "
      "x[j];\n}\n");
  CHECK(agreeWithGcc(matvec, "-O2") == 0);
  CHECK(agreeWithGcc(matvec, "-O3") == 0);
  sim::CompilationPlan plan = planFor(matvec, "gcc", "-O2");
  int reloaded = 0;
  for (const sim::AccessDecision& a : plan.accesses)
    if (a.kind == sim::AccessDecision::Kind::Reloaded) {
      CHECK(matvec.contexts.events[a.event].text == "y[i]");
      CHECK(matvec.contexts.events[a.event].mode == ir::AccessMode::Write);
      ++reloaded;
    }
  CHECK(reloaded == 1);  // the store of y[i] stays in the j loop; its load does not (no other store may change y[i])

  Case globals = makeCase("double A[64][64], x[64], y[64];\nvoid kernel(void) {\n  for (int i = 0; i < 64; i++)\n    for (int j = 0; j < 64; j++) y[i] += A[i][j] * x[j];\n}\n");
  CHECK(agreeWithGcc(globals, "-O2") == 1);
  plan = planFor(globals, "gcc", "-O2");
  for (const sim::AccessDecision& a : plan.accesses) CHECK(a.kind == sim::AccessDecision::Kind::Promoted);
}

TEST_CASE("Clang -O2: width, interleave, scalar epilogue, run-time alias checks, reductions", "[compiler][loops]") {
  if (!have(clangTool())) return;
  Case odd = makeCase("double a[1023], b[1023], c[1023];\nvoid kernel(void) {\n  for (int i = 0; i < 1023; i++) a[i] = b[i] + c[i];\n}\n");
  CHECK(agreeWithClang(odd, "-O2") == 1);
  CHECK(onlyLoop(planFor(odd, "clang", "-O2")).scalarEpilogue);
  CHECK(agreeWithClang(odd, "-O2 -march=x86-64-v3") == 1);
  CHECK(agreeWithClang(odd, "-O1") == 0);

  Case floats = makeCase("float a[1024], b[1024], c[1024];\nvoid kernel(void) {\n  for (int i = 0; i < 1024; i++) a[i] = b[i] + c[i];\n}\n");
  CHECK(agreeWithClang(floats, "-O2") == 1);
  CHECK(agreeWithClang(floats, "-O2 -march=x86-64-v3") == 1);

  Case params = makeCase("void kernel(double *a, double *b, double *c) {\n  for (int i = 0; i < 1024; i++) a[i] = b[i] + c[i];\n}\n");
  CHECK(agreeWithClang(params, "-O2") == 1);
  CHECK(onlyLoop(planFor(params, "clang", "-O2")).runtimeAliasCheck);

  Case fsum = makeCase("double a[1024]; double s;\nvoid kernel(void) {\n  for (int i = 0; i < 1024; i++) s += a[i];\n}\n");
  CHECK(agreeWithClang(fsum, "-O2") == 0);
  CHECK(agreeWithClang(fsum, "-O2 -ffast-math") == 1);
  Case local = makeCase("double a[1024]; double s;\nvoid kernel(void) {\n  double sum = 0;\n  for (int i = 0; i < 1024; i++) sum += a[i];\n  s = sum;\n}\n");
  CHECK(agreeWithClang(local, "-O2") == 0);
  CHECK(agreeWithClang(local, "-O2 -ffast-math") == 1);
  Case isum = makeCase("int a[1024]; int s;\nvoid kernel(void) {\n  for (int i = 0; i < 1024; i++) s += a[i];\n}\n");
  CHECK(agreeWithClang(isum, "-O2") == 1);

  Case pairs = makeCase(
      "double a[2000], b[2000];\nvoid kernel(int n) {\n  for (int i = 0; i < n; i++) {\n    a[2 * i] = b[2 * i] + 1.0;\n    a[2 * i + 1] = b[2 * i + 1] + "
      "1.0;\n  }\n}\n");
  CHECK(agreeWithClang(pairs, "-O2") == 1);
  CHECK(agreeWithClang(pairs, "-O2 -march=x86-64-v3") == 1);
}

namespace {

/* The address stream of "c" compiled as "compiler FLAGS" would, as (bytes, write) per access of "text". */
std::map<std::uint32_t, std::size_t> accessSizes(const Case& c, const std::string& compiler, const std::string& flags, const std::string& text) {
  sim::CompilationPlan plan = planFor(c, compiler, flags);
  sim::ConcretizeOptions options;
  options.plan = &plan;
  options.model = plan.target.optLevel == 0 ? sim::RegisterModel::O0 : sim::RegisterModel::O2;
  sim::Program program = sim::concretize(c.contexts, options);
  sim::AddressStream stream(program, {});
  std::vector<sim::Record> buffer(4096);
  std::map<std::uint32_t, std::size_t> sizes;
  while (std::size_t n = stream.next(buffer.data(), buffer.size()))
    for (std::size_t k = 0; k < n; ++k)
      if (c.contexts.events[buffer[k].tag].text == text) ++sizes[buffer[k].bytes];
  return sizes;
}

}  // namespace

TEST_CASE("a vectorised loop runs vector iterations over the multiple of VF x IC and scalar ones for the rest", "[compiler][loops][sim]") {
  Case odd = makeCase("double a[1023], b[1023], c[1023];\nvoid kernel(void) {\n  for (int i = 0; i < 1023; i++) a[i] = b[i] + c[i];\n}\n");
  // Clang: width 2, interleave 2: 1020 iterations as 510 16-byte accesses, 3 scalar ones.
  CHECK(accessSizes(odd, "clang", "-O2", "a[i]") == std::map<std::uint32_t, std::size_t>{{8, 3}, {16, 510}});
  // AVX2: width 4, interleave 4: 1008 iterations as 252 32-byte accesses, 15 scalar ones.
  CHECK(accessSizes(odd, "clang", "-O2 -march=x86-64-v3", "b[i]") == std::map<std::uint32_t, std::size_t>{{8, 15}, {32, 252}});
  // GCC -O3: factor 2, one scalar iteration; -O2: no epilogue allowed, all scalar; -O0: all scalar.
  CHECK(accessSizes(odd, "gcc", "-O3", "c[i]") == std::map<std::uint32_t, std::size_t>{{8, 1}, {16, 511}});
  CHECK(accessSizes(odd, "gcc", "-O2", "c[i]") == std::map<std::uint32_t, std::size_t>{{8, 1023}});
  CHECK(accessSizes(odd, "gcc", "-O0", "c[i]") == std::map<std::uint32_t, std::size_t>{{8, 1023}});

  // An SLP pair is one 16-byte access per iteration: the second member merges into the first.
  Case pairs = makeCase(
      "double a[2000], b[2000];\nvoid kernel(void) {\n  for (int i = 0; i < 1000; i++) {\n    a[2 * i] = b[2 * i] + 1.0;\n    a[2 * i + 1] = b[2 * i + 1] + "
      "1.0;\n  }\n}\n");
  CHECK(accessSizes(pairs, "gcc", "-O2", "a[2 * i]") == std::map<std::uint32_t, std::size_t>{{16, 1000}});
  CHECK(accessSizes(pairs, "gcc", "-O2", "a[2 * i + 1]").empty());

  // A floating-point sum kept in order (GCC -O2): its loads stay 8 bytes.
  Case local = makeCase("double a[1024]; double s;\nvoid kernel(void) {\n  double sum = 0;\n  for (int i = 0; i < 1024; i++) sum += a[i];\n  s = sum;\n}\n");
  CHECK(accessSizes(local, "gcc", "-O2", "a[i]") == std::map<std::uint32_t, std::size_t>{{8, 1024}});
  CHECK(accessSizes(local, "gcc", "-O2 -ffast-math", "a[i]") == std::map<std::uint32_t, std::size_t>{{16, 512}});
}

TEST_CASE("an invariant store that other accesses may alias stays in the loop; its load leaves it", "[compiler][loops][sim]") {
  Case matvec = makeCase(
      "void matvec(int n, double *A, double *x, double *y) {\n  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++) y[i] += A[i * n + j] * "
      "x[j];\n}\n");
  sim::CompilationPlan plan = planFor(matvec, "gcc", "-O2");
  sim::ConcretizeOptions options;
  options.plan = &plan;
  options.bindings = {{"n", 16}};
  sim::Program program = sim::concretize(matvec.contexts, options);
  sim::AddressStream stream(program, {});
  std::vector<sim::Record> buffer(4096);
  std::size_t yReads = 0, yWrites = 0;
  while (std::size_t n = stream.next(buffer.data(), buffer.size()))
    for (std::size_t k = 0; k < n; ++k)
      if (matvec.contexts.events[buffer[k].tag].text == "y[i]") ++(buffer[k].write ? yWrites : yReads);
  CHECK(yReads == 16);        // once per i: only y[i]'s own store writes in the j loop (Cachegrind: 4n² reads in the two loops of mvt)
  CHECK(yWrites == 16 * 16);  // stored every j: A and x may be y
}

namespace {

// Scalar recurrences (the frontend's carried facts). GCC 12 and Clang 14 on this source:
//   gcc -O2 -fopt-info-vec-all:  4:21, 8:21, 12:21, 16:21 and 18:23 "missed: couldn't vectorize loop"
//     ("not vectorized: unsupported use in stmt", 2:6 "unsupported use of nested cycle");
//     23:21 "optimized: loop vectorized using 16 byte vectors" (32 with -march=x86-64-v3)
//   clang-14 -O2 -Rpass=loop-vectorize: 4:3 "vectorized loop (vectorization width: 4, interleaved
//     count: 2)" (8 and 4 with -march=x86-64-v3), nothing else ("value that could not be
//     identified as reduction is used outside the loop" for 8 and 12)
const char* const kRecurrences = R"(float a[16384], b[16384], c[16384];
void kernel(void) {
  float prev = 0.0f, y = 0.0f, ym1 = 0.0f;
  for (int i = 0; i < 1024; i++) {
    b[i] = a[i] + prev;
    prev = a[i];
  }
  for (int i = 0; i < 1024; i++) {
    y = a[i] + 0.5f * y;
    b[i] = y;
  }
  for (int i = 0; i < 1024; i++) {
    c[i] = a[i] + 0.5f * ym1;
    ym1 = c[i];
  }
  for (int j = 0; j < 64; j++) {
    float p = 0.0f;
    for (int i = 0; i < 256; i++) {
      b[i * 64 + j] = a[i * 64 + j] + p;
      p = a[i * 64 + j];
    }
  }
  for (int j = 0; j < 64; j++)
    for (int i = 0; i < 256; i++)
      b[i * 64 + j] = a[i * 64 + j] * 0.5f;
}
)";

/* The plan's decision for the loop on "line" (the only one there). */
const sim::LoopDecision& loopAt(const Case& c, const sim::CompilationPlan& plan, unsigned line) {
  const sim::LoopDecision* found = nullptr;
  for (const sim::LoopDecision& d : plan.loops)
    if (c.contexts.scopes[d.scope].loc.line == line) {
      REQUIRE(found == nullptr);
      found = &d;
    }
  REQUIRE(found != nullptr);
  return *found;
}

// A repeated pure reduction after inlining (int_sum, dot_float, dot_double of the fidelity corpus):
//   gcc -O2 -fopt-info-vec-all on kReps4: 11:21 "optimized: loop vectorized using 16 byte vectors";
//     4:21 "missed: couldn't vectorize loop", "missed: outer-loop already vectorized."
//   on kReps3 (3 repetitions): 11:21 "missed: not vectorized: unsupported data-type long int"...,
//     4:21 "optimized: loop vectorized using 16 byte vectors" (the same with -O3)
//   on kDreps4 (doubles): 11:21 "optimized: loop vectorized using 16 byte vectors" (2 per vector:
//     Cachegrind sees dot_double read x and y twice, not 4 times); 4:21 "outer-loop already vectorized."
//   clang-14 -O2 -Rpass=loop-vectorize on kDreps4: nothing (the double sum needs -ffast-math;
//     Clang does no outer-loop vectorisation and runs all four passes)
const char* const kReps4 = R"(int a[4096];
static long sum(int n, const int *v) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}

long reps(void) {
  long total = 0;
  for (int r = 0; r < 4; r++)
    total += sum(4096, a);
  return total;
}
)";

const char* const kReps3 = R"(int a[4096];
static long sum(int n, const int *v) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}

long reps(void) {
  long total = 0;
  for (int r = 0; r < 3; r++)
    total += sum(4096, a);
  return total;
}
)";

const char* const kDreps4 = R"(double x[4096], y[4096];
static double dot(int n, const double *u, const double *v) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += u[i] * v[i];
  return s;
}

double reps(void) {
  double total = 0.0;
  for (int r = 0; r < 4; r++)
    total += dot(4096, x, y);
  return total;
}
)";

}  // namespace

TEST_CASE("GCC 12 vectorises no loop that carries a scalar recurrence, nor a loop around one", "[compiler][loops][carried]") {
  Case rec = makeCase(kRecurrences);
  sim::CompilationPlan plan = planFor(rec, "gcc", "-O2");
  for (int line : {4, 8, 12, 16, 18}) CHECK(loopAt(rec, plan, line).vectorFactor == 1);
  CHECK(loopAt(rec, plan, 4).reason.find("prev is carried") != std::string::npos);
  CHECK(loopAt(rec, plan, 16).reason.find("p is carried") != std::string::npos);
  CHECK(loopAt(rec, plan, 23).vectorBytes == 16);  // the same nest without the recurrence: the outer j loop
  if (!have("gcc")) return;
  CHECK(agreeWithGcc(rec, "-O2") == 1);
  CHECK(agreeWithGcc(rec, "-O2 -march=x86-64-v3") == 1);
}

TEST_CASE("Clang 14 vectorises an innermost first-order recurrence, no other recurrence", "[compiler][loops][carried]") {
  Case rec = makeCase(kRecurrences);
  sim::CompilationPlan plan = planFor(rec, "clang", "-O2");
  CHECK(loopAt(rec, plan, 4).vectorFactor == 4);
  for (int line : {8, 12, 16, 18, 23, 24}) CHECK(loopAt(rec, plan, line).vectorFactor == 1);
  CHECK(loopAt(rec, plan, 12).reason.find("ym1 is carried") != std::string::npos);
  if (!have(clangTool())) return;
  CHECK(agreeWithClang(rec, "-O2") == 1);
  CHECK(agreeWithClang(rec, "-O2 -march=x86-64-v3") == 1);
}

TEST_CASE("GCC vectorises a loop around a reduction whose accesses do not move with it (outer-loop vectorisation)", "[compiler][loops][carried]") {
  Case reps4 = makeCase(kReps4);
  sim::CompilationPlan plan = planFor(reps4, "gcc", "-O2");
  CHECK(loopAt(reps4, plan, 11).vectorFactor == 4);
  CHECK(loopAt(reps4, plan, 4).vectorFactor == 1);
  CHECK(loopAt(reps4, planFor(reps4, "gcc", "-O2 -march=x86-64-v3"), 11).vectorBytes == 16);  // 8 ints per vector do not divide 4
  // One pass over a instead of four, loads scalar (broadcast into the lanes).
  CHECK(accessSizes(reps4, "gcc", "-O2", "v[i]") == std::map<std::uint32_t, std::size_t>{{4, 4096}});
  CHECK(accessSizes(reps4, "gcc", "-O1", "v[i]") == std::map<std::uint32_t, std::size_t>{{4, 4 * 4096}});

  Case reps3 = makeCase(kReps3);
  CHECK(loopAt(reps3, planFor(reps3, "gcc", "-O2"), 11).vectorFactor == 1);
  CHECK(loopAt(reps3, planFor(reps3, "gcc", "-O3"), 11).vectorFactor == 1);
  CHECK(loopAt(reps3, planFor(reps3, "gcc", "-O2"), 4).vectorFactor == 4);

  Case dreps4 = makeCase(kDreps4);
  CHECK(loopAt(dreps4, planFor(dreps4, "gcc", "-O2"), 11).vectorFactor == 2);
  CHECK(accessSizes(dreps4, "gcc", "-O2", "u[i]") == std::map<std::uint32_t, std::size_t>{{8, 2 * 4096}});
  CHECK(accessSizes(dreps4, "clang", "-O2", "u[i]") == std::map<std::uint32_t, std::size_t>{{8, 4 * 4096}});
  for (const sim::LoopDecision& d : planFor(dreps4, "clang", "-O2").loops) CHECK(d.vectorFactor == 1);

  if (have("gcc")) {
    CHECK(agreeWithGcc(reps4, "-O2") == 1);
    CHECK(agreeWithGcc(reps4, "-O2 -march=x86-64-v3") == 1);
    CHECK(agreeWithGcc(reps3, "-O2") == 1);
    CHECK(agreeWithGcc(dreps4, "-O2") == 1);
  }
  if (have(clangTool())) CHECK(agreeWithClang(dreps4, "-O2") == 0);
}

TEST_CASE("OpenMP parallel loops: each thread's share is not known when compiling; a chunk shorter than a vector stays scalar", "[compiler][loops][openmp]") {
  if (!have("gcc")) return;
  auto kernel = [](const std::string& schedule) {
    return makeCase("double in[20000], out[20000];\nvoid scale(double f) {\n#pragma omp parallel for" + schedule +
                    "\n  for (int i = 0; i < 20000; i++) out[i] = f * in[i];\n}\n");
  };
  Case block = kernel(""), single = kernel(" schedule(static, 1)"), lines = kernel(" schedule(static, 8)");
  for (Case* c : {&block, &single, &lines}) {
    // GCC 12 -O2 -fopenmp: "number of iterations cannot be computed"; without OpenMP the trip
    // count is the constant 20000 again.
    CHECK(agreeWithGcc(*c, "-O2 -fopenmp") == 0);
    CHECK(onlyLoop(planFor(*c, "gcc", "-O2")).reason.find("each thread's share") != std::string::npos);
    CHECK(agreeWithGcc(*c, "-O2 -fno-openmp") == 1);
  }
  // -O3 vectorises each thread's share (or chunk) with an epilogue; so does Clang -O2 (2 x 2).
  CHECK(agreeWithGcc(block, "-O3 -fopenmp") == 1);
  CHECK(agreeWithGcc(lines, "-O3 -fopenmp") == 1);
  for (Case* c : {&block, &lines}) {
    const sim::LoopDecision& d = onlyLoop(planFor(*c, "clang", "-O2 -fopenmp"));
    CHECK(d.vectorFactor * d.interleave == 4);
    CHECK(d.scalarEpilogue);
  }
  // schedule(static, 1): both compilers vectorise the loop over one chunk, but a chunk of one
  // iteration only ever runs its scalar epilogue; the model says so.
  for (const char* compiler : {"gcc", "clang"}) {
    const sim::LoopDecision& d = onlyLoop(planFor(single, compiler, "-O3 -fopenmp"));
    INFO(compiler << ": " << d.reason);
    CHECK(d.vectorFactor == 1);
    CHECK(d.reason.find("schedule(static, 1) deals chunks of 1 iteration(s)") != std::string::npos);
  }
}

TEST_CASE("GCC: two fields of one element through a pointer do not alias each other; restrict then keeps both in registers", "[compiler][loops]") {
  // r[i].sum and r[i].sq are 8 bytes apart from the same base: the alias oracle sees disjoint
  // bytes. Only a[] (which may alias r) keeps them in memory; with restrict both leave the j loop
  // (gcc -O2 packs them in one vector register, movupd before the loop and movups after it).
  const std::string kernel = "struct acc { double sum, sq; };\nvoid stats(struct acc *RESTRICT r, const double *a, int n) {\n"
                             "  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++) {\n"
                             "      r[i].sum += a[i * n + j];\n      r[i].sq += a[i * n + j] * a[i * n + j];\n    }\n}\n";
  auto reasons = [&](const std::string& restrictWord) {
    Case c = makeCase("#define RESTRICT " + restrictWord + "\n" + kernel);
    std::vector<std::string> out;
    for (const sim::AccessDecision& a : planFor(c, "gcc", "-O2").accesses)
      if (a.kind == sim::AccessDecision::Kind::Reloaded) out.push_back(c.contexts.events[a.event].text + ": " + a.reason);
    return out;
  };
  const std::vector<std::string> plain = reasons("");
  REQUIRE(!plain.empty());
  for (const std::string& r : plain) {
    INFO(r);
    CHECK(r.find("a[i * n + j] may overlap it") != std::string::npos);
  }
  CHECK(reasons("restrict").empty());
}
