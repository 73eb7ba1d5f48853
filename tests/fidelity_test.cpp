// Fidelity: the kernels of the examples compiled with gcc and run under Cachegrind with the
// same geometry; every D1/LL read/write miss count of the kernel within 2 % of the prediction
// (counts under 100 are compared within 5 misses: a stack slot or a libc line decides those).
#include "support.hpp"

#include <catch2/catch.hpp>

#include <regex>
#include <sstream>

using namespace cats;

TEST_CASE("predicted misses agree with Cachegrind within 2 %", "[fidelity][slow]") {
  auto r = test::runCli("--version");  // the binary exists; the script runs it from the build tree
  REQUIRE(r.exitCode == 0);
  std::string dir = test::tempDir();
  std::string command = "cd '" + std::string(CATS_SOURCE_DIR) + "' && bench/fidelity.sh --quick '" + CATS_STATIC_BINARY + "' > '" +
                        dir + "/table' 2>&1";
  REQUIRE(std::system(command.c_str()) == 0);
  std::istringstream table(test::readFile(dir + "/table"));
  static const std::regex row(R"(^(\S+)\s+(\d+)\s+(O[02]) \|(.*)$)");
  static const std::regex cell(R"((\d+)\s+(\d+)\s+([\d.]+)%)");
  std::size_t rows = 0;
  for (std::string line; std::getline(table, line);) {
    std::smatch m;
    if (!std::regex_match(line, m, row)) continue;
    ++rows;
    INFO(line);
    std::string cells = m[4].str();
    std::size_t cellsSeen = 0;
    for (auto it = std::sregex_iterator(cells.begin(), cells.end(), cell); it != std::sregex_iterator(); ++it) {
      ++cellsSeen;
      double cachegrind = std::stod((*it)[1].str()), predicted = std::stod((*it)[2].str());
      if (cachegrind >= 100) CHECK(std::abs(predicted - cachegrind) <= 0.02 * cachegrind);
      else CHECK(std::abs(predicted - cachegrind) <= 5);
    }
    CHECK(cellsSeen == 4);
  }
  CHECK(rows == 6 * 2 * 2);  // six examples, N = 100 and 200, -O0 and -O2
}
