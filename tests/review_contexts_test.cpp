// `review` on loops of a function called from several places: the fix of the source changes the
// loops in every calling context, so the prediction transforms them all and must match
// `simulate` on the source fixed by hand (docs/review.md, "Calling contexts").
#include "review_support.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using namespace cats;

namespace {

/* A program calling "kernel" (the function "name" over two arrays of "n" doubles) twice, on
   different arrays. */
std::string twoCalls(const std::string& kernel, const std::string& call) {
  return "#include <stdio.h>\n#include <stdlib.h>\n" + kernel +
         "int main(void) {\n"
         "  double *a = calloc(SIZE, sizeof(double)), *b = calloc(SIZE, sizeof(double));\n"
         "  double *c = calloc(SIZE, sizeof(double)), *d = calloc(SIZE, sizeof(double));\n"
         "  " + call + "(a, b);\n"
         "  " + call + "(c, d);\n"
         "  printf(\"%f %f\\n\", b[1], d[2]);\n"
         "  return 0;\n"
         "}\n";
}

const char* const kColumnSums =
    "#define N 600\n#define SIZE (N * N)\n"
    "static void column_sums(const double *m, double *sums) {\n"
    "  for (int j = 0; j < N; j++)\n"
    "    for (int i = 0; i < N; i++)\n"
    "      sums[j] += m[i * N + j];\n"
    "}\n";
const char* const kColumnSumsFixed =
    "#define N 600\n#define SIZE (N * N)\n"
    "static void column_sums(const double *m, double *sums) {\n"
    "  for (int i = 0; i < N; i++)\n"
    "    for (int j = 0; j < N; j++)\n"
    "      sums[j] += m[i * N + j];\n"
    "}\n";

const char* const kTwoPasses =
    "#define N 100000\n#define SIZE N\n"
    "static void two_passes(const double *a, double *b) {\n"
    "  for (int i = 0; i < N; i++)\n"
    "    b[i] = a[i] * 0.5;\n"
    "  for (int i = 0; i < N; i++)\n"
    "    b[i] += a[i];\n"
    "}\n";
const char* const kTwoPassesFused =
    "#define N 100000\n#define SIZE N\n"
    "static void two_passes(const double *a, double *b) {\n"
    "  for (int i = 0; i < N; i++) {\n"
    "    b[i] = a[i] * 0.5;\n"
    "    b[i] += a[i];\n"
    "  }\n"
    "}\n";

const char* const kTranspose =
    "#define N 800\n#define SIZE (N * N)\n"
    "static void transpose(const double *A, double *B) {\n"
    "  for (int i = 0; i < N; i++)\n"
    "    for (int j = 0; j < N; j++)\n"
    "      B[j * N + i] = A[i * N + j];\n"
    "}\n";
const char* const kTransposeTiled =
    "#define N 800\n#define SIZE (N * N)\n#define T 64\n#define MIN(a, b) ((a) < (b) ? (a) : (b))\n"
    "static void transpose(const double *A, double *B) {\n"
    "  for (int ii = 0; ii < N; ii += T)\n"
    "    for (int jj = 0; jj < N; jj += T)\n"
    "      for (int i = ii; i < MIN(ii + T, N); i++)\n"
    "        for (int j = jj; j < MIN(jj + T, N); j++)\n"
    "          B[j * N + i] = A[i * N + j];\n"
    "}\n";

}  // namespace

TEST_CASE("review contexts: an interchange in a function called twice changes both calls", "[review][contexts]") {
  const std::string dir = test::tempDir();
  const std::string file = test::writeFile(dir, "sums.c", twoCalls(kColumnSums, "column_sums"));
  const std::string fixed = test::writeFile(dir, "sums-fixed.c", twoCalls(kColumnSumsFixed, "column_sums"));
  test::checkAgainstFix(file, fixed, "column_sums", 7, "");
  CHECK(test::findingOf("interchange", file).at("message").get<std::string>().find("the loops run in 2 calling contexts") != std::string::npos);
}

TEST_CASE("review contexts: a fusion in a function called twice changes both calls", "[review][contexts]") {
  const std::string dir = test::tempDir();
  const std::string file = test::writeFile(dir, "passes.c", twoCalls(kTwoPasses, "two_passes"));
  const std::string fixed = test::writeFile(dir, "passes-fused.c", twoCalls(kTwoPassesFused, "two_passes"));
  test::checkAgainstFix(file, fixed, "two_passes", 6, "", "fusion");
}

TEST_CASE("review contexts: a tiling in a function called twice tiles both calls", "[review][contexts]") {
  const std::string dir = test::tempDir();
  const std::string file = test::writeFile(dir, "transpose.c", twoCalls(kTranspose, "transpose"));
  const std::string fixed = test::writeFile(dir, "transpose-tiled.c", twoCalls(kTransposeTiled, "transpose"));
  REQUIRE(test::findingOf("tiling", file).at("recommendation").get<std::string>().find("by 64 x 64") != std::string::npos);
  test::checkAgainstFix(file, fixed, "transpose", 6, "", "tiling");
}

TEST_CASE("review contexts: a gather in a function called twice is counted and sorted in both calls", "[review][contexts]") {
  auto program = [](const std::string& body, const std::string& fill) {
    return "#include <stdio.h>\n#include <stdlib.h>\n#define N 50000\n"
           "__attribute__((noinline)) double gather(const double *x, const int *idx, int n) {\n"
           "  double sum = 0.0;\n"
           "  for (int i = 0; i < n; i++)\n" +
           body +
           "  return sum;\n"
           "}\n"
           "int main(void) {\n"
           "  double *x = calloc(N, sizeof(double)), *y = calloc(N, sizeof(double));\n"
           "  int *idx = malloc(N * sizeof(int));\n"
           "  for (int i = 0; i < N; i++) idx[i] = " + fill + ";\n"
           "  printf(\"%f %f\\n\", gather(x, idx, N), gather(y, idx, N));\n"
           "  return 0;\n"
           "}\n";
  };
  const std::string dir = test::tempDir();
  const std::string file = test::writeFile(dir, "gather.c", program("    sum += x[idx[i]];\n", "(int)((i * 7919L) % N)"));
  // Sorted by hand: the permutation in order is 0, 1, ...; idx is still read, as a sorted gather reads it.
  const std::string sorted = test::writeFile(dir, "gather-sorted.c", program("    sum += x[i] + 0 * idx[i];\n", "i"));
  nlohmann::json f = test::findingOf("indirect", file);
  CHECK(f.at("line") == 7);
  CHECK(f.at("message").get<std::string>().find("(the access runs in 2 calling contexts, counted together)") != std::string::npos);
  const auto before = f.at("predicted").at("before").get<std::uint64_t>(), after = f.at("predicted").at("after").get<std::uint64_t>();
  const std::uint64_t handSorted = test::simulatedD1Misses(sorted);
  INFO("predicted " << after << ", sorted by hand " << handSorted << ", before " << before);
  CHECK(std::llabs(static_cast<long long>(after) - static_cast<long long>(handSorted)) * 10 <= static_cast<long long>(handSorted));
}

TEST_CASE("review contexts: a parallel loop in a function called twice is one finding, both calls counted and fixed", "[review][contexts]") {
  const std::string code =
      "#include <stdio.h>\n#define N 20000\n"
      "double in[N];\ndouble out[N] __attribute__((aligned(64)));\n"
      "static void scale(double factor) {\n"
      "#pragma omp parallel for schedule(static, 1)\n"
      "  for (int i = 0; i < N; i++)\n"
      "    out[i] = factor * in[i];\n"
      "}\n"
      "int main(void) {\n  scale(2.0);\n  scale(3.0);\n  printf(\"%f\\n\", out[N - 1]);\n  return 0;\n}\n";
  const std::string file = test::writeFile(test::tempDir(), "stripes.c", code);
  nlohmann::json f = test::findingOf("false-sharing", file);  // one finding, not one per call
  // Each call: 2,500 lines of out, each written by the 4 threads in turn twice (10,000 misses).
  CHECK(f.at("predicted").at("before") == 20000);
  CHECK(f.at("predicted").at("after") == 0);
  CHECK(f.at("message").get<std::string>().find("the loop runs in 2 calling contexts") != std::string::npos);
}
