// The command line on good and bad input: diagnostics as file:line:col, exit codes
// 0 (ok), 1 (analysis error) and 2 (usage error), never a crash.
#include "support.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <sstream>

using namespace cats;

TEST_CASE("analyze prints a report and exits 0", "[cli]") {
  auto r = test::runCli("analyze examples/transpose");
  CHECK(r.exitCode == 0);
  CHECK(r.out.find("Containers") != std::string::npos);
  CHECK(r.out.find("stride-k (8*n B per j)") != std::string::npos);  // the summary of transpose(n, A, B)
  CHECK(r.out.find("called from main@19") != std::string::npos);
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

TEST_CASE("simulate --threads gives the report one thread gives", "[cli][simulate][split][determinism]") {
  for (const char* args : {"simulate examples/jacobi-2d -D N=60 -D TSTEPS=4 --format json", "simulate examples/matmul-heap -D N=40 --machine cachegrind --format json",
                           "simulate examples/spmv-csr -D ROWS=300"}) {
    INFO(args);
    auto one = test::runCli(std::string(args) + " --threads 1");
    REQUIRE(one.exitCode == 0);
    for (const char* threads : {" --threads 2", " --threads 0", " --threads 5"}) {
      auto many = test::runCli(std::string(args) + threads);
      CHECK(many.exitCode == 0);
      CHECK(many.out == one.out);
    }
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
      {"analyze tests/inputs/bad/uses_goto.c", 0, "tests/inputs/bad/uses_goto.c:3:1: warning: backward goto to label 'again'"},
      {"analyze tests/inputs/bad/recursion.c", 0, "tests/inputs/bad/recursion.c:4:3: warning: recursive call to 'sweep' is not followed"},
      {"analyze tests/inputs/bad/function_pointer.c", 0, "tests/inputs/bad/function_pointer.c:9:3: warning: call through a function pointer"},
      {"analyze tests/inputs/bad/unknown_call.c", 0, "tests/inputs/bad/unknown_call.c:5:3: warning: call to unknown function 'external_kernel'"},
      {"analyze '" + empty + "'", 1, "error: no .c file found in directory"},
      {"analyze does/not/exist.c", 2, "error: no such file or directory: 'does/not/exist.c'"},
      {"analyze", 2, "give a file, a directory or -p"},
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

TEST_CASE("simulate reports misses per array and exits 0", "[cli][simulate]") {
  auto r = test::runCli("simulate examples/matmul-heap -D N=64 --D1=32768,8,64 --LL=262144,8,64 --by container");
  CHECK(r.exitCode == 0);
  CHECK(r.out.find("By container") != std::string::npos);
  CHECK(r.out.find("D1 misses") != std::string::npos);
  auto json = test::runCli("simulate examples/matmul-heap -D N=64 --D1=32768,8,64 --LL=262144,8,64 --format json");
  REQUIRE(json.exitCode == 0);
  auto j = nlohmann::json::parse(json.out);
  CHECK(j["format"] == "cats-static-simulation");
  CHECK(j["version"] == 1);
  CHECK(j["levels"] == nlohmann::json::array({"D1", "LL"}));
  for (const char* group : {"by_function", "by_container", "by_loop", "by_line"}) {
    REQUIRE(j.contains(group));
    for (const auto& [name, entry] : j[group].items()) {
      CHECK(entry.contains("approximate"));
      for (const char* level : {"D1", "LL"})
        for (const char* key : {"reads", "writes", "read_misses", "write_misses"}) CHECK(entry[level].contains(key));
    }
  }
  // 64x64 doubles: B is walked by columns, 512 B apart; every line of A, B, C is missed at least once.
  CHECK(j["by_container"]["B"]["D1"]["read_misses"].get<int>() >= 512);
}

TEST_CASE("simulate --rows cuts the text table after the busiest rows and sums the rest", "[cli][simulate]") {
  auto cut = test::runCli("simulate examples/matmul-heap -D N=64 --by line --rows 2");
  REQUIRE(cut.exitCode == 0);
  auto all = test::runCli("simulate examples/matmul-heap -D N=64 --by line --rows 0");
  REQUIRE(all.exitCode == 0);
  // Five lines and calloc's clearing of C have accesses: line 22, the clearing and lines 24 and 27
  // are cut, with 513 + 512 + 0 + 1 D1 misses and 512 + 512 LL misses.
  CHECK(cut.out.find("matmul.c:14 ") != std::string::npos);
  CHECK(cut.out.find("matmul.c:23 ") != std::string::npos);
  CHECK(cut.out.find("matmul.c:22 ") == std::string::npos);
  CHECK(cut.out.find("  ... 4 more with 1026 D1, 1024 LL misses in all (--rows 0 lists every one)") != std::string::npos);
  CHECK(all.out.find("(calloc clearing) ") != std::string::npos);
  CHECK(all.out.find("matmul.c:27 ") != std::string::npos);
  CHECK(all.out.find("more with") == std::string::npos);
  // Several configurations: the table follows the first one, and so does the sum.
  auto two = test::runCli("simulate examples/matmul-heap -D N=64 --by line --rows 2 --D1=32768,8,64 --D1=16384,4,64");
  REQUIRE(two.exitCode == 0);
  CHECK(two.out.find("  ... 4 more with 1026 D1 misses of [1] in all (--rows 0 lists every one)") != std::string::npos);
}

TEST_CASE("simulate rejects bad configurations and unbound parameters", "[cli][simulate]") {
  struct Case {
    std::string args;
    int exitCode;
    std::string stderrContains;
  };
  const Case cases[] = {
      {"simulate examples/transpose --D1=30000,8,64", 2, "invalid cache configuration"},
      {"simulate examples/transpose --D1=32768,8", 2, "--D1"},
      {"simulate examples/transpose --machine no-such-machine", 2, "no-such-machine"},
      {"simulate examples/transpose --branch sometimes", 2, "--branch"},
      {"simulate examples/transpose --model O3", 2, "--model"},
      {"simulate examples/transpose --place A=nowhere", 2, "--place needs NAME=NUMBER"},
      {"simulate examples/matmul-heap --entry multiply", 1, "no value for parameter 'n'"},
      {"simulate bench/fidelity-corpus/linked_array.c -D N=100 --trips traverse:12=N", 2, "those loops are traverse:29"},
      {"simulate bench/fidelity-corpus/linked_array.c -D N=100 --trips traverse:29=M", 2, "not a non-negative integer"},
      {"simulate examples/transpose --trips loop=4", 2, "--trips needs LOC=EXPR"},
  };
  for (const auto& c : cases) {
    INFO(c.args);
    auto r = test::runCli(c.args);
    CHECK(r.exitCode == c.exitCode);
    CHECK(r.err.find(c.stderrContains) != std::string::npos);
  }
}

TEST_CASE("simulate replays a Dinero din trace", "[cli][simulate]") {
  std::string dir = test::tempDir();
  // 1024 reads of consecutive 8-byte words (128 lines), then the same again: 128 misses, then hits.
  std::string din;
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < 1024; ++i) {
      std::ostringstream line;
      line << "r " << std::hex << 0x1000 + 8 * i << " 8\n";  // din addresses and sizes are hex
      din += line.str();
    }
  test::writeFile(dir, "t.din", din);
  auto r = test::runCli("simulate --din '" + dir + "/t.din' --D1=32768,8,64 --LL=262144,8,64");
  REQUIRE(r.exitCode == 0);
  CHECK(r.out.find("2048 reads") != std::string::npos);
  std::istringstream lines(r.out);
  bool sawD1 = false;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string level;
    std::uint64_t reads = 0, writes = 0, readMisses = 0;
    if (fields >> level >> reads >> writes >> readMisses && level == "D1") {
      sawD1 = true;
      CHECK(readMisses == 128);
    }
  }
  CHECK(sawD1);
  test::writeFile(dir, "bad.din", "r 1000 8\nq 2000 8\n");
  auto bad = test::runCli("simulate --din '" + dir + "/bad.din'");
  CHECK(bad.exitCode == 1);
  CHECK(bad.err.find(":2:") != std::string::npos);
}

TEST_CASE("simulate --trips gives a data-dependent loop the user's trip count", "[cli][simulate]") {
  const std::string base = "simulate bench/fidelity-corpus/linked_array.c -D N=1000 --D1=32768,8,64 --LL=262144,8,64 --format json";
  auto followed = test::runCli(base);
  auto given = test::runCli(base + " --trips traverse:29=N/2");
  auto file = test::runCli(base + " --trips linked_array.c:29=500");
  REQUIRE(followed.exitCode == 0);
  REQUIRE(given.exitCode == 0);
  REQUIRE(file.exitCode == 0);
  auto reads = [](const std::string& json) { return nlohmann::json::parse(json)["totals"]["D1"]["reads"].get<long>(); };
  // 4 traversals of the list, 3 reads per node (value, weight, next). Unaided, the chase follows
  // the next indexes the program stored to the -1 that ends it: N nodes each time, exactly.
  CHECK(reads(followed.out) == 4 * 3 * 1000);
  CHECK_FALSE(nlohmann::json::parse(followed.out)["approximate"].get<bool>());
  // The user's count wins over the loop's own test.
  CHECK(reads(given.out) == 4 * 3 * 500);
  CHECK(reads(file.out) == reads(given.out));
  CHECK(given.out.find("the user gave 500 iteration(s) (--trips traverse:29=N/2)") != std::string::npos);
  CHECK(nlohmann::json::parse(given.out)["approximate"].get<bool>());
}

TEST_CASE("simulate expands calling contexts up to --max-context-events and marks the rest approximate", "[cli][simulate][contexts]") {
  // Each f_i calls f_{i+1} twice: 2^8 activations of the loop in f8, one event per activation and more.
  std::string code = "double a[1024];\nvoid f8(int n) { for (int i = 0; i < n; i++) a[i] += 1.0; }\n";
  for (int i = 7; i >= 0; --i)
    code += "void f" + std::to_string(i) + "(int n) { a[" + std::to_string(i) + "] = 0; f" + std::to_string(i + 1) + "(n); f" +
            std::to_string(i + 1) + "(n / 2); }\n";
  code += "int main(void) { f0(1000); return 0; }\n";
  const std::string file = test::writeFile(test::tempDir(), "dag.c", code);
  auto whole = test::runCli("simulate '" + file + "' --format json");
  REQUIRE(whole.exitCode == 0);
  auto all = nlohmann::json::parse(whole.out);
  CHECK_FALSE(all["approximate"].get<bool>());

  auto cut = test::runCli("simulate '" + file + "' --format json --max-context-events 100");
  REQUIRE(cut.exitCode == 0);
  CHECK(cut.err.find("calling contexts expanded up to 100 events") != std::string::npos);
  auto part = nlohmann::json::parse(cut.out);
  CHECK(part["approximate"].get<bool>());
  REQUIRE_FALSE(part["notes"].empty());
  CHECK(part["notes"][0].get<std::string>().find("--max-context-events") != std::string::npos);
  CHECK(part["accesses"].get<std::uint64_t>() < all["accesses"].get<std::uint64_t>());
}

TEST_CASE("calloc clearing a reused heap block counts in the groups: its block, memset, and every grouping adds up to the totals",
          "[cli][simulate]") {
  // matmul-heap's C is a calloc (the model folds malloc + zeroing loop) of 18 KiB, below the mmap
  // threshold: glibc clears it with memset, 32-byte stores.
  auto r = test::runCli("simulate examples/matmul-heap -D N=48 --format json");
  REQUIRE(r.exitCode == 0);
  nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["by_compiled_function"]["memset"]["D1"]["writes"] == 48 * 48 * 8 / 32);
  CHECK(j["by_line"]["(calloc clearing)"]["D1"]["writes"] == 48 * 48 * 8 / 32);
  for (const char* grouping : {"by_function", "by_compiled_function", "by_container", "by_field", "by_loop", "by_line", "by_context"}) {
    std::uint64_t reads = 0, writes = 0, misses = 0;
    for (const auto& [name, g] : j[grouping].items()) {
      reads += g["D1"]["reads"].get<std::uint64_t>();
      writes += g["D1"]["writes"].get<std::uint64_t>();
      misses += g["LL"]["read_misses"].get<std::uint64_t>() + g["LL"]["write_misses"].get<std::uint64_t>();
    }
    INFO(grouping);
    CHECK(reads == j["totals"]["D1"]["reads"].get<std::uint64_t>());
    CHECK(writes == j["totals"]["D1"]["writes"].get<std::uint64_t>());
    CHECK(misses == j["totals"]["LL"]["read_misses"].get<std::uint64_t>() + j["totals"]["LL"]["write_misses"].get<std::uint64_t>());
  }
}
