// The simulation loop: records in batches from the stream, one access each (MruHierarchy where it
// applies, else Hierarchy with demand-only outcomes: the counters need no more), the outcome added
// to the counters of the record's trace event.
#include "sim/simulate.hpp"

#include "cache/mru_hierarchy.hpp"

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
inline void attribute(const cache::MruOutcome& outcome, std::size_t levels, bool isWrite, LevelCounts* counts) {
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
inline bool firstLevelOnly(const cache::Outcome& o) { return o.firstLevelHitOnly(); }
inline bool firstLevelOnly(const cache::MruOutcome& o) { return o.accessed == 1 && o.missed == 0; }

/* The stream through "hierarchy", every record's outcome added to its event's counters. A run
   the stream offers (docs/performance.md, "Bulk hits") is counted in bulk when its first
   iteration was all first-level hits that did nothing else. */
template <typename Engine, typename Outcome>
std::uint64_t run(AddressStream& stream, Engine& hierarchy, Outcome& outcome, std::size_t levels, std::vector<LevelCounts>& counts,
                  const Progress& progress) {
  std::vector<Record> batch(kBatch);
  std::uint64_t accesses = 0, nextReport = kProgressEvery;
  while (std::size_t n = stream.next(batch.data(), batch.size())) {
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
    if (progress && accesses >= nextReport) {
      progress(accesses);
      nextReport += kProgressEvery;
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
  AddressStream stream(program, streamOptions);
  if (cache::MruHierarchy::supports(config)) {
    cache::MruHierarchy hierarchy(config);  // still about 1.6x faster on misses (docs/cache-core.md, Figures; same counts)
    cache::MruOutcome outcome;
    result.accesses = run(stream, hierarchy, outcome, levels, counts, progress);
    result.levelStats = hierarchy.stats();
    result.memory = hierarchy.memoryTraffic();
  } else {
    cache::Hierarchy hierarchy(config);
    cache::Outcome outcome(cache::OutcomeDetail::DemandOnly);
    result.accesses = run(stream, hierarchy, outcome, levels, counts, progress);
    result.levelStats = hierarchy.stats();
    result.memory = hierarchy.memoryTraffic();
  }
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
