// The compiler's view, in the order the compilers build it: inlining per call site, then
// interprocedural constant propagation over the calls that stay, then what both make known
// (loop trip counts, the objects behind pointers).
#include "view.hpp"

#include "alias_view.hpp"
#include "call_sites.hpp"
#include "constprop.hpp"
#include "inliner.hpp"

namespace cats::sim::compiler {

CompilerView viewOfCompiler(const trace::Trace& contexts, const CompilerTarget& target) {
  CompilerView view;
  CallSites sites(contexts);
  view.calls = decideInlining(sites, target);
  CompileTimeValues values(sites, view.calls);
  values.propagateConstants(target, view.calls);
  view.loops = decideTrips(sites, values);
  viewAliases(contexts, target, view);
  return view;
}

}  // namespace cats::sim::compiler
