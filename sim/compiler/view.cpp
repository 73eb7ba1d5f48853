// The compiler's view, first cut: no call is inlined, a loop's trip count is known when its own
// function writes it in numbers, and every container is an object the compiler can name except
// memory behind pointers the analysis itself could not follow.
#include "view.hpp"

namespace cats::sim::compiler {

bool CompilerView::mayAlias(const trace::Trace& contexts, std::size_t a, std::size_t b) const {
  const trace::Event& x = contexts.events[a];
  const trace::Event& y = contexts.events[b];
  if (x.container == y.container) return true;
  if (objectOf[a] && objectOf[b]) return false;  // two distinct named objects
  return !(restrictPointer[a] || restrictPointer[b]);
}

CompilerView viewOfCompiler(const trace::Trace& contexts, const CompilerTarget& target) {
  (void)target;
  CompilerView view;
  for (const trace::Scope& s : contexts.scopes) {
    if (s.kind == trace::ScopeKind::Call) {
      CallDecision d;
      d.scope = s.id;
      d.reason = "not inlined";
      view.calls.push_back(std::move(d));
    } else if (s.kind == trace::ScopeKind::Loop) {
      LoopDecision d;
      d.scope = s.id;
      d.constantTrips = s.staticBounds;
      d.tripsReason = s.staticBounds ? "start, bound and step are numbers in the loop's function" : "a bound is not a number in the loop's function";
      view.loops.push_back(std::move(d));
    }
  }
  view.objectOf.resize(contexts.events.size());
  view.restrictPointer.resize(contexts.events.size());
  for (std::size_t e = 0; e < contexts.events.size(); ++e) {
    const trace::Container& c = contexts.containers[contexts.events[e].container];
    bool behindPointer = c.kind == ir::ContainerKind::Pointee || c.kind == ir::ContainerKind::Parameter;  // an entry's pointer parameters may overlap
    if (!behindPointer) view.objectOf[e] = c.id;
    view.restrictPointer[e] = c.isRestrict;
  }
  return view;
}

}  // namespace cats::sim::compiler
