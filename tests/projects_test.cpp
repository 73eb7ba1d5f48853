// Programs as shipped and whole projects (issue 6, items 5 and 6): main's arguments, several
// definitions of one name, static functions of the same name in different files, the -D rule,
// --param, values in C syntax, and compile databases with per-file flags and broken files.
#include "support.hpp"

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

using namespace cats;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const char* argvProgram = R"(
double a[64];
int main(int argc, char **argv, char **envp) {
  for (int i = 0; i < argc; i++) a[i] = 1;
  char *name = argv[0];
  return name != 0 && envp[0] == 0;
}
)";

}  // namespace

TEST_CASE("main(argc, argv) runs as with no arguments unless bound", "[projects][argv]") {
  std::string file = test::writeFile(test::tempDir(), "prog.c", argvProgram);
  auto plain = test::runCli("simulate '" + file + "' --format json");
  REQUIRE(plain.exitCode == 0);
  auto j = nlohmann::json::parse(plain.out);
  CHECK(j["totals"]["D1"]["writes"] == 1);  // argc = 1: one a[i]
  auto bound = test::runCli("simulate '" + file + "' --param argc=3 --format json");
  REQUIRE(bound.exitCode == 0);
  CHECK(nlohmann::json::parse(bound.out)["totals"]["D1"]["writes"] == 3);
  auto trace = test::analyzeSource(argvProgram);
  for (const auto& c : trace.containers) {
    if (c.name == "argv") CHECK(sym::print(c.sizeBytes) == "16");  // program name and NULL
    if (c.name == "envp") CHECK(sym::print(c.sizeBytes) == "8");   // NULL
  }
}

TEST_CASE("two definitions of main are an error naming both, unless --entry picks", "[projects][duplicates]") {
  std::string dir = test::tempDir();
  std::string a = test::writeFile(dir, "a.c", "double x[8];\nint main(void) { x[0] = 1; return 0; }\n");
  std::string b = test::writeFile(dir, "b.c", "double y[8];\nint main(void) { y[1] = 1; return 0; }\n");
  auto r = test::runCli("analyze '" + dir + "'");
  CHECK(r.exitCode == 1);
  CHECK(contains(r.err, "error: function 'main' is defined more than once"));
  CHECK(contains(r.err, "a.c:2:5"));
  CHECK(contains(r.err, "b.c:2:5"));
  auto picked = test::runCli("analyze '" + dir + "' --entry 'main@" + b + "' --format json");
  CHECK(picked.exitCode == 0);
  auto j = nlohmann::json::parse(picked.out);
  REQUIRE(j["accesses"].size() == 1);
  CHECK(j["accesses"][0]["container"] == "y");
}

TEST_CASE("static functions of one name in two files are two functions, each call reaching its own", "[projects][statics]") {
  std::string dir = test::tempDir();
  test::writeFile(dir, "a.c", R"(double A[100];
void run_b(void);
static void helper(void) { for (int i = 0; i < 100; i++) A[i] = 0; }
int main(void) { helper(); run_b(); return 0; }
)");
  test::writeFile(dir, "b.c", R"(double B[200];
static void helper(void) { for (int i = 0; i < 200; i += 2) B[i] = 1; }
void run_b(void) { helper(); }
)");
  auto trace = test::analyze({dir});
  CHECK_FALSE(trace.approximate);
  auto lines = test::accessLines(trace);
  REQUIRE(lines.size() == 2);
  CHECK(contains(lines[0], "A[i] -> A stride-1"));
  CHECK(contains(lines[0], "helper@"));
  CHECK(contains(lines[0], "a.c"));
  CHECK(contains(lines[1], "B[i] -> B stride-k stride=16"));
  CHECK(contains(lines[1], "b.c"));
}

TEST_CASE("a static inline function of a shared header is one function", "[projects][statics]") {
  std::string dir = test::tempDir();
  test::writeFile(dir, "util.h", "static inline void touch(double *p) { p[0] = 1; }\n");
  test::writeFile(dir, "a.c", "#include \"util.h\"\ndouble A[4];\nvoid other(void);\nint main(void) { touch(A); other(); return 0; }\n");
  test::writeFile(dir, "b.c", "#include \"util.h\"\ndouble B[4];\nvoid other(void) { touch(B); }\n");
  auto r = test::runCli("analyze '" + dir + "' --format json");
  CHECK(r.exitCode == 0);
  CHECK_FALSE(contains(r.err, "defined more than once"));
  auto report = nlohmann::json::parse(r.out);
  CHECK(report["accesses"].size() == 1);  // touch's summary, once
  for (const auto& f : report["functions"])
    if (f["name"] == "touch") {
      CHECK(f["contexts"] == 2);
      CHECK(f["call_sites"].size() == 2);
    }
}

TEST_CASE("a valued -D reaches the preprocessor only for macro names and tested names", "[projects][defines]") {
  std::string dir = test::tempDir();
  // n in a macro's parameter list and body: a binding only (defining it would break "int n").
  std::string square = test::writeFile(dir, "square.c", R"(#define SQUARE(n) ((n)*(n))
#define TWICE(x) ((x) + (n))
double a[4096];
void kernel(int n) { for (int i = 0; i < SQUARE(n); i++) a[i] = 1; }
)");
  auto r = test::runCli("simulate '" + square + "' -D n=8 --format json");
  REQUIRE(r.exitCode == 0);
  CHECK(nlohmann::json::parse(r.out)["totals"]["D1"]["writes"] == 64);
  // tested by #ifdef, by #if defined(...), or defined as a macro itself: a macro.
  for (const char* code : {"#ifdef N\ndouble a[N];\n#endif\nvoid f(void) { a[1] = 0; }\n",
                           "#if defined(N) && 1\ndouble a[N];\n#endif\nvoid f(void) { a[1] = 0; }\n",
                           "#ifndef N\n#define N 4\n#endif\ndouble a[N];\nvoid f(void) { a[1] = 0; }\n"}) {
    INFO(code);
    std::string file = test::writeFile(test::tempDir(), "m.c", code);
    auto m = test::runCli("analyze '" + file + "' -D N=0x40 --format json");
    REQUIRE(m.exitCode == 0);
    CHECK(nlohmann::json::parse(m.out)["containers"][0]["size_bytes"] == "512");
  }
  // defined by the sources without a test: the -D reaches the preprocessor, the source's #define wins (as with cc)
  std::string fixed = test::writeFile(test::tempDir(), "d.c", "#define N 4\ndouble a[N];\nvoid f(void) { a[1] = 0; }\n");
  auto d = test::runCli("analyze '" + fixed + "' -D N=0x40 --format json");
  REQUIRE(d.exitCode == 0);
  CHECK(nlohmann::json::parse(d.out)["containers"][0]["size_bytes"] == "32");
  // a macro name may take any text; a name that only binds needs an integer.
  std::string typed = test::writeFile(test::tempDir(), "t.c", "#ifndef T\n#define T int\n#endif\nT a[4];\nvoid f(void) { a[0] = 0; }\n");
  CHECK(test::runCli("analyze '" + typed + "' -D T=double").exitCode == 0);
  // a string literal is a build system's macro used in code (-DPACKAGE="name"): it reaches the preprocessor
  std::string named = test::writeFile(test::tempDir(), "p.c", "const char *name(void) { return PACKAGE; }\ndouble a[4];\nvoid f(void) { a[0] = 0; }\n");
  CHECK(test::runCli("analyze '" + named + "' -D 'PACKAGE=\"demo\"'").exitCode == 0);
  auto bad = test::runCli("analyze '" + square + "' -D n=abc");
  CHECK(bad.exitCode == 2);
  CHECK(contains(bad.err, "-D n=abc"));
}

TEST_CASE("option --param binds without reaching the preprocessor, and values use C syntax", "[projects][defines]") {
  std::string file = test::writeFile(test::tempDir(), "k.c", "double a[4096];\nvoid kernel(int n) { for (int i = 0; i < n; i++) a[i] = 1; }\n");
  for (const char* value : {"64", "0x40", "0100", "64u", "+64", "(1 << 6)", "8*8", "0b1000000"}) {
    INFO(value);
    for (const char* option : {"-D", "--param"}) {
      auto r = test::runCli(std::string("simulate '") + file + "' " + option + " 'n=" + value + "' --format json");
      REQUIRE(r.exitCode == 0);
      CHECK(nlohmann::json::parse(r.out)["totals"]["D1"]["writes"] == 64);
    }
  }
  for (const char* item : {"n=0x", "n=12abc", "n=", "n", "n=99999999999999999999", "n=1/0", "=4", "1n=4"}) {
    INFO(item);
    auto r = test::runCli(std::string("analyze '") + file + "' --param '" + item + "'");
    CHECK(r.exitCode == 2);
    CHECK(contains(r.err, "--param"));
  }
  // the old failure: -D n=0x40 used to give 0 accesses and exit 0
  std::string macroParam = test::writeFile(test::tempDir(), "s.c",
                                           "#define SQUARE(n) ((n)*(n))\ndouble a[8192];\nvoid kernel(int n) { for (int i = 0; i < n; i++) a[i] = 1; }\n");
  auto r = test::runCli("simulate '" + macroParam + "' -D n=0x40 --format json");
  REQUIRE(r.exitCode == 0);
  CHECK(nlohmann::json::parse(r.out)["totals"]["D1"]["writes"] == 64);
}

TEST_CASE("a compile database: per-file flags, duplicates merged, a broken file skipped and reported", "[projects][database]") {
  std::string root = test::tempDir();
  test::writeFile(root, "include/cfg.h", "#ifndef SIZE\n#error SIZE must be defined\n#endif\n");
  test::writeFile(root, "src/main.c",
                  "#include \"cfg.h\"\ndouble data[SIZE];\nvoid scale(double *v, int n);\nint main(void) { scale(data, SIZE); return 0; }\n");
  test::writeFile(root, "src/scale.c",
                  "#ifndef FACTOR\n#error FACTOR must be defined\n#endif\nvoid scale(double *v, int n) { for (int i = 0; i < n; i++) v[i] *= FACTOR; }\n");
  test::writeFile(root, "src/broken.c", "int broken(void) {\n  return undefined_name + ;\n}\n");
  test::writeFile(root, "src/skipped.cpp", "this is not C\n");
  test::writeFile(root, "build/compile_commands.json", R"([
  {"directory": "..", "file": "src/main.c", "arguments": ["gcc", "-Iinclude", "-DSIZE=128", "-std=c99", "-c", "src/main.c"]},
  {"directory": "..", "file": "src/main.c", "arguments": ["gcc", "-Iinclude", "-DSIZE=128", "-c", "src/main.c", "-o", "x.o"]},
  {"directory": ")" + root + R"(", "file": "src/scale.c", "command": "cc -DFACTOR=\"2.0\" -c 'src/scale.c'"},
  {"directory": "..", "file": "src/broken.c", "command": "cc -c src/broken.c"},
  {"directory": "..", "file": "src/skipped.cpp", "command": "c++ -c src/skipped.cpp"}
])");
  auto r = test::runCli("analyze -p '" + root + "/build' --format json");
  CHECK(r.exitCode == 1);  // a file was skipped: the report is written and marked approximate
  CHECK(contains(r.err, "broken.c:2:"));
  CHECK(contains(r.err, "undefined_name"));
  CHECK(contains(r.err, "file skipped because of the errors above"));
  CHECK_FALSE(contains(r.err, "errors generated"));
  CHECK_FALSE(contains(r.err, "defined more than once"));
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["files"].size() == 2);
  CHECK(j["approximate"] == true);
  CHECK(j["containers"][0]["size_bytes"] == "1024");  // SIZE=128 doubles from main.c's own -D
  CHECK(j["accesses"].size() == 2);                     // v[i] read and write, followed into scale.c
  auto missing = test::runCli("analyze -p '" + root + "'");
  CHECK(missing.exitCode == 1);
  CHECK(contains(missing.err, "compile_commands.json"));
}

TEST_CASE("a call to an undefined function does not reach another file's static function of that name", "[projects][statics]") {
  std::string dir = test::tempDir();
  test::writeFile(dir, "a.c", "double A[8];\nvoid helper(double *p);\nint main(void) { helper(A); return 0; }\n");
  test::writeFile(dir, "b.c", "static void helper(double *p) { p[0] = 1; }\nvoid use(double *q) { helper(q); }\n");
  auto trace = test::analyze({dir});
  for (const auto& line : test::accessLines(trace)) CHECK_FALSE(contains(line, "main"));
  bool warned = false;
  for (const auto& d : trace.diagnostics) warned = warned || contains(d.message, "unknown function 'helper'");
  CHECK(warned);
}
