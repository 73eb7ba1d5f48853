// `review` on a tree of several programs (examples/): one review per program, split by the files
// that define main, the findings of all in one report.
#include "frontend/frontend.hpp"
#include "review_support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <set>

using namespace cats;
using Programs = std::vector<std::vector<std::string>>;

TEST_CASE("review: a tree splits into one program per main file with the helpers of its directory", "[review]") {
  // One main or none: everything is one program.
  CHECK(frontend::splitIntoPrograms({"a/x.c", "a/y.c"}, {"a/x.c"}) == Programs{{"a/x.c", "a/y.c"}});
  CHECK(frontend::splitIntoPrograms({"a/x.c", "a/y.c"}, {}) == Programs{{"a/x.c", "a/y.c"}});
  // Two programs in their own directories, one with a helper below it; a stray file is one more program.
  const std::vector<std::string> files{"p/main.c", "p/sub/util.c", "q/q.c", "r/lib.c"};
  CHECK(frontend::splitIntoPrograms(files, {"p/main.c", "q/q.c"}) == Programs{{"p/main.c", "p/sub/util.c"}, {"q/q.c"}, {"r/lib.c"}});
  // Several mains in one directory (test drivers): each a program, sharing the directory's helpers;
  // a directory below with its own main keeps its files.
  const std::vector<std::string> drivers{"t/a.c", "t/b.c", "t/common.c", "t/deep/c.c", "t/deep/h.c", "tt/x.c"};
  CHECK(frontend::splitIntoPrograms(drivers, {"t/a.c", "t/b.c", "t/deep/c.c", "tt/x.c"}) ==
        Programs{{"t/a.c", "t/common.c"}, {"t/b.c", "t/common.c"}, {"t/deep/c.c", "t/deep/h.c"}, {"tt/x.c"}});
}

TEST_CASE("review: a directory of kernels is reviewed program by program", "[review]") {
  // Three single-file programs in one directory: the findings of the directory are those of each file alone.
  const std::string dir = test::tempDir();
  const std::vector<std::string> kernels{"column-sums.c", "column-sums-fixed.c", "dot.c"};
  for (const std::string& k : kernels) test::writeFile(dir, k, test::readFile(test::sourcePath("examples/review/" + k)));
  test::CliResult r = test::runCli("review " + dir + " -D N=1000 --format json");
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  CHECK(r.err.find("defined more than once") == std::string::npos);
  CHECK(r.err.find("review: program 3/3: ") != std::string::npos);
  auto key = [](const nlohmann::json& f) {
    std::string file = f.at("file").get<std::string>();
    return file.substr(file.rfind('/') + 1) + ":" + std::to_string(f.at("line").get<int>()) + " " + f.at("kind").get<std::string>() + " " +
           f.at("predicted").dump();
  };
  std::multiset<std::string> together, alone;
  const nlohmann::json all = nlohmann::json::parse(r.out);  // kept: a range-for over a temporary's member would dangle
  for (const auto& f : all.at("findings")) together.insert(key(f));
  for (const std::string& k : kernels) {
    const nlohmann::json one = test::parsed(test::runCli("review " + dir + "/" + k + " -D N=1000 --format json"));
    for (const auto& f : one.at("findings")) alone.insert(key(f));
  }
  CHECK(!alone.empty());  // column-sums.c has findings at N = 1000
  CHECK(together == alone);
}
