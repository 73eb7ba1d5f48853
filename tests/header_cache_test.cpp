// The header cache (frontend/header_cache.cpp): which bytes a preamble stands for, and that a
// cached preamble changes nothing in a report, is used when it holds and rebuilt when it does not.
#include "frontend/system_preamble.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

using cats::frontend::systemIncludePreamble;
using namespace cats::test;

namespace {

std::size_t endOf(const std::string& text, const std::string& line) { return text.find(line) + line.size(); }

std::vector<std::filesystem::path> entries(const std::string& dir, const std::string& extension) {
  std::vector<std::filesystem::path> found;
  if (!std::filesystem::exists(dir)) return found;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == extension) found.push_back(e.path());
  return found;
}

std::string cacheEnv(const std::string& dir) { return "CATS_STATIC_HEADER_CACHE='" + dir + "'"; }

long long accessesOf(const CliResult& r) {
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  return nlohmann::json::parse(r.out).at("accesses").get<long long>();
}

}  // namespace

TEST_CASE("header cache: the preamble is the leading system includes, comments and blank lines") {
  const std::string plain = "// a kernel\n#include <stdio.h>\n  #  include  <stdlib.h> // why\n\nint x;\n";
  CHECK(systemIncludePreamble(plain) == endOf(plain, "// why\n"));
  const std::string define = "#include <a.h>\n#define N 3\n#include <b.h>\n";
  CHECK(systemIncludePreamble(define) == endOf(define, "<a.h>\n"));  // a macro could change what b.h declares
  const std::string block = "/* two\n lines */ #include <a.h>\nint y;\n";
  CHECK(systemIncludePreamble(block) == endOf(block, "<a.h>\n"));
  const std::string crlf = "#include <a.h>\r\n#include <b.h>\r\nint z;";
  CHECK(systemIncludePreamble(crlf) == endOf(crlf, "<b.h>\r\n"));
  CHECK(systemIncludePreamble("#include \"local.h\"\n") == 0);  // a user header: its own declarations
  CHECK(systemIncludePreamble("#include <a.h>") == 0);          // no line end to stop at
  CHECK(systemIncludePreamble("\xEF\xBB\xBF#include <a.h>\n") == 0);
  CHECK(systemIncludePreamble("#include <a.h> /* c */\n") == 0);
  CHECK(systemIncludePreamble("#include <a.h>\\\n") == 0);
  CHECK(systemIncludePreamble("#include MACRO\n") == 0);
  CHECK(systemIncludePreamble("int main(void) { return 0; }\n#include <a.h>\n") == 0);
  CHECK(systemIncludePreamble("") == 0);
}

TEST_CASE("header cache: cold, warm and off give byte-identical reports, and a kept preamble is used") {
  const std::string cache = tempDir() + "/cache";
  const std::string run = "simulate bench/fidelity-corpus/cholesky.c -D N=24 --format json";
  CliResult off = runCli(run, cacheEnv("off"));
  REQUIRE(off.exitCode == 0);
  CHECK(entries(cache, ".pch").empty());
  CliResult cold = runCli(run, cacheEnv(cache));
  REQUIRE(cold.exitCode == 0);
  auto built = entries(cache, ".pch");
  REQUIRE(built.size() == 1);
  REQUIRE(entries(cache, ".stamps").size() == 1);
  // A kept preamble is touched when used: set its time back and see it come forward.
  const auto old = std::filesystem::file_time_type::clock::now() - std::chrono::hours(24 * 365);
  std::filesystem::last_write_time(built[0], old);
  CliResult warm = runCli(run, cacheEnv(cache));
  REQUIRE(warm.exitCode == 0);
  CHECK(std::filesystem::last_write_time(built[0]) > old);
  CHECK(entries(cache, ".pch") == built);
  CHECK(cold.out == off.out);
  CHECK(warm.out == off.out);
  CHECK(cold.err == off.err);
  CHECK(warm.err == off.err);
  // Another size is another -D: another preamble.
  CliResult other = runCli("simulate bench/fidelity-corpus/cholesky.c -D N=30 --format json", cacheEnv(cache));
  REQUIRE(other.exitCode == 0);
  CHECK(entries(cache, ".pch").size() == 2);
}

TEST_CASE("header cache: a changed header, or a new one in front of it, is read again") {
  const std::string dir = tempDir();
  const std::string cache = dir + "/cache";
  std::filesystem::create_directories(dir + "/first");
  writeFile(dir + "/inc", "sizes.h", "#define LEN 64\n");
  const std::string main = writeFile(dir, "main.c",
                                     "#include <sizes.h>\n#include <stdio.h>\n"
                                     "double a[LEN];\n"
                                     "int main(void) {\n  for (int i = 0; i < LEN; i++) a[i] = i;\n  printf(\"%f\\n\", a[3]);\n  return 0;\n}\n");
  const std::string run = "simulate '" + main + "' -I '" + dir + "/first' -I '" + dir + "/inc' --format json";
  const long long at64 = accessesOf(runCli(run, cacheEnv(cache)));
  CHECK(entries(cache, ".pch").size() == 1);
  CHECK(accessesOf(runCli(run, cacheEnv(cache))) == at64);
  writeFile(dir + "/inc", "sizes.h", "#define LEN 1000\n");
  const long long at1000 = accessesOf(runCli(run, cacheEnv(cache)));
  CHECK(at1000 == accessesOf(runCli(run, cacheEnv("off"))));
  CHECK(at1000 > at64);  // a stale preamble would keep LEN at 64
  writeFile(dir + "/first", "sizes.h", "#define LEN 10\n");  // found first from now on
  const long long at10 = accessesOf(runCli(run, cacheEnv(cache)));
  CHECK(at10 == accessesOf(runCli(run, cacheEnv("off"))));
  CHECK(at10 < at64);
}

TEST_CASE("header cache: a preamble declaring outside the system headers is not used") {
  const std::string dir = tempDir();
  const std::string cache = dir + "/cache";
  writeFile(dir + "/inc", "table.h", "static double table[16];\n");
  const std::string main = writeFile(dir, "main.c",
                                     "#include <table.h>\n"
                                     "int main(void) {\n  for (int i = 0; i < 16; i++) table[i] = i;\n  return (int)table[3];\n}\n");
  const std::string run = "simulate '" + main + "' -I '" + dir + "/inc' --format json --by container";
  CliResult off = runCli(run, cacheEnv("off"));
  CliResult first = runCli(run, cacheEnv(cache));
  CliResult second = runCli(run, cacheEnv(cache));
  REQUIRE(off.exitCode == 0);
  CHECK(accessesOf(off) > 0);
  CHECK(first.out == off.out);
  CHECK(second.out == off.out);
  CHECK(off.out.find("\"table\"") != std::string::npos);
  CHECK(entries(cache, ".pch").empty());
  CHECK(entries(cache, ".none").size() == 1);  // noted, so that later runs do not try again
}

TEST_CASE("header cache: include directories from the environment are part of the key") {
  const std::string dir = tempDir();
  const std::string cache = dir + "/cache";
  writeFile(dir + "/wide", "sizes.h", "#define LEN 512\n");
  writeFile(dir + "/narrow", "sizes.h", "#define LEN 8\n");
  const std::string main = writeFile(dir, "main.c",
                                     "#include <sizes.h>\n"
                                     "double a[LEN];\n"
                                     "int main(void) {\n  for (int i = 0; i < LEN; i++) a[i] = i;\n  return (int)a[3];\n}\n");
  const std::string run = "simulate '" + main + "' --format json";
  const long long wide = accessesOf(runCli(run, "CPATH='" + dir + "/wide' " + cacheEnv(cache)));
  const long long narrow = accessesOf(runCli(run, "CPATH='" + dir + "/narrow' " + cacheEnv(cache)));
  CHECK(narrow == accessesOf(runCli(run, "CPATH='" + dir + "/narrow' " + cacheEnv("off"))));
  CHECK(wide > narrow);
  CHECK(entries(cache, ".pch").size() == 2);
}
