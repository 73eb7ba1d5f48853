// Several cache configurations in one pass (sim::simulateAll, `simulate --D1 ... --D1 ...`):
// exactly the statistics of separate runs, the command line's pairing rules and the reports.
#include "cache/lru_stack_family.hpp"
#include "cache/machine_file.hpp"
#include "cache/mru_hierarchy.hpp"
#include "random_programs.hpp"
#include "simulation_compare.hpp"
#include "reports/simulation.hpp"
#include "sim/concretize.hpp"
#include "sim/simulate.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <random>

using namespace cats;
using test::level;
using test::sameCounts;

namespace {

/* simulateAll over "configs" against simulate() of each: every statistic, per event and in total. */
void checkOnePass(const sim::Program& program, std::size_t events, const std::vector<cache::HierarchyConfig>& configs,
                  const sim::StreamOptions& options) {
  std::vector<sim::SimulationResult> together = sim::simulateAll(program, events, configs, options);
  REQUIRE(together.size() == configs.size());
  for (std::size_t c = 0; c < configs.size(); ++c) {
    INFO("configuration " << c + 1 << ": " << report::configurationLabel(configs[c]));
    sim::SimulationResult alone = sim::simulate(program, events, configs[c], options);
    REQUIRE(together[c].accesses == alone.accesses);
    CHECK(together[c].levels == alone.levels);
    CHECK(together[c].levelStats == alone.levelStats);
    CHECK(together[c].memory == alone.memory);
    CHECK(together[c].approximate == alone.approximate);
    REQUIRE(together[c].totals.size() == alone.totals.size());
    for (std::size_t k = 0; k < alone.totals.size(); ++k) CHECK(sameCounts(together[c].totals[k], alone.totals[k]));
    bool sameEvents = true;
    for (std::size_t e = 0; e < events; ++e)
      for (std::size_t k = 0; k < alone.totals.size(); ++k) sameEvents = sameEvents && sameCounts(together[c].byEvent[e][k], alone.byEvent[e][k]);
    CHECK(sameEvents);
  }
}

/* A design-space family: fast-engine and general-engine members, different line sizes (the
   stream's runs at the smallest), one and two levels, a write-through first level. */
std::vector<cache::HierarchyConfig> family(int variant) {
  std::vector<cache::HierarchyConfig> out;
  for (std::uint32_t ways : {1U, 2U, 4U, 8U}) {
    cache::HierarchyConfig c;
    c.levels = {level("D1", 512 * ways, ways, 32), level("LL", 8192, 4, 64)};
    out.push_back(c);
  }
  cache::HierarchyConfig wide;
  wide.levels = {level("D1", 2048, 4, 64)};
  out.push_back(wide);
  cache::HierarchyConfig general;
  general.levels = {level("D1", 1024, 2, 32), level("LL", 4096, 4, 32)};
  general.inclusion = cache::Inclusion::Exclusive;
  general.classifyMisses = true;
  general.levels[0].replacement = cache::Replacement::TreePlru;
  general.levels[1].replacement = cache::Replacement::Random;
  general.seed = 5;
  out.push_back(general);
  for (std::uint32_t ways : {1U, 2U, 3U, 4U, 16U, 4U}) {  // one stack family (16 sets of 32 B lines), 4 ways twice
    cache::HierarchyConfig c;
    c.levels = {level("D1", 16 * 32 * ways, ways, 32)};
    out.push_back(c);
  }
  if (variant == 1) {  // a write-through first level: no runs for anyone
    cache::HierarchyConfig through;
    through.levels = {level("D1", 1024, 2, 64), level("LL", 8192, 8, 64)};
    through.levels[0].write = cache::WritePolicy::WriteThrough;
    out.push_back(through);
  }
  return out;
}

/* Single-level LRU configurations of 8 sets and 64 B lines only: the engine set is one stack family. */
std::vector<cache::HierarchyConfig> stackFamilyOnly() {
  std::vector<cache::HierarchyConfig> out;
  for (std::uint32_t ways : {1U, 2U, 4U, 8U}) {
    cache::HierarchyConfig c;
    c.levels = {level("D1", 8 * 64 * ways, ways, 64)};
    out.push_back(c);
  }
  return out;
}

std::string machineFile(const std::string& name, const std::string& text) {
  std::string path = test::tempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("one pass over several configurations: random leaf programs count exactly as separate runs", "[sim][simulate][configurations]") {
  std::mt19937 rng(4242);
  for (int trial = 0; trial < 30; ++trial) {
    std::size_t events = 0;
    sim::Program program = test::randomLeafProgram(rng, trial % 2 == 1, events);
    sim::StreamOptions options;
    options.seed = 3;
    options.branches = {sim::BranchPolicy::Kind::Probability, 0.5};
    INFO("trial " << trial);
    checkOnePass(program, events, family(trial % 3 == 0 ? 1 : 0), options);
    checkOnePass(program, events, stackFamilyOnly(), options);  // its misses alone must stop bulk runs
  }
}

TEST_CASE("one pass: a bulk run is refused when only a stack family's smallest member misses", "[sim][simulate][configurations]") {
  // Two arrays 64 KiB apart walked in step, 8 bytes per iteration: same-line runs the stream
  // offers, all hits in 2 ways, ping-pong misses in the direct-mapped member.
  sim::Program program;
  for (const char* name : {"a", "b"}) {
    sim::ContainerPlan plan;
    plan.name = name;
    plan.sizeBytes = 65536;
    program.containers.push_back(plan);
  }
  sim::LoopOp leaf;
  leaf.slot = 0;
  leaf.start = sim::Formula::constant(0);
  leaf.end = sim::Formula::constant(4000);
  leaf.step = sim::Formula::constant(1);
  for (std::uint32_t c = 0; c < 2; ++c) {
    sim::AccessOp a;
    a.tag = c;
    a.container = c;
    a.bytes = a.scalarBytes = 8;
    a.offset = sim::Formula::linear(0, {{0, 8}});
    leaf.body.push_back(sim::Op{a});
  }
  sim::FrameOp frame;
  frame.body.push_back(sim::Op{std::move(leaf)});
  program.body.push_back(sim::Op{std::move(frame)});
  program.slots = 1;
  std::vector<sim::SimulationResult> results = sim::simulateAll(program, 2, stackFamilyOnly(), sim::StreamOptions{});
  CHECK(results[0].totals[0].misses() == 8000);  // direct-mapped: every access
  CHECK(results[1].totals[0].misses() == 1000);  // 2 ways: one per line
  checkOnePass(program, 2, stackFamilyOnly(), sim::StreamOptions{});
}

TEST_CASE("one pass over several configurations: examples count exactly as separate runs", "[sim][simulate][configurations][examples]") {
  struct Case {
    const char* path;
    std::map<std::string, std::string> defines;
  };
  const Case cases[] = {
      {"examples/jacobi-2d", {{"N", "40"}, {"TSTEPS", "3"}}}, {"examples/matmul-heap", {{"N", "24"}}},
      {"examples/matmul-ikj", {{"N", "24"}}},                 {"examples/particles-aos", {{"NP", "2000"}}},
      {"examples/spmv-csr", {{"ROWS", "500"}}},               {"examples/transpose", {{"N", "64"}}},
      {"bench/fidelity-corpus/lcs.c", {{"N", "30"}}},
  };
  for (const Case& c : cases)
    test::forEachModel(c.path, c.defines, [&](const sim::Program& program, std::size_t events, const sim::StreamOptions& options, const std::string& label) {
      INFO(label);
      checkOnePass(program, events, family(options.model == sim::RegisterModel::O0 ? 1 : 0), options);
    });
}

TEST_CASE("an LRU stack family gives each member's engine statistics, access by access", "[cache][configurations]") {
  std::mt19937 rng(99);
  for (std::uint32_t sets : {1U, 4U, 64U}) {
    std::vector<cache::HierarchyConfig> members;
    for (std::uint32_t ways : {1U, 2U, 3U, 5U, 8U, 12U}) {
      cache::HierarchyConfig c;
      c.levels = {level("D1", std::uint64_t{sets} * ways * 64, ways, 64)};
      members.push_back(c);
    }
    cache::LruStackFamily family(members);
    std::vector<cache::MruHierarchy> alone;
    for (const auto& m : members) alone.emplace_back(m);
    bool sameOutcomes = true;
    for (int i = 0; i < 200000; ++i) {
      // a hot region, a cold sweep and straddling accesses, reads and writes
      const std::uint64_t address = rng() % 4 == 0 ? 0x100000 + (rng() % 65536) : 0x1000 + (rng() % (sets * 64 * 20));
      const std::uint32_t size = rng() % 16 == 0 ? 16 : 8;
      const bool write = rng() % 3 == 0;
      cache::FamilyOutcome together;
      family.access(address, size, write, together);
      for (std::size_t m = 0; m < members.size(); ++m) {
        cache::MruOutcome own;
        alone[m].access(address, size, write, own);
        sameOutcomes = sameOutcomes && ((together.missed >> m & 1) != 0) == ((own.missed & 1) != 0);
      }
      if (i % 1000 == 0) {
        family.addFirstLevelHits(3, 2);
        for (auto& a : alone) a.addFirstLevelHits(3, 2);
      }
    }
    INFO(sets << " sets");
    CHECK(sameOutcomes);
    for (std::size_t m = 0; m < members.size(); ++m) {
      INFO(members[m].levels[0].associativity << " ways");
      CHECK(family.stats(m) == alone[m].stats());
      CHECK(family.memoryTraffic(m) == alone[m].memoryTraffic());
      CHECK(family.stats(m)[0].writebacks > 0);
    }
  }
  cache::HierarchyConfig twoLevels;
  twoLevels.levels = {level("D1", 1024, 2, 64), level("LL", 8192, 4, 64)};
  CHECK_FALSE(cache::LruStackFamily::fits(twoLevels));
}

TEST_CASE("a machine file may list several hierarchies", "[cache][machine][configurations]") {
  const std::string list = R"({"format": "cats-static-machine", "version": 1, "hierarchies": [
      {"levels": [{"name": "D1", "size": "32KiB", "associativity": 8, "line": 64}]},
      {"description": "bigger", "inclusion": "inclusive", "seed": 9, "levels": [
        {"name": "D1", "size": "64KiB", "associativity": 8, "line": 64, "replacement": "plru"},
        {"name": "LL", "size": "1MiB", "associativity": 16, "line": 64}]}]})";
  std::vector<cache::HierarchyConfig> all = cache::parseMachinesJson(list);
  REQUIRE(all.size() == 2);
  CHECK(all[0].levels.size() == 1);
  CHECK(all[1].levels[0].sizeBytes == 65536);
  CHECK(all[1].levels[0].replacement == cache::Replacement::TreePlru);
  CHECK(all[1].inclusion == cache::Inclusion::Inclusive);
  CHECK(all[1].seed == 9);
  CHECK_THROWS_WITH(cache::parseMachineJson(list), Catch::Contains("holds 2 hierarchies where one is expected"));
  // A one-hierarchy file reads the same through both.
  const std::string one = cache::writeMachineJson(all[1]);
  CHECK(cache::parseMachinesJson(one).size() == 1);
  CHECK(cache::parseMachineJson(one).levels.size() == 2);
  CHECK_THROWS_WITH(cache::parseMachinesJson(R"({"format": "cats-static-machine", "version": 1, "hierarchies": []})"),
                    Catch::Contains("hierarchies: must be a non-empty array"));
  CHECK_THROWS_WITH(cache::parseMachinesJson(R"({"format": "cats-static-machine", "version": 1, "seed": 3, "hierarchies": [{"levels": [
      {"name": "D1", "size": 1024, "associativity": 2, "line": 64}]}]})"),
                    Catch::Contains("seed: not allowed beside \"hierarchies\""));
  CHECK_THROWS_WITH(cache::parseMachinesJson(R"({"format": "cats-static-machine", "version": 1, "hierarchies": [{"levels": [
      {"name": "D1", "size": 1024, "associativity": 2, "line": 64}]}, {"levels": [{"name": "D1", "size": 1000, "associativity": 2, "line": 64}]}]})"),
                    Catch::Contains("hierarchies[1]: invalid cache hierarchy"));
  CHECK_THROWS_WITH(cache::parseMachinesJson(R"({"format": "cats-static-machine", "version": 1, "hierarchies": [{"levels": [
      {"name": "D1", "size": 1024, "associativity": 2, "line": 64}], "colour": "red"}]})"),
                    Catch::Contains("hierarchies[0].colour: unknown field"));
}

TEST_CASE("simulate with repeated --D1/--LL: pairing rules and usage errors", "[cli][simulate][configurations]") {
  const std::string base = "simulate examples/matmul-heap -D N=32 --format json";
  SECTION("equal counts pair up; an option given once goes into every configuration") {
    auto r = test::runCli(base + " --D1=16384,4,64 --D1=32768,8,64 --LL=262144,8,64");
    REQUIRE(r.exitCode == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["version"] == 1);
    CHECK(j["minor_version"] == 2);
    REQUIRE(j["configurations"].size() == 2);
    CHECK(j["configurations"][0]["label"] == "D1 16KiB/4/64 LL 256KiB/8/64");
    CHECK(j["configurations"][1]["label"] == "D1 32KiB/8/64 LL 256KiB/8/64");
    // The top level is the first configuration's version-1 report.
    CHECK(j["hierarchy"] == j["configurations"][0]["hierarchy"]);
    CHECK(j["totals"] == j["configurations"][0]["totals"]);
    CHECK(j["by_container"] == j["configurations"][0]["by_container"]);
    // Each configuration as a run of its own.
    for (std::size_t c = 0; c < 2; ++c) {
      std::string d1 = c == 0 ? "16384,4,64" : "32768,8,64";
      auto alone = nlohmann::json::parse(test::runCli(base + " --D1=" + d1 + " --LL=262144,8,64").out);
      CHECK(alone.contains("minor_version") == false);
      CHECK(alone["totals"] == j["configurations"][c]["totals"]);
      CHECK(alone["memory"] == j["configurations"][c]["memory"]);
      CHECK(alone["by_line"] == j["configurations"][c]["by_line"]);
    }
  }
  SECTION("a machine file's list and several --machine add up") {
    std::string path = machineFile("two.json", R"({"format": "cats-static-machine", "version": 1, "hierarchies": [
        {"levels": [{"name": "D1", "size": "8KiB", "associativity": 2, "line": 64}]},
        {"levels": [{"name": "D1", "size": "16KiB", "associativity": 4, "line": 64}]}]})");
    auto r = test::runCli(base + " --machine '" + path + "' --machine cats-paper");
    REQUIRE(r.exitCode == 0);
    auto j = nlohmann::json::parse(r.out);
    REQUIRE(j["configurations"].size() == 3);
    CHECK(j["configurations"][1]["label"] == "D1 16KiB/4/64");
  }
  SECTION("usage errors exit 2") {
    struct Bad {
      std::string args;
      std::string message;
    };
    const Bad bad[] = {
        {" --D1=16384,4,64 --D1=32768,8,64 --LL=262144,8,64 --LL=524288,8,64 --LL=1048576,8,64",
         "--D1 is given 2 times and --LL 3 times"},
        {" --D1=16384,4,64 --D1=30000,8,64", "invalid cache configuration 2"},
        {" --D1=16384,4,64 --D1=32768,8 ", "--D1"},
        {" --D1=16384,4,64 --machine cats-paper", "cannot be combined"},
    };
    for (const Bad& b : bad) {
      auto r = test::runCli(base + b.args);
      INFO(b.args);
      CHECK(r.exitCode == 2);
      CHECK_THAT(r.err, Catch::Contains(b.message));
    }
    auto din = test::runCli("simulate --din /dev/null --D1=16384,4,64 --D1=32768,8,64");
    CHECK(din.exitCode == 2);
    CHECK_THAT(din.err, Catch::Contains("--din replays one cache configuration"));
    auto scale = test::runCli("scale examples/transpose -D N=64 --D1=16384,4,64 --D1=32768,8,64");
    CHECK(scale.exitCode == 2);
    CHECK_THAT(scale.err, Catch::Contains("takes one cache configuration"));
  }
}

TEST_CASE("reports of several configurations match their golden files", "[reports][golden][configurations]") {
  const std::string args = "simulate examples/matmul-heap -D N=48 --D1=8192,2,64 --D1=16384,4,64 --D1=32768,8,64 --LL=262144,8,64";
  auto text = test::runCli(args + " --by function");
  REQUIRE(text.exitCode == 0);
  CHECK(text.out == test::readFile(test::sourcePath("tests/golden/matmul-heap.configurations.txt")));
  auto json = test::runCli(args + " --format json");
  REQUIRE(json.exitCode == 0);
  CHECK(json.out == test::readFile(test::sourcePath("tests/golden/matmul-heap.configurations.json")));
  // One configuration is today's report, byte for byte (no minor version, no configurations).
  const std::string oneArgs = "simulate examples/matmul-heap -D N=48 --D1=8192,2,64 --LL=262144,8,64";
  CHECK(test::runCli(oneArgs + " --by function").out == test::readFile(test::sourcePath("tests/golden/matmul-heap.one-configuration.txt")));
  CHECK(test::runCli(oneArgs + " --format json").out == test::readFile(test::sourcePath("tests/golden/matmul-heap.one-configuration.json")));
}
