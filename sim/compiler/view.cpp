// The compiler's view, in the order the compilers build it: inlining per call site, then
// interprocedural constant propagation over the calls that stay, then what both make known
// (loop trip counts, the objects behind pointers).
#include "view.hpp"

#include "alias_view.hpp"
#include "call_sites.hpp"
#include "constprop.hpp"
#include "inliner.hpp"

namespace cats::sim::compiler {

std::size_t compiledEntry(const trace::Trace& contexts, const std::vector<CallDecision>& calls, std::size_t scope) {
  for (std::optional<std::size_t> s = scope; s; s = contexts.scopes[*s].parent) {
    const trace::Scope& here = contexts.scopes[*s];
    if (here.kind == trace::ScopeKind::Function) return *s;
    if (here.kind != trace::ScopeKind::Call) continue;
    const CallDecision* d = findByScope(calls, *s);
    if (!d || !d->inlined) return *s;
  }
  return 0;
}

CompilerView viewOfCompiler(const trace::Trace& contexts, const CompilerTarget& target) {
  CompilerView view;
  CallSites sites(contexts);
  view.calls = decideInlining(sites, target);
  CompileTimeValues values(sites, view.calls);
  values.propagateConstants(target, view.calls);
  view.loops = decideTrips(sites, values, target);
  viewAliases(contexts, target, view);
  return view;
}

}  // namespace cats::sim::compiler
