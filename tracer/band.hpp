// What the loop transformations of `review` (interchange, tiling, fusion) share about the loops
// of `deps`: finding a loop of the model in the trace the simulator runs.
#pragma once

#include "tracer/trace.hpp"

#include <string>

namespace cats::trace {

/// A scope's place in the call tree, the same in two traces of the same sources whatever
/// else the tracing options changed (the events differ, the loops and calls do not).
inline std::string placeKey(const Trace& t, std::size_t scope) {
  std::string key;
  for (std::size_t s : t.stack(scope)) {
    const Scope& sc = t.scopes[s];
    key += std::string(toString(sc.kind)) + ":" + sc.function + ":" + sc.loc.str() + ":" + sc.arm + "/";
  }
  return key;
}

}  // namespace cats::trace
