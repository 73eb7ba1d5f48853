// Iteration-domain constraints of the polyhedral model: what one Loop scope or one Branch arm
// of the contexts trace adds to the domains of the statements below it. Private to tracer/.
#pragma once

#include "symbolic/condition.hpp"
#include "symbolic/polyhedral.hpp"
#include "tracer/trace.hpp"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cats::trace {

/// The constraints a loop puts on its iterator "i". The body runs at i = start + step*t for
/// 0 <= t < trips; the header (the exit test at -O0) once more, at t = trips, also when the
/// body never runs (sim/stream.cpp: Header/Final phases), so its set is one point longer.
struct LoopDomain {
  std::vector<sym::Constraint> body;
  std::vector<sym::Constraint> header;
  std::vector<sym::Symbol> existentials;  // t, for |step| > 1
  std::optional<std::string> reason;      // why the loop is not affine (then no constraints)
};

/// "loop" (a Loop scope of a contexts trace) with iterator "i"; "outer" names the iterators of
/// the enclosing loops, the only iterators its bounds may use.
LoopDomain loopDomain(const Scope& loop, const sym::Symbol& i, const std::set<std::string>& outer, const sym::Context& ctx);

/// A branch condition as disjoint pieces, each a conjunction of affine constraints: where the
/// condition holds is the union of the pieces (`i != 7` is `i < 7` and `i > 7`).
struct ConditionPieces {
  std::vector<std::vector<sym::Constraint>> pieces;  // none: never holds; one empty: always
  /// False when a part depends on data (loads, unknowns, opaque text) or there were too many
  /// pieces: the pieces then cover where the condition is not decided false (the concretiser's
  /// --branch both runs such an arm there), an over-approximation of where it holds.
  bool exact = true;
  std::string reason;

  /// Where both hold: the pieces of one crossed with the other's (disjoint stay disjoint).
  static ConditionPieces both(const ConditionPieces& a, const ConditionPieces& b);
};

/// "condition" (negated when "negated") over the iterators "dims" and the parameters.
ConditionPieces conditionPieces(const sym::Condition& condition, bool negated, const std::set<std::string>& dims, const sym::Context& ctx);

}  // namespace cats::trace
