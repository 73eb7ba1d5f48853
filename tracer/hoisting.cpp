#include "tracer/hoisting.hpp"

#include <map>

namespace cats::trace {

namespace {

/* The innermost Call or Function scope around "scope" in "contexts": one run of a function. */
std::size_t callOf(const Trace& contexts, std::size_t scope) {
  for (std::optional<std::size_t> s = scope; s; s = contexts.scopes[*s].parent) {
    ScopeKind k = contexts.scopes[*s].kind;
    if (k == ScopeKind::Call || k == ScopeKind::Function) return *s;
  }
  return 0;
}

bool unnamed(const Container& c) { return c.kind == ir::ContainerKind::Parameter || c.kind == ir::ContainerKind::Pointee; }

/* Per call (callOf) of "contexts", per container: whether "parameter" reaches it, whether another access does. */
struct Reach {
  bool viaParameter = false, otherwise = false;
};
using Reaches = std::map<std::size_t, std::map<std::size_t, Reach>>;

Reaches reachesOf(const Trace& contexts, const Trace& summaries, std::size_t parameter) {
  Reaches out;
  for (std::size_t e = 0; e < contexts.events.size(); ++e) {
    if (contexts.events[e].kind != EventKind::Access) continue;
    Reach& r = out[callOf(contexts, contexts.events[e].scope)][contexts.events[e].container];
    (parameterOf(contexts, summaries, e) == parameter ? r.viaParameter : r.otherwise) = true;
  }
  return out;
}

/* Why "parameter"'s promise cannot be checked in "reaches"; empty when it holds in every call. */
std::string problemOf(const Trace& contexts, const Trace& summaries, std::size_t parameter) {
  const std::string name = summaries.containers[parameter].declaredName;
  for (const auto& [call, containers] : reachesOf(contexts, summaries, parameter)) {
    const std::string where = contexts.scopes[call].kind == ScopeKind::Call ? "the call at " + contexts.scopes[call].loc.str() : "the entry";
    for (const auto& [container, reach] : containers) {
      if (!reach.viaParameter) continue;
      const Container& c = contexts.containers[container];
      if (unnamed(c)) return "what '" + name + "' points to is not known at " + where + " (an entry function's parameter or a loaded pointer)";
      if (reach.otherwise) return where + " reaches '" + c.name + "' both through '" + name + "' and otherwise";
    }
  }
  return {};
}

}  // namespace

std::optional<std::size_t> parameterOf(const Trace& contexts, const Trace& summaries, std::size_t event) {
  const Event& e = contexts.events[event];
  if (!e.summary || *e.summary >= summaries.events.size()) return std::nullopt;
  const std::size_t container = summaries.events[*e.summary].container;
  const Container& c = summaries.containers[container];
  if (c.kind != ir::ContainerKind::Parameter || !c.parameter) return std::nullopt;
  return container;
}

Trace withRestrict(const Trace& contexts, const Trace& summaries, const std::set<std::size_t>& parameters) {
  Trace out = contexts;
  for (std::size_t e = 0; e < out.events.size(); ++e) {
    auto p = parameterOf(contexts, summaries, e);
    if (p && parameters.count(*p)) out.events[e].viaRestrict = true;
  }
  return out;
}

std::optional<bool> restrictHolds(const Trace& contexts, const Trace& summaries, const std::set<std::size_t>& parameters, std::string* why) {
  for (std::size_t p : parameters) {
    std::string problem = problemOf(contexts, summaries, p);
    if (problem.empty()) continue;
    if (why) *why = problem;
    return std::nullopt;
  }
  return true;
}

}  // namespace cats::trace
