// Distinct cache lines of a reuse group in one iteration of a loop (its footprint there), as a
// number at a parameter point and as a formula of the parameters, and the cache sets those lines
// map to (set-conflict resonance). Private to sim/ (docs/polyhedral.md, "Miss model").
#pragma once

#include "symbolic/expr.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace cats::sim::miss {

/// One loop of a group's walk: byte stride per iteration and iterations (1 for a fixed loop).
struct Dim {
  double stride = 0;  // |bytes| per iteration
  double trips = 1;
  sym::Expr strideSym = 0;
  sym::Expr tripsSym = 1;
};

/// A group's walk with the loops outside the level fixed (trips 1) and the inner ones varying.
struct Walk {
  std::vector<Dim> dims;
  std::vector<double> offsets;  // constant byte offsets of the members
  double elementBytes = 8;
};

/// Equally long runs of contiguous bytes at start + sum k_d * stride_d (0 <= k_d < trips_d).
struct Runs {
  double start = 0;
  double span = 0;
  std::vector<Dim> copies;
};

struct Footprint {
  double lines = 0;          // expected distinct lines, averaged over the alignments the fixed loops give
  sym::Expr linesSym = 0;    // the same as a formula: (span - element) / line + 1 per run, no rounding
  std::vector<Runs> runs;    // one per cluster of members
};

/// The lines "walk" touches for lines of "lineBytes" bytes; the container's base is line-aligned.
/// linesSym only with "formulas" (else 0).
Footprint footprint(const Walk& walk, std::int64_t lineBytes, bool formulas = true);

/// Calls "visit" with the index (address / lineBytes, the container's base at 0) of every line of
/// "f" until it returns false; false when "f" has more than "maxLines" lines to visit.
bool forEachLine(const Footprint& f, std::int64_t lineBytes, std::uint64_t maxLines, const std::function<bool(std::int64_t)>& visit);

/// Distinct sets among the lines of "f" in a cache of "sets" sets, counting stops at "enough";
/// nullopt when there are too many lines to enumerate (then resonance is not reported).
std::optional<std::uint64_t> setsUsed(const Footprint& f, std::int64_t lineBytes, std::uint64_t sets, std::uint64_t enough);

}  // namespace cats::sim::miss
