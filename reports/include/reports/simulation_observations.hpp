// The statistics `simulate` computes on request besides the grouped counters: misses per set
// (--set-histogram), cross-context reuse (--reuse-matrix) and bytes between levels (--traffic),
// as typed records that the text, JSON and HTML renderers show without recomputing
// (docs/simulation-format.md, minor version 2).
#pragma once

#include "reports/simulation.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cats::report {

/// One level's misses per set index, with the summary that shows thrashing at a glance.
struct SetMissHistogram {
  static constexpr std::size_t kTopSets = 5;
  static constexpr std::size_t kBands = 32;
  std::string level;
  std::vector<std::uint64_t> misses;  // per set index; sums to the level's misses (demand and write-back)
  std::uint64_t total = 0;
  std::uint64_t setsWithMisses = 0;
  std::uint64_t max = 0;
  double mean = 0;                                           // misses per set
  std::vector<std::pair<std::uint64_t, std::uint64_t>> top;  // (set, misses), most first, then lowest set; at most kTopSets
  std::vector<std::uint64_t> bands;                          // misses per band of consecutive sets (min(sets, kBands) bands)
};

/// One level's demand hits by the calling context that brought the line into the level (row)
/// and the one that hit it (column). Rows and columns share "contexts": the contexts with the
/// most hits (made plus received) then by name, at most kTopContexts, then "(other contexts)"
/// if some were folded, then "(unknown)" (lines whose filler is not known) if any.
struct ReuseMatrix {
  static constexpr std::size_t kTopContexts = 12;
  std::string level;
  std::vector<std::string> contexts;
  std::vector<std::vector<std::uint64_t>> hits;  // [filler][hitter]
  std::uint64_t total = 0;                       // every hit counted (the level's demand hits)
  std::uint64_t sameContext = 0;                 // filler and hitter are one context (before folding)
  std::uint64_t crossContext = 0;                // filler and hitter differ (filler known)
};

/// The bytes that crossed the boundary below one level ("upper" to "lower", the next level or memory).
struct LevelTraffic {
  std::string upper;
  std::string lower;
  std::uint64_t fillBytes = 0;       // upwards: lines fetched into "upper"
  std::uint64_t downBytes = 0;       // downwards, all of it
  std::uint64_t writebacks = 0;      // dirty lines "upper" evicted and wrote back
  std::uint64_t writebackBytes = 0;  // writebacks x line size
  std::uint64_t otherDownBytes = 0;  // the rest: write-throughs, writes around, write-backs passed on, victims moved down
};

struct SimulationObservations {
  std::vector<SetMissHistogram> setMisses;  // per level, with --set-histogram
  std::vector<ReuseMatrix> reuse;           // per level, with --reuse-matrix
  std::vector<LevelTraffic> traffic;        // per level, with --traffic
  bool empty() const { return setMisses.empty() && reuse.empty() && traffic.empty(); }
};

/// The records of what "in" asked for (the result's per-set counts and fillers, "in.traffic").
SimulationObservations observationsOf(const SimulationReportInput& in);

/// The text sections of "observations" (empty when there are none).
std::string observationsText(const SimulationObservations& observations);

}  // namespace cats::report
