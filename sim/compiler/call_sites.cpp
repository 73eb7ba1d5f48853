// The call structure of a contexts trace, read once for the inliner and constant propagation.
#include "call_sites.hpp"

namespace cats::sim::compiler {

CallSites::CallSites(const trace::Trace& trace) : contexts(trace) {
  for (const trace::Scope& s : contexts.scopes) {
    if (s.kind != trace::ScopeKind::Call) continue;
    callsOf[s.function].push_back(s.id);
    sitesOf[s.function].insert(s.summary.value_or(s.id));
  }
}

std::size_t CallSites::entryOf(std::size_t scope) const {
  for (std::optional<std::size_t> s = scope; s; s = contexts.scopes[*s].parent) {
    trace::ScopeKind kind = contexts.scopes[*s].kind;
    if (kind == trace::ScopeKind::Call || kind == trace::ScopeKind::Function) return *s;
  }
  return 0;
}

bool CallSites::runsOnce(std::size_t scope, bool evenInLoops) const {
  for (std::optional<std::size_t> s = scope; s; s = contexts.scopes[*s].parent) {
    const trace::Scope& here = contexts.scopes[*s];
    if (here.kind == trace::ScopeKind::Loop && !evenInLoops) return false;
    if (here.kind == trace::ScopeKind::Function) return here.function == "main";
    if (here.kind == trace::ScopeKind::Call && sites(here.function) != 1) return false;
  }
  return false;
}

std::size_t CallSites::sites(const std::string& callee) const {
  auto it = sitesOf.find(callee);
  return it == sitesOf.end() ? 0 : it->second.size();
}

}  // namespace cats::sim::compiler
