// The direction of every review example's fix confirmed by Cachegrind: the original and the fix
// written by hand compiled with gcc -O2 and run under Cachegrind with the hierarchy the review
// used; the fix must have fewer D1 misses there as review predicts it does in the model (fewer
// D1 accesses for hoisting, whose gain is in loads and stores kept in registers).
#include "review_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace cats;

namespace {

struct FixedExample {
  std::string kind;       // the finding review makes on "original"
  std::string original;   // examples/review/...
  std::string fixed;      // the fix by hand
  std::string defines;    // gcc's -D and review's -D, "N=1000"
  std::string d1, ll;     // Cachegrind's --D1 and --LL, review's too
  std::string gccFlags;   // beyond -O2 -g
  bool accesses = false;  // compare D1 accesses (hoisting saves loads and stores, not misses)
};

/* D1 misses (reads and writes), or D1 accesses, of the whole program under Cachegrind. */
std::uint64_t cachegrindD1(const FixedExample& x, const std::string& source, const std::string& dir) {
  const std::string exe = dir + "/a.out", out = dir + "/cachegrind.out";
  std::string defines;
  std::istringstream words(x.defines);
  for (std::string d; words >> d;) defines += " -D" + d;
  const std::string compile = "gcc -O2 -g " + x.gccFlags + defines + " -o " + exe + " " + std::string(CATS_SOURCE_DIR) + "/" + source;
  REQUIRE(std::system(compile.c_str()) == 0);
  const std::string run = "valgrind --tool=cachegrind --cache-sim=yes --D1=" + x.d1 + " --LL=" + x.ll + " --I1=" + x.d1 +
                          " --cachegrind-out-file=" + out + " " + exe + " >/dev/null 2>&1";
  REQUIRE(std::system(run.c_str()) == 0);
  // The out file's "events:" line names the columns of its "summary:" line.
  std::istringstream file(test::readFile(out));
  std::vector<std::string> events;
  std::vector<std::uint64_t> summary;
  for (std::string line; std::getline(file, line);) {
    std::istringstream fields(line);
    std::string head;
    fields >> head;
    if (head == "events:")
      for (std::string e; fields >> e;) events.push_back(e);
    if (head == "summary:")
      for (std::uint64_t v = 0; fields >> v;) summary.push_back(v);
  }
  REQUIRE(events.size() == summary.size());
  std::uint64_t misses = 0;
  for (std::size_t k = 0; k < events.size(); ++k)
    if (x.accesses ? events[k] == "Dr" || events[k] == "Dw" : events[k] == "D1mr" || events[k] == "D1mw") misses += summary[k];
  return misses;
}

}  // namespace

TEST_CASE("review: Cachegrind on both compiled versions confirms the direction of every example's fix", "[review][fidelity]") {
  const std::string small = "8192,8,64", d1 = "32768,8,64", ll = "262144,8,64";
  const std::vector<FixedExample> examples{
      {"interchange", "examples/review/column-sums.c", "examples/review/column-sums-fixed.c", "N=1000", d1, ll, ""},
      {"interchange", "examples/review/matmul-ijk.c", "examples/review/matmul-ikj-fixed.c", "N=200", small, ll, ""},
      {"padding", "examples/review/column-sums-2d.c", "examples/review/column-sums-2d-padded.c", "", d1, ll, ""},
      {"fusion", "examples/review/two-passes.c", "examples/review/two-passes-fused.c", "", d1, ll, ""},
      {"tiling", "examples/review/transpose.c", "examples/review/transpose-tiled.c", "", d1, ll, ""},
      {"layout", "examples/review/particles.c", "examples/review/particles-soa.c", "", d1, ll, ""},
      {"indirect", "examples/review/gather.c", "examples/review/gather-sorted.c", "", d1, ll, ""},
      {"hoisting", "examples/review/row-update.c", "examples/review/row-update-restrict.c", "", d1, ll, "", true},
  };
  for (const FixedExample& x : examples) {
    INFO(x.kind << " on " << x.original << " (" << x.defines << ", D1 " << x.d1 << ")");
    std::string defines;
    std::istringstream words(x.defines);
    for (std::string d; words >> d;) defines += " -D " + d;
    nlohmann::json f = test::findingOf(x.kind, x.original + defines + " --D1 " + x.d1 + " --LL " + x.ll);
    auto before = f.at("predicted").at("before").get<std::uint64_t>(), after = f.at("predicted").at("after").get<std::uint64_t>();
    if (x.accesses) {  // hoisting's prediction of accesses is in the text report: "D1  accesses  B -> A"
      const test::CliResult text = test::runCli("review " + x.original + defines + " --D1 " + x.d1 + " --LL " + x.ll);
      std::smatch m;
      REQUIRE(std::regex_search(text.out, m, std::regex(R"(D1  accesses\s+(\d+) ->\s+(\d+))")));
      before = std::stoull(m[1].str());
      after = std::stoull(m[2].str());
    }
    const std::string dir = test::tempDir();
    const std::uint64_t original = cachegrindD1(x, x.original, dir), fixed = cachegrindD1(x, x.fixed, dir);
    INFO("review: " << before << " -> " << after << "; Cachegrind: " << original << " -> " << fixed);
    CHECK(after < before);
    CHECK(fixed < original);
  }
}
