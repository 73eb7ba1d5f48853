// How one access's outcome becomes per-event counters (sim/simulate.cpp's run<> and the engine
// set), and whether it was a first-level hit that did nothing else (docs/performance.md).
#pragma once

#include "cache/hierarchy.hpp"
#include "cache/mru_hierarchy.hpp"
#include "sim/simulate.hpp"

#include <algorithm>
#include <bit>

namespace cats::sim {

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

/* A demand access reaches a level only when the level above missed it, so a fast-engine
   outcome's accessed and missed bits are prefixes (an access across lines ORs two, again a
   prefix) and the number of levels it missed says all attributeMru adds. */
inline std::size_t missedLevels(const cache::MruOutcome& outcome) { return static_cast<std::size_t>(std::bit_width(outcome.missed)); }

/* attributeMru "times" over, for an outcome that missed "missed" levels (missedLevels). */
inline void attributeMruTimes(std::size_t missed, std::size_t levels, bool isWrite, LevelCounts* counts, std::uint64_t times) {
  for (std::size_t k = 0; k < std::min(missed + 1, levels); ++k) {
    (isWrite ? counts[k].writes : counts[k].reads) += times;
    if (k < missed) (isWrite ? counts[k].writeMisses : counts[k].readMisses) += times;
  }
}

}  // namespace cats::sim
