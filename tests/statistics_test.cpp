// simulate's optional statistics through the command line: misses per set (--set-histogram),
// cross-context reuse (--reuse-matrix) and traffic between levels (--traffic), their JSON and
// text, and that asking for them leaves every other count as it was.
#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <numeric>

namespace {

using nlohmann::json;

const std::string kTwoKernels = "simulate tests/inputs/statistics/two_kernels.c";
const std::string kAll = " --set-histogram --reuse-matrix --traffic";

json simulateJson(const std::string& args) {
  auto r = cats::test::runCli(args + " --format json");
  INFO(args << "\n" << r.err);
  REQUIRE(r.exitCode == 0);
  return json::parse(r.out);
}

std::uint64_t demandHits(const json& totals) {
  return totals["reads"].get<std::uint64_t>() + totals["writes"].get<std::uint64_t>() - totals["read_misses"].get<std::uint64_t>() -
         totals["write_misses"].get<std::uint64_t>();
}

}  // namespace

TEST_CASE("reuse matrix: the second kernel hits the lines the first brought in", "[cli][simulate][statistics]") {
  // a[] (8000 bytes) fits the default 32 KiB D1: produce()'s 500 two-element stores miss once per
  // line (125 lines) and hit 375 times; consume()'s 1000 reads all hit produce()'s lines.
  json j = simulateJson(kTwoKernels + " --reuse-matrix");
  CHECK(j["version"] == 1);
  CHECK(j["minor_version"] == 2);
  const json& d1 = j["reuse"]["D1"];
  CHECK(d1["contexts"] == json::array({"main > produce@tests/inputs/statistics/two_kernels.c:19 > loop i",
                                       "main > consume@tests/inputs/statistics/two_kernels.c:20 > loop i"}));
  CHECK(d1["hits"] == json::array({json::array({375, 1000}), json::array({0, 0})}));
  CHECK(d1["same_context"] == 375);
  CHECK(d1["cross_context"] == 1000);
  CHECK(d1["total"] == demandHits(j["totals"]["D1"]));
  CHECK(j["reuse"]["LL"]["total"] == 0);  // nothing reaches LL but misses
  CHECK_FALSE(j.contains("set_misses"));
  CHECK_FALSE(j.contains("traffic"));
}

TEST_CASE("reuse matrix in a small D1: consume() misses there and hits produce()'s lines in LL", "[cli][simulate][statistics]") {
  json j = simulateJson(kTwoKernels + " --reuse-matrix --D1=4096,4,64 --LL=65536,8,64");
  const json& ll = j["reuse"]["LL"];
  CHECK(ll["cross_context"] == 125);
  CHECK(ll["same_context"] == 0);
  CHECK(ll["hits"][1][0] == 125);  // rows fillers, columns hitters: produce (row 2) -> consume (column 1)
  CHECK(ll["contexts"][1] == "main > produce@tests/inputs/statistics/two_kernels.c:19 > loop i");
}

TEST_CASE("the statistics add up to the totals and change no other count", "[cli][simulate][statistics]") {
  // jacobi-2d warps over repeating iterations and matmul-heap runs on the fast engine without the
  // options; with them both run the plain engine, one access at a time.
  for (const std::string& program : {std::string("examples/jacobi-2d -D N=64"), std::string("examples/matmul-heap -D N=40")}) {
    INFO(program);
    json plain = simulateJson("simulate " + program);
    json observed = simulateJson("simulate " + program + kAll);
    CHECK_FALSE(plain.contains("minor_version"));
    for (const char* key : {"accesses", "totals", "memory", "by_context", "by_line", "by_container"}) CHECK(plain[key] == observed[key]);
    for (const std::string level : {"D1", "LL"}) {
      INFO(level);
      const json& totals = observed["totals"][level];
      const json& sets = observed["set_misses"][level];
      const auto perSet = sets["misses"].get<std::vector<std::uint64_t>>();
      CHECK(std::accumulate(perSet.begin(), perSet.end(), std::uint64_t{0}) == sets["total"].get<std::uint64_t>());
      CHECK(sets["total"].get<std::uint64_t>() >= totals["read_misses"].get<std::uint64_t>() + totals["write_misses"].get<std::uint64_t>());
      CHECK(sets["sets"] == perSet.size());
      const json& reuse = observed["reuse"][level];
      std::uint64_t cells = 0;
      for (const auto& row : reuse["hits"])
        for (const auto& cell : row) cells += cell.get<std::uint64_t>();
      CHECK(cells == demandHits(totals));
      CHECK(reuse["total"] == demandHits(totals));
    }
    const json& traffic = observed["traffic"];
    REQUIRE(traffic.size() == 2);
    CHECK(traffic[0]["upper"] == "D1");
    CHECK(traffic[0]["lower"] == "LL");
    CHECK(traffic[0]["fill_bytes"] == observed["totals"]["D1"]["bytes_from_below"]);
    CHECK(traffic[0]["down_bytes"] == observed["totals"]["D1"]["bytes_to_below"]);
    CHECK(traffic[1]["lower"] == "memory");
    CHECK(traffic[1]["fill_bytes"] == observed["memory"]["read_bytes"]);
    CHECK(traffic[1]["down_bytes"] == observed["memory"]["write_bytes"]);
  }
}

TEST_CASE("set histogram: a column walk that thrashes one set shows in the summary", "[cli][simulate][statistics]") {
  // column_sum.c reads m[i][0] for 512 rows 4096 bytes apart: in a 4 KiB 2-way D1 (32 sets of
  // 64-byte lines, a set span of 2048 bytes) every read maps to the set of m's first line, and
  // 512 lines in 2 ways miss every time.
  json j = simulateJson("simulate tests/inputs/statistics/column_sum.c --set-histogram --D1=4096,2,64 --LL=262144,8,64");
  const json& d1 = j["set_misses"]["D1"];
  CHECK(d1["sets"] == 32);
  CHECK(d1["sets_with_misses"] == 1);
  CHECK(d1["total"] == 512);
  CHECK(d1["max"] == 512);
  REQUIRE(d1["top"].size() == 1);
  const std::size_t set = d1["top"][0]["set"];
  CHECK(d1["misses"][set] == 512);
  // LL: 512 sets of 64-byte lines span 32 KiB, so the rows fall into every 64th set (8 sets).
  CHECK(j["set_misses"]["LL"]["sets_with_misses"] == 8);
  auto text = cats::test::runCli("simulate tests/inputs/statistics/column_sum.c --set-histogram --D1=4096,2,64 --LL=262144,8,64");
  CHECK_THAT(text.out, Catch::Contains("D1    32 sets, 1 with misses; 512 misses, mean 16.0 per set, max 512 (32.0x the mean)"));
}

TEST_CASE("the statistics options take one cache configuration and sources", "[cli][simulate][statistics]") {
  for (const std::string option : {" --set-histogram", " --reuse-matrix", " --traffic"}) {
    auto r = cats::test::runCli(kTwoKernels + option + " --D1=4096,4,64 --D1=8192,4,64");
    INFO(option);
    CHECK(r.exitCode == 2);
    CHECK_THAT(r.err, Catch::Contains("take one cache configuration; the options describe 2"));
    auto din = cats::test::runCli("simulate --din /dev/null" + option);
    CHECK(din.exitCode == 2);
    CHECK_THAT(din.err, Catch::Contains("are shown in the text and JSON reports of analysed sources"));
    auto cachegrind = cats::test::runCli(kTwoKernels + option + " --format cachegrind");
    CHECK(cachegrind.exitCode == 2);
    CHECK_THAT(cachegrind.err, Catch::Contains("are shown in the text and JSON reports"));
  }
}

TEST_CASE("the text of the statistics matches its golden file", "[cli][simulate][statistics][golden]") {
  auto r = cats::test::runCli(kTwoKernels + kAll + " --D1=4096,4,64 --LL=65536,8,64");
  REQUIRE(r.exitCode == 0);
  CHECK(r.out == cats::test::readFile(cats::test::sourcePath("tests/golden/two-kernels.statistics.txt")));
}
