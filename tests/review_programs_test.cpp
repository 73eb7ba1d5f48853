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
  test::CliResult r = test::runCli("review examples/review --format json");
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  CHECK(r.err.find("defined more than once") == std::string::npos);
  CHECK(r.err.find("review: program 1/8: examples/review/column-sums-2d-padded.c") != std::string::npos);
  nlohmann::json j = nlohmann::json::parse(r.out);
  std::multiset<std::string> found;
  for (const auto& f : j.at("findings")) found.insert(f.at("file").get<std::string>() + " " + f.at("kind").get<std::string>());
  // The findings each kernel has on its own (the fixed ones and dot.c none), in one report.
  const std::multiset<std::string> expected{"examples/review/column-sums.c interchange", "examples/review/column-sums-2d.c padding",
                                            "examples/review/column-sums-2d.c interchange", "examples/review/wavefront.c interchange"};
  CHECK(found == expected);
  // Each finding is the one review gives the kernel alone.
  nlohmann::json alone = test::findingOf("interchange", "examples/review/column-sums.c");
  for (const auto& f : j.at("findings"))
    if (f.at("file") == "examples/review/column-sums.c") CHECK(f == alone);
}
