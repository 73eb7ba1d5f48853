// Struct layout on a Contexts trace (issue 11, `cats-static review`): arrays of structs walked
// by a loop that uses a small part of each element, and the trace as it would be with the
// array split into a structure of arrays (one array per field), for the simulator to predict
// the split variant's misses.
#pragma once

#include "tracer/trace.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cats::trace {

struct LayoutCandidate {
  std::size_t container = 0;
  std::string name;         // the container
  std::string elementType;  // "struct particle"
  std::string function;     // where the loop is
  ir::SourceLoc loc;        // the loop walking the elements
  std::string iterator;     // its iterator
  std::int64_t elementBytes = 0;
  std::int64_t strideBytes = 0;          // per iteration of the loop, with the bindings applied
  std::size_t fieldCount = 0;            // leaf fields of the element
  std::vector<std::string> fieldsUsed;   // by the loop, in layout order
  std::int64_t bytesUsed = 0;            // of each element, by the loop
  std::int64_t lineBytes = 0;
  double linesPerElement = 0;            // the loop fetches, on average over where the array starts in a line
  std::string notEvaluated;  // non-empty: the split trace cannot be built (and why)

  /// Bytes the loop uses of each line it fetches, on average over where the array starts.
  double bytesPerLine() const;
};

/// Containers of "contexts" whose element is a struct and that some innermost loop walks
/// element by element (its stride a multiple of the element) using at most half of each
/// element's bytes. Values with "bindings" applied; one candidate per container: its hottest
/// such loop (the most accesses to it executed, a loop with unknown bounds counted once;
/// the first on a tie).
std::vector<LayoutCandidate> findLayouts(const Trace& contexts, const std::map<std::string, std::int64_t>& bindings, std::int64_t lineBytes);

/// "contexts" with "container" laid out as a structure of arrays in its own block: one array
/// per field, in the fields' order, each as long as the container has elements, the field of
/// element k at k times the field's size in its array. The size, the allocations and every
/// access's offset (from its subscripts and its field) follow. nullopt (and "why") when an
/// access cannot be re-addressed: no subscripts (a pointer into the middle), no field (a copy
/// of whole elements), an indirect index, or the element count is unknown.
std::optional<Trace> split(const Trace& contexts, std::size_t container, std::string* why = nullptr);

}  // namespace cats::trace
