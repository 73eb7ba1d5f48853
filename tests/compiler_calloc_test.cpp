// malloc + a loop zeroing the whole block -> calloc (sim/compiler/calloc_fold.cpp). The expected
// answer is the binary's own: GCC 12 and Clang 14 at -O2 call calloc and no memset for the first
// program (objdump -d), and keep malloc for the second.
#include "sim/compiler.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <memory>
#include <regex>

using namespace cats;

namespace {

// The zero store shares its loop with another store (loop distribution splits it off), as in
// the corpus's box_blur and twice_sizes.
const char* kFolded = R"(#include <stdlib.h>
#define N 100000
int main(void) {
  double *a = (double *)malloc(N * sizeof(double));
  double *b = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N; i++) {
    a[i] = 0.0;
    b[i] = i % 17;
  }
  double s = 0;
  for (int i = 0; i < N; i++) s += a[i] * b[i];
  free(a);
  free(b);
  return (int)s;
}
)";

// Zeroes half of a (memset, but not the whole block) and stores a non-zero value into b:
// malloc stays malloc.
const char* kKept = R"(#include <stdlib.h>
#define N 100000
int main(void) {
  double *a = (double *)malloc(N * sizeof(double));
  double *b = (double *)malloc(N * sizeof(double));
  for (int i = 0; i < N / 2; i++) a[i] = 0.0;
  for (int i = N / 2; i < N; i++) a[i] = i;
  for (int i = 0; i < N; i++) b[i] = 1.0;
  double s = 0;
  for (int i = 0; i < N; i++) s += a[i] * b[i];
  free(a);
  free(b);
  return (int)s;
}
)";

std::string run(const std::string& command) {
  std::string out;
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen((command + " 2>&1").c_str(), "r"), pclose);
  if (!pipe) return out;
  char buffer[512];
  while (fgets(buffer, sizeof buffer, pipe.get())) out += buffer;
  return out;
}

bool have(const std::string& tool) { return run("command -v " + tool + " >/dev/null && echo yes").find("yes") != std::string::npos; }

/* Whether "compiler -O2" makes main of "path" call calloc (the assembly fact). */
bool callsCalloc(const std::string& compiler, const std::string& path) {
  std::string exe = test::tempDir() + "/calloc_fold.bin";
  return run(compiler + " -O2 '" + path + "' -o '" + exe + "' && objdump -d --no-show-raw-insn '" + exe + "'").find("<calloc@plt>") != std::string::npos;
}

sim::CompilerTarget targetOf(const std::string& compiler, const std::string& level, const std::string& flags = "") {
  return std::get<sim::CompilerTarget>(sim::parseCompilerTarget(compiler, level, flags));
}

}  // namespace

TEST_CASE("malloc + a zeroing loop over the whole block becomes calloc at -O2", "[compiler][calloc]") {
  std::string dir = test::tempDir();
  std::string folded = test::writeFile(dir, "folded.c", kFolded), kept = test::writeFile(dir, "kept.c", kKept);
  trace::Trace foldedTrace = test::analyze({folded}), keptTrace = test::analyze({kept});
  for (const char* compiler : {"gcc", "clang"}) {
    INFO(compiler);
    sim::CompilationPlan plan = sim::planCompilation(foldedTrace, targetOf(compiler, "2"));
    REQUIRE(plan.callocs.size() == 1);
    CHECK(foldedTrace.containers[foldedTrace.events[plan.callocs[0].alloc].container].name == "a");
    CHECK(foldedTrace.events[plan.callocs[0].store].text == "a[i]");
    CHECK(sim::planCompilation(keptTrace, targetOf(compiler, "2")).callocs.empty());
    CHECK(sim::planCompilation(foldedTrace, targetOf(compiler, "1")).callocs.empty());
  }
  CHECK(sim::planCompilation(foldedTrace, targetOf("gcc", "2", "-fno-tree-loop-distribute-patterns")).callocs.empty());
  for (const std::string compiler : {"gcc", "clang-14"}) {
    if (!have(compiler)) continue;
    INFO(compiler);
    CHECK(callsCalloc(compiler, folded));
    CHECK_FALSE(callsCalloc(compiler, kept));
  }
}

TEST_CASE("a calloc-folded block above the mmap threshold is never written by its zeroing loop", "[compiler][calloc]") {
  std::string path = test::writeFile(test::tempDir(), "folded.c", kFolded);
  // N = 100000 doubles: 800,000 bytes, mmapped: fresh zero pages, so the loop's 12,500 line
  // writes of a disappear; with -fno-tree-loop-distribute-patterns they stay.
  auto folded = test::runCli("simulate " + path + " --compiler gcc -O 2 --by line");
  auto kept = test::runCli("simulate " + path + " --compiler gcc -O 2 --cflags=-fno-tree-loop-distribute-patterns --by line");
  REQUIRE(folded.exitCode == 0);
  REQUIRE(kept.exitCode == 0);
  // The by-line table: line, D1 accesses, D1 misses, ... (12,501 misses: one per line of a).
  static const std::regex untouched(R"(folded\.c:7 +0 +0 )"), written(R"(folded\.c:7 +50000 +12501 )");
  CHECK(std::regex_search(folded.out, untouched));
  CHECK(std::regex_search(kept.out, written));
  CHECK(folded.out.find("-> calloc") != std::string::npos);
}
