// The memset/memcpy idioms of the compiler model (sim/compiler/idioms.cpp) against the
// compilers' own reports, pinned in tests/inputs/compiler/idioms.c; the stored-value facts the
// trace carries for them; and the replaced loop's accesses, counted as glibc's under Cachegrind.
#include "sim/compiler.hpp"
#include "sim/concretize.hpp"
#include "sim/stream.hpp"
#include "support.hpp"
#include "tracer/trace_json.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <nlohmann/json.hpp>

using namespace cats;

namespace {

sim::CompilationPlan planFor(const trace::Trace& contexts, const std::string& compiler, const std::string& flags) {
  return sim::planCompilation(contexts, std::get<sim::CompilerTarget>(sim::parseCompilerTarget(compiler, "", flags)));
}

/* The library call each loop became, by function. */
std::map<std::string, std::string> replaced(const trace::Trace& contexts, const sim::CompilationPlan& plan) {
  std::map<std::string, std::string> out;
  for (const sim::LoopDecision& d : plan.loops) out[contexts.functionOf(d.scope)] = d.replacedBy;
  return out;
}

const trace::Event& writeOf(const trace::Trace& t, const std::string& text) {
  for (const trace::Event& e : t.events)
    if (e.kind == trace::EventKind::Access && e.mode == ir::AccessMode::Write && e.text == text) return e;
  FAIL("no write " << text);
  return t.events.front();
}

}  // namespace

TEST_CASE("writes carry what they store: a byte-splat constant, another constant, a copy, or unknown", "[compiler][idioms][trace]") {
  trace::Trace t = test::analyzeSource(
      "void f(int n, double *restrict a, int *restrict b, const double *restrict c, float *restrict d, const double *restrict e) {\n"
      "  for (int i = 0; i < n; i++) { a[i] = 0.0; b[i] = -1; b[i + n] = 7; d[i] = c[i]; a[i + n] = e[i]; a[i + 2 * n] = -e[i]; }\n"
      "}\n");
  CHECK(writeOf(t, "a[i]").stored.kind == ir::StoredValue::Kind::Constant);
  CHECK(writeOf(t, "a[i]").stored.splat == std::optional<std::uint8_t>(0));
  CHECK(writeOf(t, "b[i]").stored.splat == std::optional<std::uint8_t>(0xff));
  CHECK(writeOf(t, "b[i + n]").stored.kind == ir::StoredValue::Kind::Constant);
  CHECK_FALSE(writeOf(t, "b[i + n]").stored.splat);
  CHECK(writeOf(t, "d[i]").stored.kind == ir::StoredValue::Kind::Unknown);  // converted from double: not a copy
  const trace::Event& copy = writeOf(t, "a[i + n]");
  REQUIRE(copy.stored.kind == ir::StoredValue::Kind::Copy);
  REQUIRE(copy.copyOf);
  CHECK(t.events[*copy.copyOf].text == "e[i]");
  CHECK(writeOf(t, "a[i + 2 * n]").stored.kind == ir::StoredValue::Kind::Unknown);

  trace::Trace back = trace::readTraceJson(trace::writeTraceJson(t));
  CHECK(writeOf(back, "a[i + n]").copyOf == copy.copyOf);
  CHECK(writeOf(back, "b[i]").stored == writeOf(t, "b[i]").stored);
}

TEST_CASE("the trace reader rejects a copy that names no earlier read", "[compiler][idioms][trace]") {
  trace::Trace t = test::analyzeSource("void f(int n, double *restrict a, const double *restrict c) {\n  for (int i = 0; i < n; i++) a[i] = c[i];\n}\n");
  auto j = nlohmann::json::parse(trace::writeTraceJson(t));
  bool found = false;
  for (auto& e : j["events"])
    if (e.contains("copy_of")) {
      e["copy_of"] = 999;
      found = true;
    }
  REQUIRE(found);
  CHECK_THROWS_WITH(trace::readTraceJson(j.dump()), Catch::Contains("copy_of: not an earlier read"));
}

TEST_CASE("GCC -O2 and Clang -O1 replace byte-splat stores and disjoint copies by memset and memcpy, as their reports say",
          "[compiler][idioms]") {
  trace::Trace contexts = test::analyze({"tests/inputs/compiler/idioms.c"});
  // The expected answers are the compilers' reports quoted in idioms.c.
  std::map<std::string, std::string> expected{{"zero", "memset"}, {"ones", "memset"}, {"fill", ""},
                                              {"copy", "memcpy"}, {"copy_alias", ""}, {"scaled", ""}};
  CHECK(replaced(contexts, planFor(contexts, "gcc", "-O2")) == expected);
  CHECK(replaced(contexts, planFor(contexts, "gcc", "-O3")) == expected);
  CHECK(replaced(contexts, planFor(contexts, "clang", "-O1")) == expected);
  CHECK(replaced(contexts, planFor(contexts, "clang", "-O2")) == expected);
  std::map<std::string, std::string> none{{"zero", ""}, {"ones", ""}, {"fill", ""}, {"copy", ""}, {"copy_alias", ""}, {"scaled", ""}};
  CHECK(replaced(contexts, planFor(contexts, "gcc", "-O1")) == none);  // GCC 12 -O1 -fopt-info-loop: silent
  CHECK(replaced(contexts, planFor(contexts, "gcc", "-O2 -fno-tree-loop-distribute-patterns")) == none);
  CHECK(replaced(contexts, planFor(contexts, "gcc", "-O0")) == none);

  sim::CompilationPlan plan = planFor(contexts, "gcc", "-O2");
  for (const sim::LoopDecision& d : plan.loops)
    if (contexts.functionOf(d.scope) == "zero") {
      CHECK(d.reason.find("a[i] stores the byte 0") == 0);
      CHECK(d.vectorFactor == 1);
    }
}

namespace {

/* Every record of the stream of "contexts" compiled as "plan" says, in order. */
std::vector<sim::Record> recordsOf(const trace::Trace& contexts, const sim::CompilationPlan& plan) {
  sim::ConcretizeOptions options;
  options.plan = &plan;
  options.model = sim::RegisterModel::O2;
  sim::Program program = sim::concretize(contexts, options);
  sim::AddressStream stream(program, {});
  std::vector<sim::Record> buffer(4096), out;
  while (std::size_t n = stream.next(buffer.data(), buffer.size())) out.insert(out.end(), buffer.begin(), buffer.begin() + static_cast<std::ptrdiff_t>(n));
  return out;
}

/* The accesses of the stream of "contexts" compiled as "compiler FLAGS", as (bytes, write) -> count per compiled function. */
std::map<std::string, std::map<std::pair<std::uint32_t, bool>, std::size_t>> accessesByFunction(const trace::Trace& contexts, const std::string& compiler,
                                                                                               const std::string& flags) {
  sim::CompilationPlan plan = planFor(contexts, compiler, flags);
  std::map<std::string, std::map<std::pair<std::uint32_t, bool>, std::size_t>> out;
  for (const sim::Record& r : recordsOf(contexts, plan)) ++out[plan.compiledFunction(contexts, contexts.events[r.tag].scope)][{r.bytes, r.write}];
  return out;
}

}  // namespace

TEST_CASE("a loop replaced by memset or memcpy runs as glibc's AVX2 variants count under Cachegrind", "[compiler][idioms][sim]") {
  // 2000 doubles = 16,000 bytes: above glibc's rep stosb (2048) and rep movsb (4096) thresholds,
  // so Cachegrind counts one access per byte (memset: 16,000 writes; memcpy: 15,994 reads and
  // 15,988 writes measured, the ends done by vector moves); 100 doubles = 800 bytes: 32-byte vectors.
  trace::Trace big = test::analyzeSource(
      "double a[2000], b[2000];\nint main(void) {\n  for (int i = 0; i < 2000; i++) a[i] = 0.0;\n  for (int i = 0; i < 2000; i++) b[i] = a[i];\n  return 0;\n}\n");
  auto gcc = accessesByFunction(big, "gcc", "-O2");
  using Key = std::pair<std::uint32_t, bool>;
  CHECK(gcc["memset"] == std::map<Key, std::size_t>{{{1, true}, 16000}});
  CHECK(gcc["memcpy"] == std::map<Key, std::size_t>{{{1, false}, 16000}, {{1, true}, 16000}});
  CHECK(gcc.count("main") == 0);
  auto plain = accessesByFunction(big, "gcc", "-O2 -fno-tree-loop-distribute-patterns");
  CHECK(plain.count("memset") == 0);
  CHECK(plain["main"].size() > 0);

  trace::Trace small = test::analyzeSource("double a[100];\nint main(void) {\n  for (int i = 0; i < 100; i++) a[i] = 0.0;\n  return 0;\n}\n");
  // 25 stores of 32 bytes (Cachegrind: 28, glibc's head and tail stores overlap).
  CHECK(accessesByFunction(small, "clang", "-O2")["memset"] == std::map<Key, std::size_t>{{{32, true}, 25}});
}

namespace {

/* Per copy loop in program order, the destination it writes and the container its memcpy reads
   when "compiler FLAGS" runs it (from the stream: the reads the loop's accesses became). */
std::vector<std::pair<std::string, std::string>> copySources(const trace::Trace& contexts, const std::string& compiler, const std::string& flags) {
  sim::CompilationPlan plan = planFor(contexts, compiler, flags);
  std::vector<std::pair<std::string, std::string>> out;  // (written, read) per run of memcpy accesses
  std::string written, read;
  auto flush = [&] {
    if (!written.empty() && !read.empty()) out.emplace_back(written, read);
    written.clear();
    read.clear();
  };
  for (const sim::Record& r : recordsOf(contexts, plan)) {
    const trace::Event& e = contexts.events[r.tag];
    if (plan.compiledFunction(contexts, e.scope) != "memcpy") continue;
    const std::string& name = contexts.containers.at(e.container).name;
    if (r.write && written != name) flush(), written = name;
    else if (!r.write && read.empty()) read = name;
  }
  flush();
  return out;
}

}  // namespace

TEST_CASE("Clang's MemCpyOpt makes a copy of a copy read the first source, GCC does not, as their outputs say", "[compiler][idioms]") {
  trace::Trace contexts = test::analyze({"tests/inputs/compiler/memcpy_forward.c"});
  // The expected answers are the IR and assembly quoted in memcpy_forward.c.
  using Copies = std::vector<std::pair<std::string, std::string>>;
  CHECK(copySources(contexts, "clang", "-O2") == Copies{{"b", "a"}, {"c", "a"}, {"d", "a"}, {"e", "d"}});
  CHECK(copySources(contexts, "gcc", "-O2") == Copies{{"b", "a"}, {"c", "b"}, {"d", "c"}, {"e", "d"}});

  sim::CompilationPlan plan = planFor(contexts, "clang", "-O2");
  std::vector<const sim::LoopDecision*> copies;
  for (const sim::LoopDecision& d : plan.loops)
    if (d.replacedBy == "memcpy") copies.push_back(&d);
  REQUIRE(copies.size() == 4);
  CHECK_FALSE(copies[0]->copiesFrom);
  CHECK(copies[1]->copiesFrom == std::optional<std::size_t>(copies[0]->scope));
  CHECK(copies[2]->copiesFrom == std::optional<std::size_t>(copies[0]->scope));
  CHECK_FALSE(copies[3]->copiesFrom);
  CHECK(copies[1]->reason.find("Clang's MemCpyOpt reads that copy's source") != std::string::npos);
}

namespace {

/* The stores split out as memset, as "function: store text, line of the nest, before/after". */
std::set<std::string> distributed(const trace::Trace& contexts, const sim::CompilationPlan& plan) {
  std::set<std::string> out;
  for (const sim::DistributedStore& d : plan.distributed)
    out.insert(contexts.functionOf(d.nest) + ": " + contexts.events[d.store].text + " over line " + std::to_string(contexts.scopes[d.nest].loc.line) +
               (d.before ? ", before" : ", after"));
  return out;
}

}  // namespace

TEST_CASE("GCC and Clang split a byte-splat store out of a loop that does other work too, as their reports and objdump say",
          "[compiler][idioms]") {
  trace::Trace contexts = test::analyze({"tests/inputs/compiler/distribute.c"});
  // The expected answers are the reports and call positions quoted in distribute.c.
  CHECK(distributed(contexts, planFor(contexts, "gcc", "-O2")) == std::set<std::string>{"zero_last: out[i][j] over line 21, after",
                                                                                      "zero_first: row[i] over line 29, before",
                                                                                      "read_back: row[i] over line 52, before",
                                                                                      "rows_and_flags: grid[i][j] over line 62, after"});
  CHECK(distributed(contexts, planFor(contexts, "clang", "-O2")) == std::set<std::string>{"zero_last: out[i][j] over line 21, before",
                                                                                        "zero_first: row[i] over line 29, before",
                                                                                        "partial_rows: sums[i][j] over line 37, before",
                                                                                        "rows_and_flags: grid[i][j] over line 62, before"});
  CHECK(distributed(contexts, planFor(contexts, "gcc", "-O2 -fno-tree-loop-distribute-patterns")).empty());
  CHECK(distributed(contexts, planFor(contexts, "gcc", "-O1")).empty());
}

TEST_CASE("a store split out of its loop nest runs as one memset before or after the nest, the rest of the nest unchanged", "[compiler][idioms][sim]") {
  // 64 x 64 floats = 16,384 bytes: over glibc's rep stosb threshold, one access per byte.
  trace::Trace contexts = test::analyzeSource(
      "float img[64][64], out[64][64];\n"
      "int main(void) {\n"
      "  for (int i = 0; i < 64; i++)\n"
      "    for (int j = 0; j < 64; j++) {\n"
      "      img[i][j] = (float)(i + j);\n"
      "      out[i][j] = 0.0f;\n"
      "    }\n"
      "  return 0;\n"
      "}\n");
  for (const std::string compiler : {"gcc", "clang"}) {
    INFO(compiler);
    sim::CompilationPlan plan = planFor(contexts, compiler, "-O2");
    REQUIRE(plan.distributed.size() == 1);
    std::vector<std::pair<std::string, sim::Record>> records;  // compiled function and record, in stream order
    for (const sim::Record& r : recordsOf(contexts, plan)) records.emplace_back(plan.compiledFunctionOfEvent(contexts, r.tag), r);
    std::size_t memset = 0, mainStores = 0;
    std::uint64_t outBytes = 0;
    for (const auto& [function, r] : records) {
      const std::string& container = contexts.containers.at(contexts.events[r.tag].container).name;
      if (function == "memset") {
        ++memset;
        CHECK(container == "out");
        outBytes += r.bytes;
      } else {
        CHECK(container == "img");  // out's store left the loop
        mainStores += r.bytes;
      }
    }
    CHECK(memset == 16384);
    CHECK(outBytes == 16384);
    CHECK(mainStores == 16384);  // img, vectorised or not
    // Clang's call sits in the nest's preheader; GCC keeps the statements' order (out's store comes last).
    CHECK(records.front().first == (compiler == "clang" ? "memset" : "main"));
    CHECK(records.back().first == (compiler == "clang" ? "main" : "memset"));
  }
}

namespace {

/* The library function each function of "source" calls in "compiler -O2 -S" output ("" for
   none), by function; empty unless "compiler" is installed in version "major" (the limits are
   those of GCC 12 and Clang 14: another version may choose differently). */
std::map<std::string, std::string> callsInAssembly(const std::string& compiler, const std::string& major, const std::string& source) {
  std::map<std::string, std::string> out;
  const std::string dir = test::tempDir();
  if (std::system((compiler + " -dumpversion > '" + dir + "/version' 2>/dev/null").c_str()) != 0) return out;
  const std::string version = test::readFile(dir + "/version");
  if (version.rfind(major + ".", 0) != 0 && version.rfind(major + "\n", 0) != 0) return out;
  if (std::system((compiler + " -O2 -S -o '" + dir + "/out.s' '" + source + "'").c_str()) != 0) return out;
  std::istringstream assembly(test::readFile(dir + "/out.s"));
  std::string line, function;
  static const std::regex label(R"(^([A-Za-z_][A-Za-z0-9_]*):)"), call(R"(^\s+(call|jmp)q?\s+(memset|memcpy)(@PLT)?\s*$)");
  std::smatch m;
  while (std::getline(assembly, line)) {
    if (std::regex_search(line, m, label)) {
      function = m[1];
      out.emplace(function, "");
    } else if (!function.empty() && std::regex_search(line, m, call)) {
      out[function] = m[2];
    }
  }
  return out;
}

}  // namespace

TEST_CASE("constant-size clears and copies stay inline below each compiler's limit, as their assembly says", "[compiler][idioms]") {
  const std::string source = test::sourcePath("tests/inputs/compiler/constant_idioms.c");
  trace::Trace contexts = test::analyze({"tests/inputs/compiler/constant_idioms.c"});
  const std::map<std::string, std::string> gcc{{"copy16", ""}, {"copy17", ""}, {"clear32", ""}, {"clear33", ""},
                                               {"copy1024", ""}, {"copy1025", "memcpy"}, {"clear1025", "memset"}};
  const std::map<std::string, std::string> clang{{"copy16", ""}, {"copy17", "memcpy"}, {"clear32", ""}, {"clear33", "memset"},
                                                 {"copy1024", "memcpy"}, {"copy1025", "memcpy"}, {"clear1025", "memset"}};
  CHECK(replaced(contexts, planFor(contexts, "gcc", "-O2")) == gcc);
  CHECK(replaced(contexts, planFor(contexts, "clang", "-O2")) == clang);
  // The same answers from the compilers themselves, where GCC 12 and Clang 14 are installed.
  const auto fromGcc = callsInAssembly("gcc", "12", source);
  if (!fromGcc.empty()) {
    for (const auto& [function, library] : gcc) CHECK(fromGcc.at(function) == library);
  }
  const auto fromClang = callsInAssembly("clang-14", "14", source);
  if (!fromClang.empty()) {
    for (const auto& [function, library] : clang) CHECK(fromClang.at(function) == library);
  }
  // With AVX2, Clang's inline limits double (16 and 8 stores of 32 bytes).
  const auto avx2 = replaced(contexts, planFor(contexts, "clang", "-O2 -march=x86-64-v3"));
  CHECK(avx2.at("copy17") == "");
  CHECK(avx2.at("clear33") == "");
  CHECK(avx2.at("copy1024") == "memcpy");
}
