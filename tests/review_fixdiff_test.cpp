// `review --fix-diff` (docs/review.md, "--fix-diff"): the patch of the best simple fix applies
// with patch and git apply, compiles, simulates to the predicted misses and leaves no finding
// of its kind; findings without a simple patch give no diff and a reason; the diff generator
// writes what diff -u writes.
#include "review_support.hpp"

#include "reports/unified_diff.hpp"

#include <filesystem>

namespace cats {
namespace {

namespace fs = std::filesystem;

/* Runs "command" with the shell; its exit status. */
int shell(const std::string& command) {
  int status = std::system(command.c_str());  // NOLINT(cert-env33-c): the test drives patch, git and gcc
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A copy of "file" (relative to the source tree) under a fresh directory, at the same relative path; the directory. */
std::string copyInFreshDir(const std::string& file) {
  std::string dir = test::tempDir();
  fs::create_directories(fs::path(dir) / fs::path(file).parent_path());
  fs::copy_file(test::sourcePath(file), fs::path(dir) / file);
  return dir;
}

/* The number after "confirmed: " in the diff's header. */
std::uint64_t confirmedIn(const std::string& diff) {
  std::size_t at = diff.find("confirmed: ");
  REQUIRE(at != std::string::npos);
  return std::stoull(diff.substr(at + 11));
}

/* `review FILE SIZES --fix-diff [--fix-kind KIND]` applied to copies with patch -p1 and git apply; the patched file
   compiles, simulates to the finding's predicted misses and gets no finding of "kind" any more. */
void checkFixDiff(const std::string& file, const std::string& sizes, const std::string& kind) {
  nlohmann::json f = test::findingOf(kind, file + " " + sizes);
  const auto predicted = f.at("predicted").at("after").get<std::uint64_t>();
  test::CliResult r = test::runCli("review " + file + " " + sizes + " --fix-diff --fix-kind " + kind);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  CHECK(r.out.find("--- a/" + file + "\n+++ b/" + file + "\n@@ ") != std::string::npos);
  CHECK(confirmedIn(r.out) == predicted);
  CHECK(r.err.find("confirmed: " + std::to_string(predicted) + " misses (predicted " + std::to_string(predicted) + ")") != std::string::npos);

  std::string byPatch = copyInFreshDir(file), byGit = copyInFreshDir(file);
  std::string diff = test::writeFile(test::tempDir(), "fix.diff", r.out);
  CHECK(shell("cd " + byPatch + " && patch -s -p1 < " + diff) == 0);
  CHECK(shell("cd " + byGit + " && git apply " + diff) == 0);
  const std::string patched = byPatch + "/" + file;
  CHECK(test::readFile(patched) == test::readFile(byGit + "/" + file));
  CHECK(test::readFile(patched) != test::readFile(test::sourcePath(file)));
  CHECK(shell("gcc -O2 -Wall -Werror " + patched + " -o " + byPatch + "/a.out") == 0);

  const std::uint64_t simulated = test::simulatedD1Misses(patched + " " + sizes);
  INFO("predicted " << predicted << ", patched file simulated " << simulated);
  CHECK(std::llabs(static_cast<long long>(simulated) - static_cast<long long>(predicted)) * 10 <= static_cast<long long>(predicted));
  const nlohmann::json again = test::parsed(test::runCli("review " + patched + " " + sizes + " --format json"));
  for (const auto& other : again.at("findings")) CHECK(other.at("kind") != kind);
}

TEST_CASE("review --fix-diff: the interchange of the column sums", "[review][fix-diff]") {
  checkFixDiff("examples/review/column-sums.c", "-D N=1000", "interchange");
}

TEST_CASE("review --fix-diff: the padding and the interchange of the 2D column sums", "[review][fix-diff]") {
  checkFixDiff("examples/review/column-sums-2d.c", "", "padding");
  checkFixDiff("examples/review/column-sums-2d.c", "", "interchange");
}

TEST_CASE("review --fix-diff: the diff of the column sums is the header swap, three lines of context", "[review][fix-diff]") {
  test::CliResult r = test::runCli("review examples/review/column-sums.c -D N=1000 --fix-diff");
  REQUIRE(r.exitCode == 0);
  CHECK(r.out.substr(r.out.find("--- ")) ==
        "--- a/examples/review/column-sums.c\n"
        "+++ b/examples/review/column-sums.c\n"
        "@@ -8,8 +8,8 @@\n"
        " #endif\n"
        " \n"
        " void column_sums(const double *a, double *sums) {\n"
        "-  for (int j = 0; j < N; j++)\n"
        "-    for (int i = 0; i < N; i++)\n"
        "+  for (int i = 0; i < N; i++)\n"
        "+    for (int j = 0; j < N; j++)\n"
        "       sums[j] += a[i * N + j];\n"
        " }\n"
        " \n");
  CHECK(r.out.rfind("cats-static review --fix-diff: examples/review/column-sums.c:12: interchange in column_sums()\n", 0) == 0);
  test::CliResult again = test::runCli("review examples/review/column-sums.c -D N=1000 --fix-diff");
  CHECK(again.out == r.out);
}

TEST_CASE("review --fix-diff: a finding without a simple patch gives no diff and a reason", "[review][fix-diff]") {
  std::string dir = test::tempDir();
  SECTION("an array with an initialiser is not padded") {
    std::string code = test::readFile(test::sourcePath("examples/review/column-sums-2d.c"));
    const std::string decl = "static double a[N][ROW];";
    REQUIRE(code.find(decl) != std::string::npos);
    code.replace(code.find(decl), decl.size(), "static double a[N][ROW] = {{1.0}};");
    std::string file = test::writeFile(dir, "initialised.c", code);
    test::findingOf("padding", file);  // the finding is there: only its patch is refused
    test::CliResult r = test::runCli("review " + file + " --fix-diff --fix-kind padding");
    CHECK(r.exitCode == 0);
    CHECK(r.out.empty());
    CHECK(r.err.find("no patch for") != std::string::npos);
    CHECK(r.err.find("'a' has an initialiser") != std::string::npos);
  }
  SECTION("loops written by a macro are not swapped") {
    std::string file = test::writeFile(dir, "macro.c",
                                       "#define N 1000\n"
                                       "#define EACH(v) for (int v = 0; v < N; v++)\n"
                                       "double a[N * N], sums[N];\n"
                                       "void column_sums(void) {\n"
                                       "  EACH(j)\n"
                                       "    EACH(i)\n"
                                       "      sums[j] += a[i * N + j];\n"
                                       "}\n"
                                       "int main(void) { column_sums(); return 0; }\n");
    test::findingOf("interchange", file);
    test::CliResult r = test::runCli("review " + file + " --fix-diff");
    CHECK(r.exitCode == 0);
    CHECK(r.out.empty());
    CHECK(r.err.find("a loop is written by a macro") != std::string::npos);
  }
  SECTION("loops under an OpenMP directive are not swapped (the directive would follow the other loop)") {
    std::string code = test::readFile(test::sourcePath("examples/review/column-sums-2d.c"));
    const std::string loop = "  for (int j = 0; j < N; j++)\n    for (int i";
    REQUIRE(code.find(loop) != std::string::npos);
    code.insert(code.find(loop), "#pragma omp parallel for\n");
    std::string file = test::writeFile(dir, "parallel.c", code);
    test::CliResult r = test::runCli("review " + file + " --fix-diff --fix-kind interchange");
    CHECK(r.exitCode == 0);
    CHECK(r.out.empty());
    CHECK(r.err.find("OpenMP directive is attached to a loop") != std::string::npos);
  }
  SECTION("an array whose last dimension comes from a typedef is not padded") {
    std::string code = test::readFile(test::sourcePath("examples/review/column-sums-2d.c"));
    const std::string decl = "static double a[N][ROW];";
    code.replace(code.find(decl), decl.size(), "typedef double row[ROW];\nstatic row a[N];");
    std::string file = test::writeFile(dir, "typedef.c", code);
    test::CliResult r = test::runCli("review " + file + " --fix-diff --fix-kind padding");
    CHECK(r.out.empty());
    CHECK(r.err.find("the last dimension of 'a' is declared through a typedef") != std::string::npos);
  }
  SECTION("an illegal interchange is not patched") {
    test::CliResult r = test::runCli("review examples/review/wavefront.c -D N=1000 --fix-diff");
    CHECK(r.exitCode == 0);
    CHECK(r.out.empty());
    CHECK(r.err.find("not recommended: the transformation is illegal") != std::string::npos);
  }
}

TEST_CASE("review --fix-diff: usage errors", "[review][fix-diff]") {
  CHECK(test::runCli("review examples/review/dot.c --fix-diff --format json").exitCode == 2);
  CHECK(test::runCli("review examples/review/dot.c --fix-kind padding").exitCode == 2);
}

TEST_CASE("review --fix-diff: -o writes the diff to a file", "[review][fix-diff]") {
  std::string out = test::tempDir() + "/fix.diff";
  test::CliResult r = test::runCli("review examples/review/column-sums.c -D N=1000 --fix-diff -o " + out);
  REQUIRE(r.exitCode == 0);
  CHECK(r.out.empty());
  CHECK(test::readFile(out).find("+++ b/examples/review/column-sums.c\n") != std::string::npos);
}

TEST_CASE("unified diff: what diff -u writes", "[review][fix-diff]") {
  const std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n17\n18\n19\n20";
  SECTION("equal texts: no diff") { CHECK(report::unifiedDiff("x.c", before, before).empty()); }
  SECTION("two changes far apart: two hunks; a change at the end without a newline") {
    std::string after = before;
    after.replace(after.find("\n3\n"), 3, "\nthree\n");
    after.replace(after.rfind("20"), 2, "twenty");
    CHECK(report::unifiedDiff("d/x.c", before, after) ==
          "--- a/d/x.c\n+++ b/d/x.c\n"
          "@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n"
          "@@ -17,4 +17,4 @@\n 17\n 18\n 19\n-20\n\\ No newline at end of file\n+twenty\n\\ No newline at end of file\n");
  }
  SECTION("changes six lines apart share one hunk; a line added and one removed") {
    std::string after = before;
    after.replace(after.find("\n5\n"), 3, "\n5\nfive and a half\n");
    after.replace(after.find("\n12\n"), 4, "\n");
    CHECK(report::unifiedDiff("x.c", before, after) ==
          "--- a/x.c\n+++ b/x.c\n"
          "@@ -3,13 +3,13 @@\n 3\n 4\n 5\n+five and a half\n 6\n 7\n 8\n 9\n 10\n 11\n-12\n 13\n 14\n 15\n");
  }
}

}  // namespace
}  // namespace cats
