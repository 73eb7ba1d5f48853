// What the loop transformations of `review` (interchange, tiling, fusion) share about the loops
// of `deps`: finding the loops of the model in the trace the simulator runs.
#pragma once

#include "tracer/dependences.hpp"
#include "tracer/trace.hpp"

#include <map>
#include <string>
#include <vector>

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

/// The loops of "contexts" by their placeKey.
inline std::map<std::string, std::size_t> loopsByPlace(const Trace& contexts) {
  std::map<std::string, std::size_t> loops;
  for (const Scope& s : contexts.scopes)
    if (s.kind == ScopeKind::Loop) loops.emplace(placeKey(contexts, s.id), s.id);
  return loops;
}

/// The loops of "nest" (scopes of "modelContexts") matched in the trace whose loopsByPlace is
/// "loops"; empty when one is missing there.
inline std::vector<std::size_t> bandIn(const Trace& modelContexts, const NestVerdict& nest, const std::map<std::string, std::size_t>& loops) {
  std::vector<std::size_t> band;
  for (const LoopRef& l : nest.band) {
    auto found = loops.find(placeKey(modelContexts, l.scope));
    if (found == loops.end()) return {};
    band.push_back(found->second);
  }
  return band;
}

}  // namespace cats::trace
