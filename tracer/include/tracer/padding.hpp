// Row padding on a Contexts trace (issue 11, `cats-static review`): arrays of two or more
// dimensions walked down a column whose row length in bytes is a multiple of many cache lines,
// so that the rows' lines fall in few sets of a cache, and the trace as it would be with each
// row one cache line longer, for the simulator to predict the padded variant's misses.
#pragma once

#include "tracer/trace.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cats::trace {

struct PaddingCandidate {
  std::size_t container = 0;
  std::string name;          // the container
  std::string function;      // where the column is walked
  ir::SourceLoc loc;         // the loop walking it
  std::string access;        // the access's text
  std::int64_t rowBytes = 0;      // the last dimension in bytes, with the bindings applied
  std::int64_t padElements = 0;   // elements added to the last dimension: one cache line
  std::uint64_t setsTouched = 0;  // of "sets": where the lines of one column fall
  std::uint64_t sets = 0;
  std::string notEvaluated;  // non-empty: the padded trace cannot be built (and why)
};

/// Arrays of "contexts" walked by an innermost loop with a stride of whole rows whose lines
/// fall in fewer than a quarter of the "sets" sets of a cache of "lineBytes" lines. Values
/// with "bindings" applied; one candidate per container (its first such access).
std::vector<PaddingCandidate> findPaddings(const Trace& contexts, const std::map<std::string, std::int64_t>& bindings,
                                           std::int64_t lineBytes, std::uint64_t sets);

/// "contexts" with the last dimension of "container" longer by "padElements": its size, its
/// allocation and the offset of every access to it (from the access's subscripts) follow.
/// nullopt (and "why") when an access to it has no subscripts to recompute its offset from.
std::optional<Trace> padded(const Trace& contexts, std::size_t container, std::int64_t padElements, std::string* why = nullptr);

}  // namespace cats::trace
