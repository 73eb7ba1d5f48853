#include "simulation_compare.hpp"

#include "random_programs.hpp"
#include "sim/concretize.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

namespace cats::test {

bool sameCounts(const sim::LevelCounts& a, const sim::LevelCounts& b) {
  return a.reads == b.reads && a.writes == b.writes && a.readMisses == b.readMisses && a.writeMisses == b.writeMisses && a.missClass == b.missClass;
}

sim::SimulationResult checkSameSimulation(const sim::Program& program, std::size_t events, const cache::HierarchyConfig& config,
                                          sim::StreamOptions options) {
  options.fastPaths = true;
  sim::SimulationResult fast = sim::simulate(program, events, config, options);
  options.fastPaths = false;
  sim::SimulationResult plain = sim::simulate(program, events, config, options);
  REQUIRE(fast.accesses == plain.accesses);
  CHECK(plain.warpedAccesses == 0);
  CHECK(fast.levelStats == plain.levelStats);
  CHECK(fast.memory == plain.memory);
  CHECK(fast.approximate == plain.approximate);
  CHECK(fast.notes == plain.notes);  // what the stream read and drew, among them
  CHECK(fast.indexesFromStoredValues == plain.indexesFromStoredValues);
  for (std::size_t k = 0; k < plain.totals.size(); ++k) CHECK(sameCounts(fast.totals[k], plain.totals[k]));
  bool sameEvents = true;
  for (std::size_t e = 0; e < events; ++e)
    for (std::size_t k = 0; k < plain.totals.size(); ++k) sameEvents = sameEvents && sameCounts(fast.byEvent[e][k], plain.byEvent[e][k]);
  CHECK(sameEvents);
  return fast;
}

std::uint64_t checkSplitAsPlain(const sim::Program& program, std::size_t events, const cache::HierarchyConfig& config) {
  sim::StreamOptions plain;
  plain.fastPaths = false;
  const sim::SimulationResult reference = sim::simulate(program, events, config, plain);
  const sim::SimulationResult split = sim::simulate(program, events, config, sim::StreamOptions{}, {}, 2);
  CHECK(split.levelStats == reference.levelStats);
  CHECK(split.memory == reference.memory);
  CHECK(split.notes == reference.notes);
  bool sameEvents = true;
  for (std::size_t e = 0; e < events; ++e)
    for (std::size_t k = 0; k < reference.totals.size(); ++k) sameEvents = sameEvents && sameCounts(split.byEvent[e][k], reference.byEvent[e][k]);
  CHECK(sameEvents);
  return split.threads == 2 ? split.bulkAccesses : 0;
}

void forEachModel(const std::string& path, const std::map<std::string, std::string>& defines, const ModelCheck& check) {
  AnalyzeOptions analyze;
  analyze.defines = defines;
  trace::Trace t = test::analyze({path}, analyze);
  for (auto model : {sim::RegisterModel::O0, sim::RegisterModel::O2}) {
    sim::ConcretizeOptions concretize;
    concretize.model = model;
    sim::Program program = sim::concretize(t, concretize);
    sim::StreamOptions options;
    options.model = model;
    options.branches = {sim::BranchPolicy::Kind::Probability, 0.5};
    check(program, t.events.size(), options, path + (model == sim::RegisterModel::O0 ? " -O0" : " -O2"));
  }
}

std::vector<cache::HierarchyConfig> policyConfigurations() {
  std::vector<cache::HierarchyConfig> out;
  for (auto replacement : {cache::Replacement::Lru, cache::Replacement::Fifo, cache::Replacement::Random, cache::Replacement::TreePlru})
    for (auto inclusion : {cache::Inclusion::NonInclusive, cache::Inclusion::Inclusive, cache::Inclusion::Exclusive})
      for (bool classify : {false, true})
        for (int writes = 0; writes < 3; ++writes) {
          cache::HierarchyConfig c;
          c.levels = {level("D1", 512, 2, 32), level("LL", 4096, 4, inclusion == cache::Inclusion::Exclusive ? 32 : 64)};
          c.levels[0].replacement = replacement;
          c.levels[1].replacement = replacement;
          if (writes == 1) c.levels[0].write = cache::WritePolicy::WriteThrough;
          if (writes == 2) c.levels[0].allocate = cache::AllocatePolicy::NoWriteAllocate;
          c.inclusion = inclusion;
          c.classifyMisses = classify;
          c.seed = 7;
          out.push_back(c);
        }
  // Two eight-way levels, LRU: the fast engine's written-out paths (the first level's scan inline
  // in the stream's loops, MruHierarchy::NewestHits), small enough to miss, evict and purge.
  // Each with the eight-way scans in AVX-512 registers where the processor has them, and scalar.
  for (auto inclusion : {cache::Inclusion::NonInclusive, cache::Inclusion::Inclusive, cache::Inclusion::Exclusive})
    for (bool vector : {true, false}) {
      cache::HierarchyConfig c;
      c.levels = {level("D1", 512, 8, 32), level("LL", 2048, 8, 32)};
      c.inclusion = inclusion;
      c.vectorScans = vector;
      out.push_back(c);
    }
  cache::HierarchyConfig one;  // one level, the fast engine's configuration
  one.levels = {level("D1", 1024, 4, 64)};
  out.push_back(one);
  return out;
}

}  // namespace cats::test
