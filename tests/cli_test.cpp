// The command line on good and bad input: diagnostics as file:line:col, exit codes
// 0 (ok), 1 (analysis error) and 2 (usage error), never a crash.
#include "support.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

using namespace cats;

TEST_CASE("analyze prints a report and exits 0", "[cli]") {
  auto r = test::runCli("analyze examples/transpose");
  CHECK(r.exitCode == 0);
  CHECK(r.out.find("Containers") != std::string::npos);
  CHECK(r.out.find("stride-k (4096 B per j)") != std::string::npos);
  CHECK(r.err.empty());
  auto json = test::runCli("analyze examples/transpose --format json");
  CHECK(json.exitCode == 0);
  CHECK(nlohmann::json::parse(json.out)["format"] == "cats-static-analysis");
}

TEST_CASE("output is byte-identical from run to run", "[cli][determinism]") {
  for (const char* args : {"analyze examples/spmv-csr --format json", "analyze examples/multifile/src --dump trace",
                           "analyze examples/particles-aos --dump ir"}) {
    INFO(args);
    auto first = test::runCli(args);
    auto second = test::runCli(args);
    CHECK(first.exitCode == 0);
    CHECK(first.out == second.out);
    CHECK(first.err == second.err);
  }
}

TEST_CASE("option -o writes the file and --dump trace writes the trace format", "[cli]") {
  std::string dir = test::tempDir();
  auto r = test::runCli("analyze examples/matmul-heap --dump trace -o '" + dir + "/trace.json'");
  CHECK(r.exitCode == 0);
  CHECK(r.out.empty());
  CHECK(nlohmann::json::parse(test::readFile(dir + "/trace.json"))["format"] == "cats-static-trace");
}

TEST_CASE("a compile_commands.json drives the analysis with -p", "[cli]") {
  std::string dir = test::tempDir();
  std::string src = test::sourcePath("examples/multifile/src");
  test::writeFile(dir, "compile_commands.json", R"([
    {"directory": ")" + src + R"(", "file": ")" + src + R"(/main.c", "arguments": ["cc", "-DLEN=512", "-c", "main.c"]},
    {"directory": ")" + src + R"(", "file": ")" + src + R"(/kernels.c", "arguments": ["cc", "-c", "kernels.c"]}
  ])");
  auto r = test::runCli("analyze -p '" + dir + "' --format json");
  REQUIRE(r.exitCode == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["files"].size() == 2);
  bool sawBound = false;
  for (const auto& a : j["accesses"])
    if (a["function"] == "axpy") sawBound = true;
  CHECK(sawBound);
  CHECK(r.out.find("\"size_bytes\": \"4096\"") != std::string::npos);  // LEN=512 doubles from the database's -D
}

TEST_CASE("bad input gives a clear diagnostic and the right exit code", "[cli][errors]") {
  struct Case {
    std::string args;
    int exitCode;
    std::string stderrContains;
  };
  std::string empty = test::tempDir();
  const Case cases[] = {
      {"analyze tests/inputs/bad/syntax_error.c", 1, "tests/inputs/bad/syntax_error.c:3:12: error: expected expression"},
      {"analyze tests/inputs/bad/missing_header.c", 1, "tests/inputs/bad/missing_header.c:2:10: error: 'does_not_exist.h' file not found"},
      {"analyze tests/inputs/bad/uses_goto.c", 0, "tests/inputs/bad/uses_goto.c:6:14: warning: goto is not supported"},
      {"analyze tests/inputs/bad/recursion.c", 0, "tests/inputs/bad/recursion.c:4:3: warning: recursive call to 'sweep' is not followed"},
      {"analyze tests/inputs/bad/function_pointer.c", 0, "tests/inputs/bad/function_pointer.c:9:3: warning: call through a function pointer"},
      {"analyze tests/inputs/bad/unknown_call.c", 0, "tests/inputs/bad/unknown_call.c:5:3: warning: call to unknown function 'external_kernel'"},
      {"analyze '" + empty + "'", 1, "error: no .c file found in directory"},
      {"analyze does/not/exist.c", 2, "error: no such file or directory: 'does/not/exist.c'"},
      {"analyze", 2, "needs a file, a directory or -p"},
      {"analyze examples/transpose --format yaml", 2, "--format"},
      {"analyze examples/transpose --entry nosuch", 2, "--entry nosuch: no analysed function has that name"},
      {"frobnicate", 2, ""},
  };
  for (const auto& c : cases) {
    INFO(c.args);
    auto r = test::runCli(c.args);
    CHECK(r.exitCode == c.exitCode);
    CHECK(r.err.find(c.stderrContains) != std::string::npos);
    CHECK(r.err.find("Segmentation") == std::string::npos);
  }
}

TEST_CASE("approximate results say so", "[cli][errors]") {
  auto r = test::runCli("analyze tests/inputs/bad/uses_goto.c --format json");
  CHECK(r.exitCode == 0);
  CHECK(nlohmann::json::parse(r.out)["approximate"] == true);
  auto clean = test::runCli("analyze examples/transpose --format json");
  CHECK(nlohmann::json::parse(clean.out)["approximate"] == false);
}
