// Loop interchange on a Contexts trace (issue 11, `cats-static review`): which perfectly
// nested bands walk a container with a large stride in their innermost loop while another
// order of the band would walk it by its elements, and the trace as it would be with the two
// loops swapped, for the simulator to predict the variant's misses.
#pragma once

#include "tracer/dependences.hpp"
#include "tracer/trace.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cats::trace {

/// One way to bring a better loop of a band innermost.
struct InterchangeCandidate {
  std::size_t outer = 0, inner = 0;  // Loop scopes of "contexts" to swap (inner: the band's innermost)
  std::string function;
  ir::SourceLoc loc;                 // the innermost loop, where the large stride is walked
  std::string outerIterator, innerIterator;
  std::string container;             // the access walked with the largest stride
  std::string access;                // its text
  std::size_t event = 0;             // that access (an event of contexts)
  std::int64_t strideBefore = 0;     // bytes per iteration of the innermost loop, now
  std::int64_t strideAfter = 0;      // bytes per iteration of the loop that would be innermost
  std::optional<bool> legal;         // the dependences' verdict; none: the model cannot tell
  std::string legality;              // why, in words
  std::string notEvaluated;          // non-empty: the variant cannot be built (and why)
};

/// The candidates of "contexts" (what the simulator runs), with the legality of "deps",
/// computed on "modelContexts" (the same sources traced for the polyhedral model: loops are
/// matched by their place in the call tree). Strides are evaluated with "bindings"; a stride
/// is large from "lineBytes" on.
std::vector<InterchangeCandidate> findInterchanges(const Trace& contexts, const Trace& modelContexts, const ProgramDependences& deps,
                                                   const std::map<std::string, std::int64_t>& bindings, std::int64_t lineBytes);

/// "contexts" with the loops "outer" and "inner" swapped: iterator, bounds, step, comparison
/// and the rest of the loop's own description change places, the scope tree and the events
/// stay. nullopt (and "why") when the two loops' bounds depend on each other or a loop
/// carries values other than its iterator (the swap would change what they compute).
std::optional<Trace> interchanged(const Trace& contexts, std::size_t outer, std::size_t inner, std::string* why = nullptr);

}  // namespace cats::trace
