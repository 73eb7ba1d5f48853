// End to end: `simulate --format cachegrind` read by the real cg_annotate (its per-line numbers
// against the JSON report's by_line), `--format cats` (the C.A.T.S. runtime trace) parsed as
// JSON, and the output-file rules every command shares (bad paths, unknown formats).
#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

using namespace cats;
using nlohmann::json;

namespace {

/* Standard output of "command" run by the shell. */
std::string shellOutput(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  CHECK(pclose(pipe) == 0);
  return out;
}

bool isRule(const std::string& line) { return line.size() >= 20 && line.find_first_not_of('-') == std::string::npos; }

/* cg_annotate's annotated lines of "file" (whole file, no percentages) as line -> counts in
   event order; a line cg_annotate shows as "." (no cost centre) is left out. */
std::map<unsigned, std::vector<std::uint64_t>> annotatedLines(const std::string& annotation, const std::string& file, std::size_t events) {
  std::istringstream in(annotation);
  std::map<unsigned, std::vector<std::uint64_t>> lines;
  std::string line;
  while (std::getline(in, line) && line != "-- Auto-annotated source: " + file) {
  }
  REQUIRE(in);
  std::getline(in, line);  // the rule under the title
  std::getline(in, line);  // the events' header
  std::getline(in, line);  // a blank line
  unsigned number = 1;
  while (std::getline(in, line) && !isRule(line) && !line.empty()) {
    if (line.rfind("-- line ", 0) == 0) {
      number = static_cast<unsigned>(std::stoul(line.substr(8)));
      continue;
    }
    std::istringstream fields(line);
    std::vector<std::uint64_t> counts;
    bool cost = true;
    for (std::size_t k = 0; k < events; ++k) {
      std::string field;
      fields >> field;
      if (field == ".") {
        cost = false;
        continue;
      }
      field.erase(std::remove(field.begin(), field.end(), ','), field.end());
      counts.push_back(std::stoull(field));
    }
    if (cost) lines[number] = counts;
    ++number;
  }
  return lines;
}

}  // namespace

TEST_CASE("cg_annotate reads the cachegrind.out and its per-line numbers are the JSON report's by_line", "[export][cachegrind]") {
  struct Example {
    std::string path, file, defines;
  };
  auto example = GENERATE(values<Example>({
      {"examples/matmul-heap", "examples/matmul-heap/matmul.c", "-D N=64"},
      {"examples/jacobi-2d", "examples/jacobi-2d/jacobi.c", "-D N=100 -D TSTEPS=4"},
  }));
  INFO(example.path);
  std::string dir = test::tempDir();
  const std::string common = "simulate " + example.path + " " + example.defines + " --D1=8192,2,64 --L2=32768,4,64 --LL=262144,8,64";
  auto written = test::runCli(common + " --format cachegrind -o '" + dir + "/cachegrind.out'");
  REQUIRE(written.exitCode == 0);
  CHECK(written.out.empty());
  auto report = test::runCli(common + " --format json");
  REQUIRE(report.exitCode == 0);
  json byLine = json::parse(report.out)["by_line"];

  std::string annotation =
      shellOutput("cd '" + test::sourcePath("") + "' && cg_annotate --show-percs=no --context=1000000 --threshold=0 '" + dir + "/cachegrind.out'");
  CHECK(annotation.find("Events recorded:  Dr Dw D1mr D1mw L2mr L2mw DLmr DLmw") != std::string::npos);
  auto lines = annotatedLines(annotation, example.file, 8);
  std::uint64_t misses = 0;
  std::size_t compared = 0;
  for (const auto& [key, counts] : byLine.items()) {
    if (key.rfind(example.file + ":", 0) != 0) continue;
    unsigned number = static_cast<unsigned>(std::stoul(key.substr(example.file.size() + 1)));
    INFO(key);
    REQUIRE(lines.count(number) == 1);
    const std::vector<std::uint64_t>& annotated = lines.at(number);
    REQUIRE(annotated.size() == 8);
    CHECK(annotated[0] == counts["D1"]["reads"].get<std::uint64_t>());
    CHECK(annotated[1] == counts["D1"]["writes"].get<std::uint64_t>());
    const char* levels[] = {"D1", "L2", "LL"};
    for (std::size_t k = 0; k < 3; ++k) {
      CHECK(annotated[2 + 2 * k] == counts[levels[k]]["read_misses"].get<std::uint64_t>());
      CHECK(annotated[3 + 2 * k] == counts[levels[k]]["write_misses"].get<std::uint64_t>());
      misses += annotated[2 + 2 * k] + annotated[3 + 2 * k];
    }
    ++compared;
  }
  CHECK(compared == lines.size());  // no cost on a line the JSON report does not list
  CHECK(compared >= 3);
  CHECK(misses > 0);
}

TEST_CASE("cachegrind.out of a small example matches its golden file", "[export][cachegrind][golden]") {
  std::string dir = test::tempDir();
  auto r = test::runCli("simulate examples/matmul-heap -D N=24 --D1=4096,2,64 --LL=65536,8,64 --format cachegrind -o '" + dir + "/cachegrind.out'");
  REQUIRE(r.exitCode == 0);
  CHECK(test::readFile(dir + "/cachegrind.out") == test::readFile(test::sourcePath("tests/golden/matmul-heap.cachegrind.out")));
}

TEST_CASE("cachegrind.out with several configurations holds the first and says so", "[export][cachegrind]") {
  auto r = test::runCli("simulate examples/matmul-heap -D N=24 --D1=4096,2,64 --D1=8192,2,64 --LL=65536,8,64 --format cachegrind");
  REQUIRE(r.exitCode == 0);
  CHECK(r.err.find("writing the first (D1 4KiB/2/64") != std::string::npos);
  CHECK(r.out.find("desc: D1 cache:         4096 B, 64 B, 2-way associative") != std::string::npos);
  CHECK(r.out.find("8192 B") == std::string::npos);
}

namespace {

const char* const kBranchy = R"(#include <stdlib.h>
#define N 16
double a[N], b[N];

void kernel(int n, double *x) {
#pragma omp parallel
  {
    for (int i = 0; i < n; i++) {
      if (i < n / 2)
        x[i] = a[i];
      else
        x[i] = b[i];
    }
  }
}

int main(void) {
  double *x = malloc(N * sizeof(double));
  kernel(N, x);
  free(x);
  return 0;
}
)";

}  // namespace

TEST_CASE("the C.A.T.S. export has every event type and field the runtime tracer writes", "[export][cats]") {
  std::string dir = test::tempDir();
  std::string source = test::writeFile(dir, "branchy.c", kBranchy);
  auto r = test::runCli("simulate '" + source + "' --format cats -o '" + dir + "/trace.cats'");
  REQUIRE(r.exitCode == 0);
  json trace = json::parse(test::readFile(dir + "/trace.cats"));
  CHECK(trace["truncated"] == false);
  const json& events = trace["events"];
  REQUIRE(events.is_array());

  std::set<std::string> types, scopeTypes;
  std::vector<std::uint64_t> open;
  std::map<std::uint64_t, std::uint64_t> live;  // buffer_id -> size
  std::uint64_t accesses = 0, reads = 0, writes = 0;
  for (const json& e : events) {
    INFO(e.dump());
    for (const char* field : {"funcname", "filename", "line", "col", "type"}) CHECK(e.contains(field));
    CHECK(e["filename"] == source);
    const std::string type = e["type"];
    types.insert(type);
    if (type == "allocation") {
      CHECK(e["buffer_name"].is_string());
      live[e["buffer_id"].get<std::uint64_t>()] = e["size"].get<std::uint64_t>();
    } else if (type == "deallocation") {
      CHECK(e["buffer_name"] == "x");
      CHECK(live.erase(e["buffer_id"].get<std::uint64_t>()) == 1);
    } else if (type == "access") {
      ++accesses;
      const std::string mode = e["mode"];
      CHECK((mode == "r" || mode == "w"));
      (mode == "r" ? reads : writes) += 1;
      REQUIRE(live.count(e["buffer_id"].get<std::uint64_t>()) == 1);
      CHECK(e["offset"].get<std::uint64_t>() + e["bytes"].get<std::uint64_t>() <= live[e["buffer_id"].get<std::uint64_t>()]);
      CHECK(e["bytes"] == 8);
      CHECK(e["buffer_name"].is_string());
    } else if (type == "scope_entry") {
      scopeTypes.insert(e["scope_type"].get<std::string>());
      open.push_back(e["id"].get<std::uint64_t>());
    } else {
      REQUIRE(type == "scope_exit");
      REQUIRE(!open.empty());
      CHECK(open.back() == e["id"].get<std::uint64_t>());
      open.pop_back();
    }
  }
  CHECK(open.empty());
  CHECK(types == std::set<std::string>{"allocation", "deallocation", "access", "scope_entry", "scope_exit"});
  CHECK(scopeTypes == std::set<std::string>{"func", "loop", "cond", "para"});
  // Every iteration reads a[i] or b[i] and writes x[i]: 16 of each, as the simulation counts them.
  CHECK(reads == 16);
  CHECK(writes == 16);
  CHECK(trace["accesses_written"] == accesses);
  CHECK(trace["accesses_total"] == accesses);
}

TEST_CASE("the C.A.T.S. export stops at --max-events, says so and keeps scopes paired", "[export][cats]") {
  std::string dir = test::tempDir();
  auto r = test::runCli("simulate examples/matmul-heap -D N=16 --format cats --max-events 40 -o '" + dir + "/trace.cats'");
  REQUIRE(r.exitCode == 0);
  CHECK(r.err.find("warning: the C.A.T.S. trace stops after 40 events") != std::string::npos);
  json trace = json::parse(test::readFile(dir + "/trace.cats"));
  CHECK(trace["truncated"] == true);
  CHECK(trace["max_events"] == 40);
  auto report = test::runCli("simulate examples/matmul-heap -D N=16 --format json");
  REQUIRE(report.exitCode == 0);
  CHECK(trace["accesses_total"] == json::parse(report.out)["accesses"]);
  CHECK(trace["accesses_written"] < trace["accesses_total"]);
  std::size_t entries = 0, exits = 0;
  for (const json& e : trace["events"]) {
    entries += e["type"] == "scope_entry";
    exits += e["type"] == "scope_exit";
  }
  CHECK(entries == exits);
  CHECK(trace["events"].size() <= 40 + entries);
  CHECK(trace["events"].size() >= 40);
  // Byte-identical on a second run.
  auto again = test::runCli("simulate examples/matmul-heap -D N=16 --format cats --max-events 40");
  CHECK(again.out == test::readFile(dir + "/trace.cats"));
}

TEST_CASE("an unknown --format is a usage error", "[export][cli]") {
  auto r = test::runCli("simulate examples/matmul-heap --format cachegrnd");
  CHECK(r.exitCode == 2);
  CHECK(r.err.find("--format") != std::string::npos);
  CHECK(r.out.empty());
}

TEST_CASE("an output path that cannot be written fails with exit 1 and leaves nothing behind", "[export][cli]") {
  namespace fs = std::filesystem;
  std::string dir = test::tempDir();
  test::writeFile(dir, "plain-file", "x");
  fs::create_directory(dir + "/a-directory");
  auto entries = [&] {
    std::set<std::string> names;
    for (const auto& entry : fs::recursive_directory_iterator(dir)) names.insert(entry.path().string());
    return names;
  };
  const std::set<std::string> before = entries();
  for (const std::string format : {"text", "json", "cachegrind", "cats"}) {
    for (const std::string& output : {dir + "/plain-file/report", dir + "/missing/report", dir + "/a-directory"}) {
      INFO(format << " -> " << output);
      auto r = test::runCli("simulate examples/matmul-heap -D N=8 --format " + format + " -o '" + output + "'");
      CHECK(r.exitCode == 1);
      CHECK(r.err.find("cannot write '" + output + "'") != std::string::npos);
      CHECK(entries() == before);
    }
  }
  CHECK(test::readFile(dir + "/plain-file") == "x");
}

TEST_CASE("a report file replaces an existing one whole", "[export][cli]") {
  std::string dir = test::tempDir();
  std::string path = test::writeFile(dir, "report.json", std::string(100000, 'x'));
  auto r = test::runCli("simulate examples/matmul-heap -D N=8 --format json -o '" + path + "'");
  REQUIRE(r.exitCode == 0);
  CHECK(json::parse(test::readFile(path))["format"] == "cats-static-simulation");
  CHECK(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()) == 1);
}

TEST_CASE("an output through a symbolic link or to a device is written through, the link or device kept", "[export][cli]") {
  // Renaming a temporary file over the target would turn a link into a copy and /dev/null into a
  // plain file (it did, once): only regular files are replaced.
  std::string dir = test::tempDir();
  std::string file = test::writeFile(dir, "real.txt", "old");
  std::filesystem::create_symlink(file, dir + "/link.txt");
  auto r = test::runCli("simulate examples/matmul-heap -D N=8 -o '" + dir + "/link.txt'");
  REQUIRE(r.exitCode == 0);
  CHECK(std::filesystem::is_symlink(dir + "/link.txt"));
  CHECK(test::readFile(file).find("cats-static simulation") == 0);
  auto out = test::runCli("simulate examples/matmul-heap -D N=8 -o /dev/stdout");
  REQUIRE(out.exitCode == 0);
  CHECK(out.out.find("cats-static simulation") == 0);  // written through the link to the captured stdout
  CHECK(std::filesystem::is_symlink("/dev/stdout"));
  CHECK(std::filesystem::is_character_file("/dev/null"));
}

TEST_CASE("export options that make no sense are usage errors", "[export][cli]") {
  std::string dir = test::tempDir();
  std::string din = test::writeFile(dir, "trace.din", "r 1000 8\n");
  for (const std::string format : {"cachegrind", "cats"}) {
    auto r = test::runCli("simulate --din '" + din + "' --format " + format);
    CHECK(r.exitCode == 2);
    CHECK(r.err.find("--format " + format + " needs sources") != std::string::npos);
  }
  auto zero = test::runCli("simulate examples/matmul-heap --format cats --max-events 0");
  CHECK(zero.exitCode == 2);
  CHECK(zero.err.find("--max-events") != std::string::npos);
}

TEST_CASE("every command's -o shares the rule: an unwritable path is exit 1 with nothing written", "[export][cli]") {
  std::string dir = test::tempDir();
  test::writeFile(dir, "plain-file", "x");
  auto analyze = test::runCli("analyze examples/matmul-heap -o '" + dir + "/plain-file/out.txt'");
  CHECK(analyze.exitCode == 1);
  CHECK(analyze.err.find("cannot write '" + dir + "/plain-file/out.txt': Not a directory") != std::string::npos);
  auto deps = test::runCli("deps examples/matmul-heap -o '" + dir + "/missing/out.txt'");
  CHECK(deps.exitCode == 1);
  CHECK(deps.err.find("cannot write '" + dir + "/missing/out.txt': No such file or directory") != std::string::npos);
  CHECK(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()) == 1);
}
