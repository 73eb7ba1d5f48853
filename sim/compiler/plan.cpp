// The compilation plan: interprocedural decisions first (what each call and loop bound looks
// like to the compiler), then each loop, then the compiler's own reports over both.
#include "sim/compiler.hpp"
#include "sim/compiler_report.hpp"

#include "idioms.hpp"
#include "calloc_fold.hpp"
#include "loops.hpp"
#include "reuse.hpp"
#include "view.hpp"

#include <algorithm>

namespace cats::sim {

namespace {

/* The note that says which decisions the compiler's report made and which the model did. */
void notePlanSources(const ReportUse& use, const ReportedDecisions& reported, CompilationPlan& plan) {
  std::string text = "`" + reported.command + "`: " + std::to_string(use.loopsFromReport) + " loop decision(s) from the compiler's report, " +
                     std::to_string(use.loopsFromModel) + " from the model; " + std::to_string(use.callsFromReport) +
                     " call decision(s) from the compiler's report, " + std::to_string(use.callsFromModel) + " from the model";
  if (use.unmatchedLoops + use.unmatchedCalls > 0)
    text += " (" + std::to_string(use.unmatchedLoops + use.unmatchedCalls) + " reported position(s) name no analysed loop or call)";
  plan.notes.push_back(std::move(text));
}

}  // namespace

const CallDecision* CompilationPlan::call(std::size_t scope) const { return compiler::findByScope(calls, scope); }

const LoopDecision* CompilationPlan::loop(std::size_t scope) const { return compiler::findByScope(loops, scope); }

std::string CompilationPlan::compiledFunction(const trace::Trace& contexts, std::size_t scope) const {
  if (auto library = replacedBy(contexts, scope)) return *library;
  std::size_t entry = compiler::compiledEntry(contexts, calls, scope);
  return entry ? contexts.scopes[entry].function : contexts.functionOf(scope);
}

std::string CompilationPlan::compiledFunctionOfEvent(const trace::Trace& contexts, std::size_t event) const {
  for (const DistributedStore& d : distributed)
    if (d.store == event) return "memset";
  // An allocation's accesses are calloc clearing a block from the heap's top: glibc does it with memset.
  if (contexts.events.at(event).kind == trace::EventKind::Alloc) return "memset";
  return compiledFunction(contexts, contexts.events.at(event).scope);
}

std::optional<std::string> CompilationPlan::replacedBy(const trace::Trace& contexts, std::size_t scope) const {
  for (std::optional<std::size_t> s = scope; s; s = contexts.scopes[*s].parent) {
    const trace::Scope& at = contexts.scopes[*s];
    if (at.kind == trace::ScopeKind::Function || (at.kind == trace::ScopeKind::Call && call(*s) && !call(*s)->inlined)) break;
    if (const LoopDecision* d = at.kind == trace::ScopeKind::Loop ? loop(*s) : nullptr; d && !d->replacedBy.empty()) return d->replacedBy;
  }
  return std::nullopt;
}

CompilationPlan planCompilation(const trace::Trace& contexts, const CompilerTarget& target, const ReportedDecisions* reported) {
  compiler::CompilerView view = compiler::viewOfCompiler(contexts, target);
  CompilationPlan plan;
  plan.target = target;
  plan.calls = std::move(view.calls);
  plan.loops = std::move(view.loops);
  compiler::decideLoops(contexts, view, plan);
  compiler::decideReuse(contexts, view, plan);
  compiler::decideIdioms(contexts, view, plan);
  compiler::decideCallocFolds(contexts, plan);
  if (reported) notePlanSources(applyReportedDecisions(contexts, *reported, plan), *reported, plan);
  return plan;
}

}  // namespace cats::sim
