// `restrict` on a Contexts trace (issue 11, `cats-static review`, hoisting): which pointer
// parameter an access goes through, the trace as it would be with some pointer parameters
// declared `restrict` (so that the compiler model may keep loop-invariant accesses in
// registers), and whether the calls seen keep the promise `restrict` makes.
#pragma once

#include "tracer/trace.hpp"

#include <optional>
#include <set>
#include <string>

namespace cats::trace {

/// The pointer parameter (a Parameter container of "summaries", the trace "contexts" was
/// expanded from) through which access event "event" of "contexts" reaches memory, if any.
std::optional<std::size_t> parameterOf(const Trace& contexts, const Trace& summaries, std::size_t event);

/// "contexts" with every access through one of "parameters" (Parameter containers of
/// "summaries") reached through a `restrict` pointer, as if the source declared them so: the
/// containers, scopes and events stay, only Event::viaRestrict changes.
Trace withRestrict(const Trace& contexts, const Trace& summaries, const std::set<std::size_t>& parameters);

/// Whether declaring "parameters" restrict keeps its promise in every calling context of
/// "contexts": true when, in each call of the function, the arrays reached through each of
/// them are reached by no other access of that call; none (and "why") when the trace cannot
/// tell (memory the analysis cannot name: an entry function's parameter, a loaded pointer) or
/// a call reaches one array through two pointers (restrict may still hold if they never touch
/// the same elements, which is not checked).
std::optional<bool> restrictHolds(const Trace& contexts, const Trace& summaries, const std::set<std::size_t>& parameters,
                                  std::string* why = nullptr);

}  // namespace cats::trace
