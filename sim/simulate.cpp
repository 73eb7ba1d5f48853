// The simulation loop: records in batches from the stream, one Hierarchy::access each, the
// outcome added to the counters of the record's trace event.
#include "sim/simulate.hpp"

#include "cache/mru_hierarchy.hpp"

#include "repeat_warp.hpp"

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


/* Adds a fast-engine outcome (bit k: level k accessed / missed) to "counts". */
inline void attributeMru(const cache::MruOutcome& outcome, std::size_t levels, bool isWrite, LevelCounts* counts) {
  if (outcome.missed == 0 && outcome.accessed == 1) {  // the common first-level hit
    counts[0].writes += isWrite;
    counts[0].reads += !isWrite;
    return;
  }
  for (std::size_t k = 0; k < levels && (outcome.accessed >> k & 1); ++k) {
    LevelCounts& c = counts[k];
    c.writes += isWrite;
    c.reads += !isWrite;
    if (!(outcome.missed >> k & 1)) break;
    c.writeMisses += isWrite;
    c.readMisses += !isWrite;
  }
}

/* A first-level hit that did nothing else (no effect there, nothing below). */
inline bool firstLevelOnly(const cache::Outcome& o) {
  const cache::LevelOutcome& top = o.level(0);
  return top.accessed && !top.missed && (o.levelCount() < 2 || !o.level(1).accessed) && top.effects == cache::LevelStats{};
}
inline bool firstLevelOnly(const cache::MruOutcome& o) { return o.accessed == 1 && o.missed == 0; }

/* The stream through "hierarchy", every record's outcome added to its event's counters. A run
   the stream offers (docs/performance.md, "Bulk hits") is counted in bulk when its first
   iteration was all first-level hits that did nothing else. At a repeat point, RepeatWarp may
   skip whole periods of iterations (docs/performance.md, "Warping"). */
template <typename Engine, typename Outcome, typename Attribute>
std::uint64_t run(AddressStream& stream, Engine& hierarchy, std::size_t levels, std::vector<LevelCounts>& counts, const Progress& progress,
                  Attribute attribute, std::uint64_t& warped) {
  RepeatWarp<Engine> warp(hierarchy, counts);
  std::vector<Record> batch(kBatch);
  Outcome outcome;
  std::uint64_t accesses = 0, nextReport = kProgressEvery;
  for (;;) {
    const std::size_t n = stream.next(batch.data(), batch.size());
    if (stream.ended(n)) break;
    const LeafRun& offer = stream.offeredRun();
    const std::size_t runFrom = n - offer.count;
    for (std::size_t i = 0; i < runFrom; ++i) {
      const Record& r = batch[i];
      hierarchy.access(r.address, r.bytes, r.write, outcome);
      attribute(outcome, levels, r.write, &counts[static_cast<std::size_t>(r.tag) * levels]);
    }
    bool allHits = true;
    for (std::size_t i = runFrom; i < n; ++i) {
      const Record& r = batch[i];
      hierarchy.access(r.address, r.bytes, r.write, outcome);
      attribute(outcome, levels, r.write, &counts[static_cast<std::size_t>(r.tag) * levels]);
      allHits = allHits && firstLevelOnly(outcome);
    }
    accesses += n;
    if (offer.repeats > 0) {
      if (allHits) {
        const auto repeats = static_cast<std::uint64_t>(offer.repeats);
        std::uint64_t reads = 0, writes = 0;
        for (std::size_t i = runFrom; i < n; ++i) {
          LevelCounts& c = counts[static_cast<std::size_t>(batch[i].tag) * levels];
          (batch[i].write ? c.writes : c.reads) += repeats;
          (batch[i].write ? writes : reads) += repeats;
        }
        hierarchy.addFirstLevelHits(reads, writes);
        accesses += repeats * offer.count;
      }
      stream.resolveRun(allHits);
    }
    if (stream.repeatPoint().remaining > 0) {
      const std::uint64_t skipped = warp.at(stream, accesses);
      accesses += skipped;
      warped += skipped;
    }
    if (progress && accesses >= nextReport) {
      progress(accesses);
      nextReport = accesses + kProgressEvery;  // a warp may have jumped far ahead
    }
  }
  return accesses;
}

}  // namespace

SimulationResult simulate(const Program& program, std::size_t eventCount, const cache::HierarchyConfig& config,
                          const StreamOptions& options, const Progress& progress) {
  const std::size_t levels = config.levels.size();
  SimulationResult result;
  for (const auto& level : config.levels) result.levels.push_back(level.name);
  std::vector<LevelCounts> counts(eventCount * levels);
  StreamOptions streamOptions = options;
  // Runs pay off only where a write hit stays in the first level (docs/performance.md).
  if (options.fastPaths && !config.levels.empty() && config.levels[0].write == cache::WritePolicy::WriteBack)
    streamOptions.runLineBytes = config.levels[0].lineBytes;
  if (cache::MruHierarchy::supports(config)) {
    cache::MruHierarchy hierarchy(config);  // the common case, several times faster (same counts)
    streamOptions.repeatPoints = options.fastPaths && cache::MruHierarchy::capturesState();
    AddressStream stream(program, streamOptions);
    result.accesses = run<cache::MruHierarchy, cache::MruOutcome>(stream, hierarchy, levels, counts, progress, attributeMru, result.warpedAccesses);
    result.levelStats = hierarchy.stats();
    result.memory = hierarchy.memoryTraffic();
    result.approximate = stream.usedPolicy();
  } else {
    cache::Hierarchy hierarchy(config);
    streamOptions.repeatPoints = options.fastPaths && hierarchy.capturesState();
    AddressStream stream(program, streamOptions);
    result.accesses = run<cache::Hierarchy, cache::Outcome>(stream, hierarchy, levels, counts, progress, attribute, result.warpedAccesses);
    result.levelStats = hierarchy.stats();
    result.memory = hierarchy.memoryTraffic();
    result.approximate = stream.usedPolicy();
  }
  result.byEvent.assign(eventCount, std::vector<LevelCounts>(levels));
  result.totals.assign(levels, LevelCounts{});
  for (std::size_t e = 0; e < eventCount; ++e)
    for (std::size_t k = 0; k < levels; ++k) {
      result.byEvent[e][k] = counts[e * levels + k];
      result.totals[k] += counts[e * levels + k];
    }
  result.approximate = result.approximate || program.approximate;
  result.notes = program.notes;
  return result;
}

}  // namespace cats::sim
