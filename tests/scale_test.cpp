// `cats-static scale`: the sweep, predicted against simulated values, the output formats, the
// plot and every bad input (docs/scale-format.md).
#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>
#include <sstream>

using namespace cats;
using namespace cats::test;

namespace {

struct CsvRow {
  std::string parameter, value, group, name, metric, predicted, simulated, method, approximate, note;
};

/* Splits one CSV line (fields quoted with "" when they hold a comma). */
std::vector<std::string> csvFields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') fields.back() += '"', ++i;
    else if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) fields.emplace_back();
    else fields.back() += c;
  }
  return fields;
}

std::vector<CsvRow> csvRows(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  std::vector<CsvRow> rows;
  while (std::getline(in, line)) {
    auto f = csvFields(line);
    REQUIRE(f.size() == 10);
    rows.push_back({f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9]});
  }
  return rows;
}

/* The macro each example sizes its problem with, and a small range of it. */
struct ExampleSweep {
  const char* path;
  const char* define;
  bool indirect = false;  // has accesses the polyhedral model does not describe
};
const ExampleSweep kExamples[] = {
    {"examples/alloc-in-loop", "-D LEN=100..400 --points 3"},
    {"examples/jacobi-2d", "-D N=10..40 --points 3"},
    {"examples/matmul-heap", "-D N=8..32:x2"},
    {"examples/matmul-ikj", "-D N=8..32:x2"},
    {"examples/matmul-stack", "-D N=8..32:x2"},
    {"examples/matmul-static", "-D N=8..32:x2"},
    {"examples/multifile/src", "-D LEN=64..256:x2"},
    {"examples/particles-aos", "-D NP=100..300:+100"},
    {"examples/spmv-csr", "-D ROWS=50..150:+50", true},
    {"examples/transpose", "-D N=16..64:x2"},
    // examples/review holds one program per file (review's kernels and their fixes by hand).
    {"examples/review/matmul-ijk.c", "-D N=8..32:x2"},
    {"examples/review/matmul-ikj-fixed.c", "-D N=8..32:x2"},
    {"examples/review/column-sums.c", "-D N=16..64:x2"},
    {"examples/review/column-sums-fixed.c", "-D N=16..64:x2"},
    {"examples/review/column-sums-2d.c", "-D N=16..64:x2"},
    {"examples/review/column-sums-2d-padded.c", "-D N=16..64:x2"},
    {"examples/review/wavefront.c", "-D N=16..64:x2"},
    {"examples/review/dot.c", "-D N=100..400:x2"},
    {"examples/review/two-passes.c", "-D N=100..400:x2"},
    {"examples/review/two-passes-fused.c", "-D N=100..400:x2"},
    {"examples/review/two-passes-shifted.c", "-D N=100..400:x2"},
    {"examples/review/particles.c", "-D N=1000..4000:x2"},
    {"examples/review/particles-soa.c", "-D N=1000..4000:x2"},
    {"examples/review/row-update.c", "-D N=16..64:x2"},
    {"examples/review/row-update-restrict.c", "-D N=16..64:x2"},
    {"examples/review/gather.c", "-D N=1000..4000:x2", true},
    {"examples/review/gather-sorted.c", "-D N=1000..4000:x2"},
};

}  // namespace

TEST_CASE("scale: predicted accesses equal the O0 simulation at every point of every example", "[scale]") {
  std::set<std::string> directories, swept;  // "examples/NAME"
  for (const auto& dir : std::filesystem::directory_iterator(sourcePath("examples")))
    if (dir.is_directory()) directories.insert("examples/" + dir.path().filename().string());
  for (const auto& example : kExamples) {
    std::string path = example.path;
    swept.insert(path.substr(0, path.find('/', std::string("examples/").size())));
  }
  CHECK(directories == swept);  // a new example needs a sweep here
  for (const auto& example : kExamples) {
    INFO(example.path);
    auto r = runCli(std::string("scale ") + example.path + " " + example.define + " --simulate --model O0 --format csv");
    REQUIRE(r.exitCode == 0);
    auto rows = csvRows(r.out);
    REQUIRE(!rows.empty());
    std::size_t totals = 0;
    for (const auto& row : rows) {
      INFO(row.value << " " << row.group << " " << row.name);
      REQUIRE(!row.predicted.empty());
      CHECK(row.predicted == row.simulated);
      totals += row.group == "total";
      // Affine code is predicted by formulas; a group with x[col[j]] is counted on the stream.
      if (!example.indirect) CHECK(row.method == "formula");
      else if (row.group == "total") CHECK(row.method == "counted");
    }
    CHECK(totals >= 3);
  }
}

TEST_CASE("scale: a parameter of the entry is swept without reading the sources again; derived parameters follow it", "[scale]") {
  std::string dir = tempDir();
  writeFile(dir, "k.c",
            "void k(int n, int m, double *a, double *b) {\n"
            "  for (int i = 0; i < n; i++)\n"
            "    for (int j = 0; j < m; j++)\n"
            "      a[i * m + j] = b[j];\n"
            "}\n");
  auto r = runCli("scale " + dir + "/k.c --entry k -D n=2..8:+2 -D m=2*n+1 --simulate --model O0 --format csv --metric accesses --metric bytes");
  REQUIRE(r.exitCode == 0);
  std::map<std::string, std::string> total;
  for (const auto& row : csvRows(r.out))
    if (row.group == "total") total[row.value + " " + row.metric] = row.predicted + "/" + row.simulated;
  // Each (i, j) reads b[j] and writes a[i*m+j]: 2 * n * m accesses of 8 bytes, m = 2n + 1.
  CHECK(total["2 accesses"] == "20/20");
  CHECK(total["4 accesses"] == "72/72");
  CHECK(total["8 accesses"] == "272/272");
  CHECK(total["8 bytes"] == "2176/2176");
  CHECK(r.err.find("read again") == std::string::npos);
}

TEST_CASE("scale: the CSV contract, simulated cells empty without --simulate", "[scale]") {
  auto r = runCli("scale examples/transpose -D N=16..32:x2 --format csv");
  REQUIRE(r.exitCode == 0);
  CHECK(r.out.rfind("parameter,value,group,name,metric,predicted,simulated", 0) == 0);
  auto rows = csvRows(r.out);
  std::set<std::string> groups;
  for (const auto& row : rows) {
    groups.insert(row.group);
    CHECK(row.parameter == "N");
    CHECK(row.simulated.empty());
    CHECK(!row.predicted.empty());
  }
  CHECK(groups == std::set<std::string>{"total", "container", "function", "loop"});
}

TEST_CASE("scale: the JSON report is versioned and holds every point", "[scale]") {
  auto r = runCli("scale examples/matmul-heap/matmul.c --entry multiply -D n=4..16:x2 --format json --metric accesses --metric misses_D1");
  REQUIRE(r.exitCode == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["format"] == "cats-static-scale");
  CHECK(j["version"] == 1);
  CHECK(j["parameter"] == "n");
  CHECK(j["points"].size() == 3);
  CHECK(j["points"][1]["value"] == 8);
  const auto& total = j["groups"][0];
  CHECK(total["group"] == "total");
  // multiply reads A, B and C and writes C once per (i, j, k): 4 n^3.
  CHECK(total["values"]["accesses"][2]["predicted"] == 4 * 16 * 16 * 16);
  // The miss model predicts per container (and their total); a function's cell says so instead
  // of holding a number.
  CHECK(total["values"]["misses_D1"][0]["method"] == "formula");
  CHECK(total["values"]["misses_D1"][0]["predicted"].is_number());
  bool sawFunction = false;
  for (const auto& g : j["groups"])
    if (g["group"] == "function") {
      sawFunction = true;
      CHECK(g["values"]["misses_D1"][0]["predicted"].is_null());
      CHECK(g["values"]["misses_D1"][0]["note"] == "the miss model predicts per container");
    }
  CHECK(sawFunction);
}

TEST_CASE("scale: --plot draws the curves with gnuplot", "[scale]") {
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
    WARN("gnuplot is not installed; the plot test is skipped");
    return;
  }
  std::string svg = tempDir() + "/sweep.svg";
  auto r = runCli("scale examples/transpose -D N=16..64:x2 --simulate --plot " + svg);
  INFO(r.err);
  REQUIRE(r.exitCode == 0);
  std::string image = readFile(svg);
  CHECK(image.find("<svg") != std::string::npos);
  CHECK(image.find("accesses (total) predicted") != std::string::npos);
}

TEST_CASE("scale: bad input is a clear message and a documented exit code", "[scale]") {
  struct Case {
    std::string args;
    int exitCode;
    std::string message;
  };
  std::vector<Case> cases = {
      {"examples/transpose -D N=100..10", 2, "the range is empty (100 > 10)"},
      {"examples/transpose -D N=100..", 2, "unbounded"},
      {"examples/transpose -D N=..100", 2, "unbounded"},
      {"examples/transpose -D N=-5..10", 2, "cannot be negative"},
      {"examples/transpose -D N=10..100:x1", 2, "greater than 1"},
      {"examples/transpose -D N=10..100:+0", 2, "positive integer"},
      {"examples/transpose -D N=10..100:+10 --points 4", 2, "not both"},
      {"examples/transpose -D N=1..100000000:+1", 2, "more than 1000 points"},
      {"examples/transpose -D N=16", 2, "-D NAME=LO..HI"},
      {"examples/transpose -D N=1..4 -D M=1..4", 2, "sweeps one parameter"},
      {"examples/matmul-heap/matmul.c --entry multiply -D nope=1..4", 2, "nope is not a parameter"},
      {"examples/transpose -D N=16..32 --metric misses_L2", 2, "no level called L2"},
      {"examples/transpose -D N=16..32 --plot /nonexistent-dir/x.svg", 2, "cannot write"},
      {"examples/transpose -D N=16..32 --plot out.pdf", 2, ".svg or .png"},
      {"examples/transpose -D N=16..32 --metric speed", 2, "speed"},
      {"examples/matmul-heap/matmul.c --entry multiply -D n=4..8 -D m=n+", 2, "not an integer expression of n"},
      {"examples/transpose -D N=16..32 --compile-cmd 'gcc -O2'", 2, "--compile-cmd is not supported by scale"},
  };
  for (const auto& c : cases) {
    INFO(c.args);
    auto r = runCli("scale " + c.args);
    CHECK(r.exitCode == c.exitCode);
    CHECK(r.err.find(c.message) != std::string::npos);
    CHECK(r.out.empty());
  }
}

TEST_CASE("scale: a parameter left without a value is an analysis error naming it", "[scale]") {
  std::string dir = tempDir();
  writeFile(dir, "k.c", "void k(int n, int m, double *a) { for (int i = 0; i < n * m; i++) a[i] = 0; }\n");
  auto r = runCli("scale " + dir + "/k.c --entry k -D n=1..4");
  CHECK(r.exitCode == 1);
  CHECK(r.err.find("no value for parameter 'm'") != std::string::npos);
}

TEST_CASE("scale: breakpoints and resonance sizes of the miss model are listed for the swept range", "[scale]") {
  auto r = runCli("scale examples/transpose/transpose.c --entry transpose -D n=400..512:+112 --metric misses_D1 --format json");
  REQUIRE(r.exitCode == 0);
  auto j = nlohmann::json::parse(r.out);
  std::string resonances = j["resonances"].dump();
  CHECK(resonances.find("n = 512") != std::string::npos);  // a column walk with a 4 KiB row stride
  CHECK(resonances.find("n = 500") == std::string::npos);
  CHECK(!j["breakpoints"].empty());
}

TEST_CASE("scale: formulas of triangular, strided, backward and tiled nests equal the O0 simulation", "[scale]") {
  std::string dir = tempDir();
  writeFile(dir, "k.c",
            "void k(int n, double A[n][n], double *x) {\n"
            "  for (int i = 0; i < n; i++)\n"
            "    for (int j = 0; j <= i; j++) A[i][j] += x[j];\n"
            "  for (int i = n - 1; i >= 0; i -= 3) x[i] = x[i] * 2;\n"
            "  for (int ii = 0; ii < n; ii += 8)\n"
            "    for (int i = ii; i < (ii + 8 < n ? ii + 8 : n); i++) x[i] += 1;\n"
            "}\n");
  auto r = runCli("scale " + dir + "/k.c --entry k -D n=1..40:+3 --simulate --model O0 --format csv --metric accesses --metric bytes");
  REQUIRE(r.exitCode == 0);
  std::size_t rows = 0;
  for (const auto& row : csvRows(r.out)) {
    INFO(row.value << " " << row.group << " " << row.name << " " << row.metric << " " << row.note);
    CHECK(row.method == "formula");
    CHECK(row.predicted == row.simulated);
    ++rows;
  }
  CHECK(rows > 50);
}

TEST_CASE("analyze --counts: count and footprint formulas in the text and JSON reports", "[scale][golden]") {
  auto text = runCli("analyze examples/matmul-heap --entry multiply --counts");
  REQUIRE(text.exitCode == 0);
  CHECK(text.out == readFile(sourcePath("tests/golden/matmul-heap.multiply.counts.txt")));
  CHECK(text.out.find("executions  4*n^3  when n - 1 >= 0") != std::string::npos);  // per function: A, B, C read, C written
  auto json = runCli("analyze examples/spmv-csr --entry spmv --counts --format json");
  REQUIRE(json.exitCode == 0);
  CHECK(json.out == readFile(sourcePath("tests/golden/spmv-csr.spmv.counts.json")));
  auto j = nlohmann::json::parse(json.out);
  CHECK(j["version"] == 3);
  std::map<std::string, nlohmann::json> containers;
  for (const auto& r : j["counts"]["records"])
    if (r["level"] == "container") containers[r["name"]] = r;
  // y[r] is affine in the row loop; x[col[j]] is not, and says why instead of giving a number.
  CHECK(containers["y"]["executions"]["formula"] == "nrows  when nrows - 1 >= 0");
  CHECK(containers["x"]["executions"]["formula"].is_null());
  std::string reason = containers["x"]["executions"]["reason"];
  CHECK(reason.find("non-affine") != std::string::npos);
  auto plain = runCli("analyze examples/spmv-csr --entry spmv --format json");
  CHECK(nlohmann::json::parse(plain.out).count("counts") == 0);
}

TEST_CASE("scale: a count beyond 64 bits is an empty cell with a note, never a wrapped number", "[scale]") {
  auto r = runCli("scale examples/matmul-heap/matmul.c --entry multiply -D n=10000000..10000000 --points 1 --format csv");
  REQUIRE(r.exitCode == 0);
  auto rows = csvRows(r.out);
  REQUIRE(!rows.empty());
  for (const auto& row : rows) {
    CHECK(row.predicted.empty());  // 4 * 10^21 accesses
    CHECK(row.note.find("beyond 2^62") != std::string::npos);
  }
}

TEST_CASE("scale: isl out of its operation budget leaves the formula out, the group is counted and says why", "[scale]") {
  auto r = runCli("scale examples/transpose/transpose.c --entry transpose -D n=4..8:+4 --isl-operations 1 --simulate --model O0 --format csv");
  REQUIRE(r.exitCode == 0);
  auto rows = csvRows(r.out);
  REQUIRE(!rows.empty());
  for (const auto& row : rows) {
    CHECK(row.method == "counted");
    CHECK(row.note.find("maximal number of operations exceeded") != std::string::npos);
    CHECK(row.predicted == row.simulated);
  }
  CHECK(runCli("scale examples/transpose -D N=4..8 --isl-operations 0").exitCode == 2);
}
