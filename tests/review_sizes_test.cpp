// `review`'s findings as a function of the size (docs/review.md, "As the size grows"): where a
// size is a parameter, the stride formula, the layer condition and the resonant sizes.
#include "review_support.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

using namespace cats;
using test::findingOf;

namespace {

const char* const kTranspose =
    "void transpose(int n, double *restrict A, const double *restrict B) {\n"
    "  for (int i = 0; i < n; i++)\n"
    "    for (int j = 0; j < n; j++)\n"
    "      A[i * n + j] = B[j * n + i];\n"
    "}\n";

const char* const kColumnSums =
    "void column_sums(int n, double a[n][n], double *restrict sums) {\n"
    "  for (int j = 0; j < n; j++)\n"
    "    for (int i = 0; i < n; i++)\n"
    "      sums[j] += a[i][j];\n"
    "}\n";

std::vector<std::string> sizesOf(const nlohmann::json& f) {
  REQUIRE(f.contains("sizes"));
  return f.at("sizes").get<std::vector<std::string>>();
}

}  // namespace

TEST_CASE("review sizes: the tiling's layer condition as a formula of n, and where it breaks", "[review][sizes]") {
  const std::string file = test::writeFile(test::tempDir(), "transpose.c", kTranspose);
  const std::vector<std::string> sizes = sizesOf(findingOf("tiling", file + " --param n=800"));
  REQUIRE(sizes.size() == 1);
  // One iteration of i touches a row of A (n doubles) and a column of B (n lines): 8n + 64n bytes
  // (+ a partial line); 72 * 454 + 56 = 32,744 fits 32 KiB, 72 * 455 + 56 = 32,816 does not.
  CHECK(sizes[0].find("B's reuse carried by loop i") != std::string::npos);
  CHECK(sizes[0].find("fits D1 while 72*n + 56 <= 32768 bytes") != std::string::npos);
  CHECK(sizes[0].find("from n = 455 on it does not") != std::string::npos);
  // The HTML report's review section says it too.
  const std::string page = test::tempDir() + "/report.html";
  REQUIRE(test::runCli("report " + file + " --param n=800 -o " + page).exitCode == 0);
  CHECK(test::readFile(page).find("<i>As the size grows:</i> B&#39;s reuse carried by loop i") != std::string::npos);
  // Below the breakpoint the reuse fits, and there is nothing to tile.
  nlohmann::json small = test::parsed(test::runCli("review " + file + " --param n=400 --format json"));
  for (const auto& f : small.at("findings")) CHECK(f.at("kind") != "tiling");
}

TEST_CASE("review sizes: the interchange's stride and the padding's resonant sizes as n varies", "[review][sizes]") {
  const std::string file = test::writeFile(test::tempDir(), "column_sums.c", kColumnSums);
  CHECK(sizesOf(findingOf("interchange", file + " --param n=256")) == std::vector<std::string>{"a[i][j] moves 8*n bytes per iteration of loop i"});
  const std::vector<std::string> resonant = sizesOf(findingOf("padding", file + " --param n=256"));
  REQUIRE(resonant.size() == 1);
  // Rows of 8n bytes: n = 128 puts a column's lines in 4 of the 64 sets, 256 in 2; an odd n in all.
  CHECK(resonant[0].find("the reuse of 'a' maps to too few sets of D1 at ") != std::string::npos);
  CHECK(resonant[0].find("of the values of n from 128 to 512: 128, ") != std::string::npos);
  CHECK(resonant[0].find(", 256, ") != std::string::npos);
  nlohmann::json odd = test::parsed(test::runCli("review " + file + " --param n=255 --format json"));
  for (const auto& f : odd.at("findings")) CHECK(f.at("kind") != "padding");
  // The text report says it on a line of its own.
  CHECK(test::runCli("review " + file + " --param n=256").out.find("\n  as the size grows: a[i][j] moves 8*n bytes per iteration of loop i\n") !=
        std::string::npos);
}

TEST_CASE("review sizes: a size that is a macro is a number before the analysis: no formula", "[review][sizes]") {
  nlohmann::json j = test::parsed(test::runCli("review examples/review/column-sums.c -D N=1000 --format json"));
  REQUIRE(!j.at("findings").empty());
  for (const auto& f : j.at("findings")) CHECK(!f.contains("sizes"));
}
