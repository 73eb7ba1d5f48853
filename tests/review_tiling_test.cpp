// `cats-static review`'s tiling findings (issue 11): found on a transpose whose column of B
// spills D1, the prediction checked against simulating the tiling written by hand, no finding
// on code that is already good (a streaming dot product, a matrix multiply that fits D1, the
// hand-tiled transpose), an illegal tiling reported and not recommended, a triangular band
// not evaluated, and the tiled trace itself.
#include "sim/concretize.hpp"
#include "sim/stream.hpp"
#include "tracer/tiling.hpp"
#include "review_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>

using namespace cats;
using test::loopScopes;
using test::checkAgainstFix;
using test::findingOf;
using test::parsed;

namespace {

/* The tiling findings of `review ARGS`. */
std::vector<nlohmann::json> tilingFindings(const std::string& args) {
  std::vector<nlohmann::json> found;
  const nlohmann::json review = parsed(test::runCli("review " + args + " --format json"));  // kept: a range-for over a temporary's member dangles
  for (const auto& f : review.at("findings"))
    if (f.at("kind") == "tiling") found.push_back(f);
  return found;
}

/* Byte offsets, from the first, of the stores to "text" in the order "t" makes them at O2. */
std::vector<std::int64_t> storeOffsets(const trace::Trace& t, const std::string& text) {
  sim::ConcretizeOptions options;
  options.model = sim::RegisterModel::O2;
  sim::Program program = sim::concretize(t, options);
  sim::AddressStream stream(program, {});
  std::vector<std::int64_t> out;
  sim::Record r;
  std::optional<std::uint64_t> base;
  while (stream.next(&r, 1)) {
    if (!r.write || t.events[r.tag].text != text) continue;
    if (!base) base = r.address;
    out.push_back(static_cast<std::int64_t>(r.address) - static_cast<std::int64_t>(*base));
  }
  return out;
}

}  // namespace

TEST_CASE("review: tiling the transpose predicts what the transpose tiled by hand gives", "[review][tiling]") {
  // N = 800: one row of A writes 800 lines of B (51,200 bytes), more than a 32 KiB D1 keeps until the next row.
  checkAgainstFix("examples/review/transpose.c", "examples/review/transpose-tiled.c", "transpose", 14, "", "tiling");
  nlohmann::json f = findingOf("tiling", "examples/review/transpose.c");
  const std::string message = f.at("message"), recommendation = f.at("recommendation");
  INFO(message << "\n" << recommendation);
  CHECK(message.find("'B'") != std::string::npos);
  CHECK(message.find("900 lines") != std::string::npos);
  CHECK(message.find("512 lines") != std::string::npos);
  CHECK(recommendation.find("tile loops i and j (line 14) by 64 x 64") != std::string::npos);
}

TEST_CASE("review: no tiling where the reuse fits D1 or there is none", "[review][tiling]") {
  // A streaming dot product (one loop), a 30 x 30 matrix multiply (three matrices: 21,600 bytes), the transpose tiled by hand.
  for (const char* args : {"examples/review/dot.c", "examples/review/matmul-ijk.c -D N=30", "examples/review/matmul-ikj-fixed.c -D N=30",
                           "examples/review/transpose-tiled.c"}) {
    INFO(args);
    CHECK(tilingFindings(args).empty());
  }
}

TEST_CASE("review: the ijk matrix multiply whose B spills D1 is tiled in all three loops", "[review][tiling]") {
  auto found = tilingFindings("examples/review/matmul-ijk.c -D N=100");
  REQUIRE(found.size() == 1);
  const auto& f = found.front();
  CHECK(f.at("function") == "multiply");
  CHECK(f.at("line") == 12);
  CHECK(f.at("legal") == true);
  CHECK(f.at("message").get<std::string>().find("'B'") != std::string::npos);
  CHECK(f.at("recommendation").get<std::string>().find("tile loops i, j and k") != std::string::npos);
  CHECK(f.at("predicted").at("after").get<std::uint64_t>() < f.at("predicted").at("before").get<std::uint64_t>() / 2);
}

TEST_CASE("review: a tiling the dependences forbid is reported illegal and not recommended", "[review][tiling]") {
  // a[i][j] = f(a[i-1][j+1]) with j outermost: the distance (1, -1) on (j, i) makes the band not permutable.
  nlohmann::json f = findingOf("tiling", "examples/review/wavefront.c -D N=1000");
  CHECK(f.at("function") == "wavefront");
  CHECK(f.at("line") == 13);
  CHECK(f.at("legal") == false);
  CHECK(f.at("recommendation") == "");
  CHECK(f.at("message").get<std::string>().find("illegal") != std::string::npos);
  CHECK(!f.at("predicted").is_null());  // what it would have saved
}

TEST_CASE("review: a triangular band is reported not evaluated, with no prediction and no recommendation", "[review][tiling]") {
  const std::string file = test::writeFile(test::tempDir(), "lower-tiling.c",
                                           "#include <stdlib.h>\n"
                                           "void lower(const double *a, double *s) {\n"
                                           "  for (int j = 0; j < 1000; j++)\n"
                                           "    for (int i = j; i < 1000; i++)\n"
                                           "      s[j] += a[i * 1000 + j];\n"
                                           "}\n"
                                           "int main(void) {\n"
                                           "  double *a = (double *)malloc(1000 * 1000 * sizeof(double));\n"
                                           "  double *s = (double *)calloc(1000, sizeof(double));\n"
                                           "  lower(a, s);\n"
                                           "  free(a);\n"
                                           "  free(s);\n"
                                           "  return 0;\n"
                                           "}\n");
  nlohmann::json f = findingOf("tiling", file);
  CHECK(f.at("line") == 3);
  CHECK(f.at("predicted").is_null());
  CHECK(f.at("recommendation") == "");
  CHECK(f.at("message").get<std::string>().find("not evaluated") != std::string::npos);
  CHECK(f.at("message").get<std::string>().find("triangular") != std::string::npos);
  trace::Trace t = test::analyze({file});
  auto loops = loopScopes(t);
  REQUIRE(loops.size() == 2);
  std::string why;
  CHECK(!trace::tiled(t, loops, {32, 32}, &why));
  CHECK(why.find("triangular") != std::string::npos);
}

TEST_CASE("review: the tiled trace strip-mines the band, tile loops outermost, and visits every element once", "[review][tiling]") {
  // 10 x 7 in tiles of 4 x 3: neither divides, the last tiles are cut by min(tile + T, bound).
  trace::Trace t = test::analyzeSource(
      "double a[10][7];\n"
      "int main(void) {\n"
      "  for (int i = 0; i < 10; i++)\n"
      "    for (int j = 0; j < 7; j++)\n"
      "      a[i][j] = 1.0;\n"
      "  return 0;\n"
      "}\n");
  auto loops = loopScopes(t);
  REQUIRE(loops.size() == 2);
  std::string why;
  auto tiledTrace = trace::tiled(t, loops, {4, 3}, &why);
  INFO(why);
  REQUIRE(tiledTrace);
  REQUIRE(tiledTrace->scopes.size() == t.scopes.size() + 2);
  const auto& tileI = tiledTrace->scopes[t.scopes.size()];
  const auto& tileJ = tiledTrace->scopes[t.scopes.size() + 1];
  const auto& pointI = tiledTrace->scopes[loops[0]];
  const auto& pointJ = tiledTrace->scopes[loops[1]];
  // The tree: tile i > tile j > i > j, where i used to be.
  CHECK(tileI.parent == t.scopes[loops[0]].parent);
  CHECK(tileJ.parent == std::optional<std::size_t>(tileI.id));
  CHECK(pointI.parent == std::optional<std::size_t>(tileJ.id));
  CHECK(pointJ.parent == std::optional<std::size_t>(loops[0]));
  CHECK(tileI.iterator != pointI.iterator);
  CHECK(tiledTrace->context.find(tileI.iterator));
  CHECK(!t.context.find(tileI.iterator));  // made in the variant's context, the program's is untouched
  CHECK(sym::print(tileI.start) == "0");
  CHECK(sym::print(tileI.bound) == "10");
  CHECK(sym::print(tileI.step) == "4");
  CHECK(sym::print(tileJ.step) == "3");
  CHECK(sym::print(pointI.start) == tileI.iterator);
  CHECK(sym::print(pointI.bound) == "min(" + tileI.iterator + " + 4, 10)");
  CHECK(sym::print(pointJ.bound) == "min(" + tileJ.iterator + " + 3, 7)");
  REQUIRE(tiledTrace->events.size() == t.events.size());
  for (std::size_t e = 0; e < t.events.size(); ++e) CHECK(tiledTrace->events[e].scope == t.events[e].scope);
  // Simulated: every element once, tile by tile.
  const std::vector<std::int64_t> original = storeOffsets(t, "a[i][j]");
  std::vector<std::int64_t> tiledOrder = storeOffsets(*tiledTrace, "a[i][j]");
  REQUIRE(original.size() == 70);
  REQUIRE(tiledOrder.size() == 70);
  CHECK(std::vector<std::int64_t>(tiledOrder.begin(), tiledOrder.begin() + 7) == std::vector<std::int64_t>{0, 8, 16, 56, 64, 72, 112});
  // The last tile: rows 8 and 9, column 6 (7 = 2 * 3 + 1: a tile one column wide).
  const std::int64_t row = std::int64_t{7} * 8, column6 = std::int64_t{6} * 8;
  CHECK(std::vector<std::int64_t>(tiledOrder.end() - 2, tiledOrder.end()) == std::vector<std::int64_t>{8 * row + column6, 9 * row + column6});
  std::sort(tiledOrder.begin(), tiledOrder.end());
  CHECK(tiledOrder == original);
}
