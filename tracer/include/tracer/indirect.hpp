// Gathers on a Contexts trace (issue 11, `cats-static review`, indirect): the loop that draws
// a gather's index, and the trace as it would be with the indices sorted, for the simulator
// to predict what sorting buys. The values of an index array are not in the trace, so the
// sorted variant assumes the extreme: the gathered elements visited in order, one per
// iteration, as a sorted permutation (0, 1, 2, ...) would visit them.
#pragma once

#include "tracer/trace.hpp"

#include <optional>
#include <string>

namespace cats::trace {

/// The loop whose iterations give access "event" of "contexts" a new index (as the simulator
/// draws it, docs/register-model.md "Indirect accesses"): the innermost enclosing loop whose
/// iterator appears in the index, else the innermost enclosing loop; none outside loops.
std::optional<std::size_t> gatherLoop(const Trace& contexts, std::size_t event);

/// "contexts" with the data-dependent part of the offset of "event" (its index, times the
/// element size) replaced by the element the iteration of gatherLoop() would visit in order:
/// (iterator - start) elements. Every access below that loop with the same index (the other
/// fields of the element, other arrays indexed alike) changes with it, and is classified
/// again. nullopt (and "why") when the loop has no iterator or does not count up by one.
std::optional<Trace> sortedGather(const Trace& contexts, std::size_t event, std::string* why = nullptr);

}  // namespace cats::trace
