// Runs a program's address stream through a cache hierarchy and keeps, for every trace
// event, what its accesses did at every level, so reports can group by meaning.
#pragma once

#include "cache/hierarchy.hpp"
#include "sim/stream.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace cats::sim {

/// Demand accesses of one event (or any group of events) at one level.
struct LevelCounts {
  std::uint64_t reads = 0;
  std::uint64_t writes = 0;
  std::uint64_t readMisses = 0;
  std::uint64_t writeMisses = 0;
  std::array<std::uint64_t, 3> missClass{};  // cold, capacity, conflict (reads and writes)

  LevelCounts& operator+=(const LevelCounts& o);
  std::uint64_t accesses() const { return reads + writes; }
  std::uint64_t misses() const { return readMisses + writeMisses; }
};

struct SimulationResult {
  std::vector<std::string> levels;               // names, nearest the core first
  std::vector<LevelCounts> totals;               // demand accesses per level, by the core's operation
  std::vector<cache::LevelStats> levelStats;     // the hierarchy's own counters (evictions, write-backs, traffic)
  cache::MemoryTraffic memory;
  std::vector<std::vector<LevelCounts>> byEvent;  // [trace event][level]
  // ld.so binding library functions at their first calls (StreamOptions::binding), per level:
  // the loader's own accesses, not the program's, so not in "totals" (their evictions are).
  std::vector<LevelCounts> loader;
  std::vector<std::string> boundFunctions;  // bound lazily, in the order of their first calls
  std::vector<std::vector<std::uint64_t>> setMisses;  // [level][set index]: with config.countSetMisses, else empty
  std::vector<std::vector<cache::ReuseCount>> reuse;  // [level]: with config.trackFillers (tags: trace event indices), else empty
  std::uint64_t accesses = 0;
  std::uint64_t warpedAccesses = 0;  // of "accesses", counted by warping over repeating iterations, not simulated one by one
  std::uint64_t bulkAccesses = 0;    // of "accesses", first-level hits of same-line runs counted in bulk (docs/performance.md, "Bulk hits")
  unsigned threads = 1;              // threads that simulated, each a part of the sets (docs/performance.md, "Threads")
  bool approximate = false;
  std::vector<std::string> notes;
  // What the integers the program stored made exact (docs/register-model.md, "Values the program
  // stored"): access events whose every index was read from them, loop scopes whose every entry
  // read its bounds from them. The reports do not mark these approximate.
  std::set<std::size_t> indexesFromStoredValues;
  std::set<std::size_t> boundsFromStoredValues;
};

/// Called now and then with the number of accesses simulated so far.
using Progress = std::function<void(std::uint64_t)>;

/// "threads" > 1: as many threads as the hierarchy's sets split into (a power of two, at most
/// "threads"), each simulating its part of the sets over the whole stream; the same result
/// (docs/performance.md, "Threads").
SimulationResult simulate(const Program& program, std::size_t eventCount, const cache::HierarchyConfig& config,
                          const StreamOptions& options, const Progress& progress = {}, unsigned threads = 1);

/// simulate() of every configuration in "configs" in one pass over the stream (the stream is
/// generated once; each access goes to every hierarchy); results in the order of "configs",
/// each equal to what simulate() alone gives. One configuration is simulate() itself. Per-set
/// misses and fillers need one configuration: with several, throws std::invalid_argument.
/// "threads" applies to one configuration (several run on one thread).
std::vector<SimulationResult> simulateAll(const Program& program, std::size_t eventCount, const std::vector<cache::HierarchyConfig>& configs,
                                          const StreamOptions& options, const Progress& progress = {}, unsigned threads = 1);

}  // namespace cats::sim
