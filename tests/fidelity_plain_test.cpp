// Fidelity of plain builds (bench/fidelity_plain.sh): the script's comparison on one tiny corpus
// program, and its function matching (clone suffixes, libc's memset, start-up subtracted) on a
// hand-written Cachegrind output. Deviation numbers are not asserted: the compiler model that
// decides them is still changing (issue 8).
#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <regex>

using namespace cats;
using nlohmann::json;

namespace {

int shell(const std::string& command) {
  return std::system(("cd '" + std::string(CATS_SOURCE_DIR) + "' && " + command).c_str());
}

void requireCounts(const json& cell) {
  REQUIRE(cell.contains("cachegrind"));
  REQUIRE(cell.contains("predicted"));
  REQUIRE(cell.contains("deviation"));
}

}  // namespace

TEST_CASE("fidelity_plain.sh compares one program with Cachegrind and writes the JSON summary",
          "[fidelity][fidelity-plain]") {
  std::string dir = test::tempDir();
  REQUIRE(shell("bench/fidelity_plain.sh --quick --only dot_double --compiler gcc --json '" + dir + "/summary.json' '" +
                CATS_STATIC_BINARY + "' > '" + dir + "/table' 2>&1") == 0);
  INFO(test::readFile(dir + "/table"));
  json doc = json::parse(test::readFile(dir + "/summary.json"));
  CHECK(doc["format"] == "cats-static-fidelity-plain");
  CHECK(doc["version"] == 1);
  CHECK(doc["geometry"]["D1"] == "32768,8,64");
  REQUIRE(doc["rows"].size() == 1);
  const json& row = doc["rows"][0];
  CHECK(row["program"] == "dot_double");
  CHECK(row["compiler"] == "gcc");
  CHECK(row["macro"] == "N");
  CHECK(row["size"] == 1000);
  CHECK_FALSE(row["decision"].get<std::string>().empty());
  REQUIRE(row["status"] == "ok");
  for (const char* key : {"refs", "D1_misses", "D1_read_misses", "D1_write_misses", "LL_misses", "LL_read_misses",
                          "LL_write_misses"})
    requireCounts(row["total"][key]);
  // Two arrays of 1000 doubles are read: at least 250 lines miss in both simulators.
  CHECK(row["total"]["D1_misses"]["cachegrind"].get<long>() >= 250);
  CHECK(row["total"]["D1_misses"]["predicted"].get<long>() >= 250);
  REQUIRE(row["functions"].contains("main"));
  requireCounts(row["functions"]["main"]["D1_misses"]);
  const json& gcc = doc["summary"]["gcc"];
  CHECK(gcc["rows"] == 1);
  CHECK(gcc["failed"] == 0);
  for (const char* key : {"total_misses", "total_read_write_misses", "per_function_misses", "per_function_matched_misses"})
    for (const char* field : {"cells", "median", "worst"}) CHECK(gcc[key].contains(field));
  CHECK(gcc.contains("per_function_only_predicted"));
  CHECK(gcc.contains("per_function_only_in_binary"));
  CHECK(std::regex_search(test::readFile(dir + "/table"), std::regex(R"(\ndot_double +gcc +1000 \| +\d+ +\d+ +[-+]\d)")));
}

TEST_CASE("fidelity_plain.py names clones by their function and counts libc's memset without start-up",
          "[fidelity-plain]") {
  std::string dir = test::tempDir();
  std::string source = test::writeFile(dir, "prog.c", "int main(void) { return 0; }\n");
  // Cachegrind's format: counts per line for the events named in "events:".
  std::string header = "events: Ir Dr D1mr DLmr Dw D1mw DLmw\n";
  test::writeFile(dir, "prog.cg",
                  header + "fl=" + source + "\nfn=main\n3 10 5 1 1 2 0 0\nfn=axpy.constprop.0\n4 10 100 40 20 50 10 5\n" +
                      "fl=" + source + "\nfn=axpy.part.0\n5 10 100 2 1 0 0 0\n" +
                      "fl=./string/memset-vec-unaligned-erms.S\nfn=__memset_avx2_unaligned_erms\n9 1 0 0 0 8000 130 125\n" +
                      "fn=memset\n9 1 0 0 0 150 36 36\nfl=./libio/printf.c\nfn=printf\n9 1 70 7 7 0 0 0\n");
  test::writeFile(dir, "base.cg",
                  header + "fl=./string/memset-vec-unaligned-erms.S\nfn=memset\n9 1 0 0 0 150 36 36\n" +
                      "fl=./libio/printf.c\nfn=printf\n9 1 70 7 7 0 0 0\n");
  test::writeFile(dir, "sim.json",
                  R"({"totals": {"D1": {"reads": 205, "writes": 8052, "read_misses": 43, "write_misses": 140},
                                 "LL": {"reads": 43, "writes": 140, "read_misses": 9, "write_misses": 130}},
                      "by_function": {"axpy@prog.c": {"D1": {"reads": 200, "writes": 50, "read_misses": 42, "write_misses": 10},
                                                      "LL": {"read_misses": 8, "write_misses": 5}},
                                      "main": {"D1": {"reads": 5, "writes": 2, "read_misses": 1, "write_misses": 0}}}})");
  REQUIRE(shell("python3 bench/fidelity_plain.py job '" + dir + "/prog.cg' '" + dir + "/base.cg' '" + dir +
                "/sim.json' '" + source + "' prog gcc N 10 'a decision' '" + dir + "/row.json' > /dev/null") == 0);
  json row = json::parse(test::readFile(dir + "/row.json"));
  REQUIRE(row["status"] == "ok");
  CHECK(row["predicted_section"] == "by_function");
  const json& fn = row["functions"];
  CHECK(fn.size() == 3);  // main, axpy (both clones), memset; printf is libc's, not the program's
  CHECK(fn["axpy"]["D1_read_misses"]["cachegrind"] == 42);
  CHECK(fn["axpy"]["D1_read_misses"]["predicted"] == 42);
  CHECK(fn["axpy"]["refs"]["cachegrind"] == 250);
  CHECK(fn["axpy"]["LL_misses"]["cachegrind"] == 21 + 5);
  CHECK(fn["axpy"]["LL_misses"]["deviation"] == -50.0);  // 13 predicted
  // The program's memset: the ifunc variant; the loader's plain memset is the trivial program's.
  CHECK(fn["memset"]["D1_write_misses"]["cachegrind"] == 130);
  CHECK(fn["memset"]["D1_write_misses"]["predicted"] == 0);
  CHECK(row["total"]["D1_misses"]["cachegrind"] == 1 + 42 + 10 + 130);
  CHECK(row["total"]["D1_misses"]["predicted"] == 43 + 140);
  CHECK(row["total"]["D1_misses"]["deviation"] == 0.0);
}

TEST_CASE("every corpus program is analysed and says its sizes and decision", "[fidelity-plain]") {
  std::size_t programs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::sourcePath("bench/fidelity-corpus"))) {
    if (entry.path().extension() != ".c") continue;
    ++programs;
    std::string relative = "bench/fidelity-corpus/" + entry.path().filename().string();
    INFO(relative);
    std::string text = test::readFile(entry.path().string());
    CHECK(std::regex_search(text, std::regex(R"(fidelity-sizes: N( \d+){2,4}\n)")));
    CHECK(std::regex_search(text, std::regex(R"(fidelity-decision: \S)")));
    CHECK(text.find("int main(void)") != std::string::npos);
    auto r = test::runCli("analyze " + relative);
    CHECK(r.exitCode == 0);
  }
  CHECK(programs >= 30);  // issue 8's corpus size
}

TEST_CASE("a CSR product over indexes the program computed agrees with Cachegrind", "[fidelity][fidelity-plain][stored-values]") {
  // x[col[j]] and the row bounds come from values main stored: drawn at random, the prediction
  // was several times Cachegrind's misses; read back, it is the program's own stream.
  std::string dir = test::tempDir();
  REQUIRE(shell("bench/fidelity_plain.sh --quick --only spmv_csr --compiler gcc --json '" + dir + "/summary.json' '" +
                CATS_STATIC_BINARY + "' > '" + dir + "/table' 2>&1") == 0);
  INFO(test::readFile(dir + "/table"));
  json doc = json::parse(test::readFile(dir + "/summary.json"));
  REQUIRE(doc["rows"].size() == 1);
  const json& row = doc["rows"][0];
  REQUIRE(row["status"] == "ok");
  CHECK(row["size"] == 20000);
  for (const char* key : {"D1_misses", "LL_misses"}) {
    INFO(key);
    const json& cell = row["total"][key];
    CHECK(cell["cachegrind"].get<long>() > 50000);
    CHECK(std::abs(cell["deviation"].get<double>()) < 2.0);
  }
}

TEST_CASE("a linked list built and chased through indexes the program stored agrees with Cachegrind", "[fidelity][fidelity-plain][carried]") {
  // prev one iteration behind at, and cur = nodes[cur].next to the -1 the build left: values the
  // loops carry, computed by the stream; no --trips (the corpus file passes no options).
  std::string dir = test::tempDir();
  REQUIRE(shell("bench/fidelity_plain.sh --only linked_array --compiler gcc --json '" + dir + "/summary.json' '" + CATS_STATIC_BINARY +
                "' > '" + dir + "/table' 2>&1") == 0);
  INFO(test::readFile(dir + "/table"));
  json doc = json::parse(test::readFile(dir + "/summary.json"));
  REQUIRE(doc["rows"].size() == 3);
  std::size_t compared = 0;
  for (const json& row : doc["rows"]) {
    REQUIRE(row["status"] == "ok");
    for (const char* key : {"D1_misses", "LL_misses"}) {
      const json& cell = row["total"][key];
      if (cell["cachegrind"].get<long>() < 1000) continue;
      INFO(row["size"] << " " << key);
      CHECK(std::abs(cell["deviation"].get<double>()) < 2.0);
      ++compared;
    }
  }
  CHECK(compared == 4);  // N = 10,000 and 100,000, D1 and LL
}
