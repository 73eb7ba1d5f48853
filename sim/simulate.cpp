// The simulation loop: records in batches from the stream, one Hierarchy::access each, the
// outcome added to the counters of the record's trace event.
#include "sim/simulate.hpp"

namespace cats::sim {

LevelCounts& LevelCounts::operator+=(const LevelCounts& o) {
  reads += o.reads;
  writes += o.writes;
  readMisses += o.readMisses;
  writeMisses += o.writeMisses;
  for (std::size_t i = 0; i < missClass.size(); ++i) missClass[i] += o.missClass[i];
  return *this;
}

namespace {

constexpr std::size_t kBatch = 4096;
constexpr std::uint64_t kProgressEvery = std::uint64_t{1} << 24;

/* Adds the demand access of every level "outcome" touched to "counts". Like Cachegrind, a
   lower level's access counts as a read or write by the core's operation: the fill a write miss
   causes below is a write miss there if it misses. */
inline void attribute(const cache::Outcome& outcome, std::size_t levels, bool isWrite, LevelCounts* counts) {
  for (std::size_t k = 0; k < levels; ++k) {
    const cache::LevelOutcome& level = outcome.level(k);
    if (!level.accessed) break;  // a level is only reached through the one above
    LevelCounts& c = counts[k];
    c.writes += isWrite;
    c.reads += !isWrite;
    if (!level.missed) continue;  // write-through: a level below a hit can still be written
    c.writeMisses += isWrite;
    c.readMisses += !isWrite;
    if (level.missClass != cache::MissClass::None) ++c.missClass[cache::missClassIndex(level.missClass)];
  }
}

}  // namespace

SimulationResult simulate(const Program& program, std::size_t eventCount, const cache::HierarchyConfig& config,
                          const StreamOptions& options, const Progress& progress) {
  cache::Hierarchy hierarchy(config);
  const std::size_t levels = hierarchy.levelCount();
  SimulationResult result;
  for (const auto& level : config.levels) result.levels.push_back(level.name);
  std::vector<LevelCounts> counts(eventCount * levels);
  AddressStream stream(program, options);
  std::vector<Record> batch(kBatch);
  cache::Outcome outcome;
  std::uint64_t nextReport = kProgressEvery;
  while (std::size_t n = stream.next(batch.data(), batch.size())) {
    for (std::size_t i = 0; i < n; ++i) {
      const Record& r = batch[i];
      hierarchy.access(r.address, r.bytes, r.write, outcome);
      attribute(outcome, levels, r.write, &counts[static_cast<std::size_t>(r.tag) * levels]);
    }
    result.accesses += n;
    if (progress && result.accesses >= nextReport) {
      progress(result.accesses);
      nextReport += kProgressEvery;
    }
  }
  result.levelStats = hierarchy.stats();
  result.memory = hierarchy.memoryTraffic();
  result.byEvent.assign(eventCount, std::vector<LevelCounts>(levels));
  result.totals.assign(levels, LevelCounts{});
  for (std::size_t e = 0; e < eventCount; ++e)
    for (std::size_t k = 0; k < levels; ++k) {
      result.byEvent[e][k] = counts[e * levels + k];
      result.totals[k] += counts[e * levels + k];
    }
  result.approximate = program.approximate || stream.usedPolicy();
  result.notes = program.notes;
  return result;
}

}  // namespace cats::sim
