// The miss model at one parameter point: loop trip counts, the footprint of every reuse group
// in one iteration of each of its loops, the layer conditions (does one iteration of the loop
// that carries a reuse fit the level?), set-conflict resonance, and the misses that follow.
// Private to sim/ (docs/polyhedral.md, "Miss model").
#pragma once

#include "cache/config.hpp"
#include "miss/footprint.hpp"
#include "miss/nest.hpp"
#include "symbolic/polyhedral.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cats::sim::miss {

/// Bytes of level "level" that one iteration of the loop carrying a reuse may touch for the reuse
/// to hit: the whole level (with an exclusive hierarchy, the levels above it too). Calibrated
/// against the simulator (tests/miss_model_test.cpp): a margin of one way ((ways-1)/ways, as for
/// LRU with a stream passing through) moved matmul's breakpoint below the sizes where the
/// simulator still hits, and made the sweep's median error worse; set conflicts are modelled
/// apart (resonance, partial fits), not by a margin.
double effectiveCapacity(const cache::HierarchyConfig& config, std::size_t level);

struct LoopValue {
  double trips = 0, mid = 0;
  sym::Expr tripsSym = 0, midSym = 0;
};

/// A reuse whose lines map to too few sets of a level.
struct Conflict {
  std::size_t group = 0, position = 0, level = 0;
  std::uint64_t setsUsed = 0, linesNeeded = 0;
  std::string padding;
};

struct GroupLevel {
  std::optional<std::size_t> failing;  // innermost loop position whose reuse does not fit (none: only cold misses)
  std::optional<std::size_t> tooLarge;  // the same for capacity alone (the layer conditions, no set conflicts)
  double misses = 0;
};

struct Evaluation {
  std::string reason;  // non-empty: nothing could be evaluated (a parameter has no value)
  std::vector<LoopValue> loops;
  /// [level][loop]: lines all groups touch in one iteration of the loop, and as a formula.
  std::vector<std::vector<double>> loopLines;
  std::vector<std::vector<sym::Expr>> loopLinesSym;
  std::vector<std::vector<GroupLevel>> groups;  // [level][group]
  /// [level]: lines of the whole program; when they fit, every container misses its lines once.
  std::vector<double> programLines;
  std::vector<std::map<std::size_t, double>> containerMisses;  // [level]: container -> misses
  std::vector<Conflict> conflicts;
};

struct EvaluateOptions {
  /// A reuse whose loop iteration overflows a level by less than twice its size keeps the share
  /// of its lines that sit in sets not overfull (costlier: every line of the iteration is
  /// enumerated); without, the misses are those of the layer conditions alone (enough for
  /// breakpoints and resonances).
  bool partialFits = true;
  /// Footprints and trip counts also as formulas (loopLinesSym; GiNaC work, for breakpoints' text).
  bool formulas = false;
};

/// Everything at "values" (every parameter bound, else "reason").
Evaluation evaluate(const Nest& nest, const cache::HierarchyConfig& config, const sym::Context& ctx, const sym::ParamValues& values,
                    const EvaluateOptions& options = {});

}  // namespace cats::sim::miss
