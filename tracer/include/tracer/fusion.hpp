// Loop fusion on a Contexts trace (issue 11, `cats-static review`): which adjacent loops of
// one body share containers (the dependences' fusion candidates, found again in the trace the
// simulator runs), and the trace as it would be with the second loop's body run in the first
// loop, after the first's own body, for the simulator to predict the variant's misses.
#pragma once

#include "tracer/dependences.hpp"
#include "tracer/trace.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cats::trace {

/// Two adjacent loops that could run as one.
struct FusionCandidate {
  std::size_t first = 0, second = 0;  // Loop scopes of "contexts": the second runs right after the first
  std::string function;
  ir::SourceLoc firstLoc, secondLoc;
  std::string firstIterator, secondIterator;
  std::vector<std::string> shared;          // containers both loops access
  std::optional<std::int64_t> sharedBytes;  // their sizes with the bindings; none when one is not a number
  std::optional<bool> legal;                // the dependences' verdict; none: the model cannot tell
  std::string legality;                     // why, in words
  std::string notEvaluated;                 // non-empty: the variant cannot be built (and why)
};

/// The candidates of "contexts" (what the simulator runs), from the fusion verdicts of "deps",
/// computed on "modelContexts" (the same sources traced for the polyhedral model: loops are
/// matched by their place in the call tree). Sizes are evaluated with "bindings".
std::vector<FusionCandidate> findFusions(const Trace& contexts, const Trace& modelContexts, const ProgramDependences& deps,
                                         const std::map<std::string, std::int64_t>& bindings);

/// "contexts" with loop "second" fused into loop "first": the second loop's events (its
/// condition's excepted) and child scopes move into the first loop's body, after the first's
/// own, its iterator replaced by the first's in every moved offset, subscript, bound and
/// condition; the second loop scope is removed (the scopes after it are renumbered). nullopt
/// (and "why") when the loops run over different ranges, a loop carries values other than its
/// iterator, or something between the two loops would be reordered.
std::optional<Trace> fused(const Trace& contexts, std::size_t first, std::size_t second, std::string* why = nullptr);

}  // namespace cats::trace
