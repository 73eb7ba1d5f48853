// Replays every committed fuzz input (fuzz/corpus/TARGET seeds and fuzz/regressions/TARGET, the
// inputs that once crashed) through the fuzz entry points, built here without libFuzzer, so the
// normal suite guards each fixed crash. A failure is a crash or an abort of this test program.
#include "entries.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

using namespace cats;

namespace {

/* Files of fuzz/corpus/TARGET and fuzz/regressions/TARGET (and, for the frontend, the C files of
   examples/ and tests/inputs/bad/, which scripts/fuzz.sh also seeds with), sorted. */
std::vector<std::string> inputsOf(const std::string& target) {
  std::vector<std::string> files;
  if (target == "frontend_fuzz")
    for (const char* seeds : {"examples", "tests/inputs/bad"})
      for (const auto& entry : std::filesystem::recursive_directory_iterator(test::sourcePath(seeds)))
        if (entry.is_regular_file() && entry.path().extension() == ".c") files.push_back(entry.path().string());
  for (const char* kind : {"corpus", "regressions"}) {
    std::filesystem::path dir = test::sourcePath("fuzz/" + std::string(kind) + "/" + target);
    if (!std::filesystem::is_directory(dir)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
      if (entry.is_regular_file()) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

/* Runs "entry" on every input of "target"; returns how many there were. */
std::size_t replay(const std::string& target, const std::function<int(const std::uint8_t*, std::size_t)>& entry) {
  std::vector<std::string> files = inputsOf(target);
  for (const std::string& file : files) {
    INFO(file);
    std::string bytes = test::readFile(file);
    CHECK(entry(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()) == 0);
  }
  return files.size();
}

}  // namespace

TEST_CASE("the frontend fuzz corpus and regressions replay without a crash", "[fuzz]") {
  CHECK(replay("frontend_fuzz", fuzz::frontendOne) >= 10);
}

TEST_CASE("the trace reader fuzz corpus and regressions replay without a crash", "[fuzz]") {
  CHECK(replay("trace_reader_fuzz", fuzz::traceReaderOne) >= 10);
}

TEST_CASE("the compiler report fuzz corpus and regressions replay without a crash", "[fuzz]") {
  CHECK(replay("report_parser_fuzz", fuzz::reportParserOne) >= 4);
}
