// Which -D names the sources use as macros (frontend/macro_names.cpp): a directive's name, or
// any identifier a conditional tests, after comments and line continuations.
#include "frontend/frontend.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <vector>

using namespace cats::test;

TEST_CASE("macro names: a -D name reaches the preprocessor when a directive defines or tests it, nothing else") {
  const std::string dir = tempDir();
  const std::string main = writeFile(dir, "main.c",
                                     "#ifndef N\n#define N 10\n#endif\n"
                                     "#if defined(M) && (K > 0x10) // SKIPPED\n#endif\n"
                                     "#  define   SQUARE(n) ((n) * (n))\n"
                                     "#define LONG \\\n  WRAPPED\n"
                                     "#if A /* B */ + C\r\n#endif\r\n"
                                     "#ifdefD\n#definedE 1\n"
                                     "int n, WRAPPED;\n");
  writeFile(dir, "side.h", "#undef U\n#elifdef V\n");
  const std::vector<std::string> candidates{"N", "M", "K", "x10", "SKIPPED", "SQUARE", "n", "LONG", "WRAPPED", "A", "B", "C", "D", "E", "U", "V"};
  CHECK(cats::frontend::namesUsedAsMacros(candidates, {main}, {}) ==
        std::set<std::string>{"N", "M", "K", "x10", "SQUARE", "LONG", "A", "C", "U", "V"});
}
