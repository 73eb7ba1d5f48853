// Which malloc blocks the compiler allocates with calloc instead: the block's first use is a
// loop storing the constant zero over all of it, in the function that allocates it (after
// inlining). The loop's zero store becomes memset (loop distribution splits it from the other
// statements of the loop) and malloc + memset(0) becomes calloc, which on a fresh mmapped block
// writes nothing at all (objdump -d of the corpus's box_blur and twice_sizes: `call calloc`,
// no memset, both compilers; docs/register-model.md).
#include "calloc_fold.hpp"

#include "view.hpp"

#include <algorithm>

namespace cats::sim::compiler {

namespace {

/* The first access event to "container" after event "from", if any. */
std::optional<std::size_t> firstAccessAfter(const trace::Trace& contexts, std::size_t from, std::size_t container) {
  for (std::size_t e = from + 1; e < contexts.events.size(); ++e) {
    const trace::Event& ev = contexts.events[e];
    if (ev.container != container) continue;
    if (ev.kind != trace::EventKind::Access) return std::nullopt;
    return e;
  }
  return std::nullopt;
}

/* Whether the loop "loop" runs once per execution of "outer": only inlined calls between them. */
bool runsOncePer(const trace::Trace& contexts, const CompilationPlan& plan, std::size_t loop, std::size_t outer) {
  for (std::optional<std::size_t> s = contexts.scopes[loop].parent; s; s = contexts.scopes[*s].parent) {
    if (*s == outer) return true;
    const trace::Scope& here = contexts.scopes[*s];
    const CallDecision* call = plan.call(*s);
    if (here.kind != trace::ScopeKind::Call || !call || !call->inlined) return false;
  }
  return false;
}

/* Whether store event "e", alone in its loop (nested loops included), writes zero over exactly "sizeBytes" bytes from the
   container's start: offset = bytes * (i - start) for i in [start, bound). */
bool zeroesWholeBlock(const trace::Trace& contexts, std::size_t e, const sym::Expr& sizeBytes) {
  const trace::Event& ev = contexts.events[e];
  if (ev.mode != ir::AccessMode::Write || ev.stored.kind != ir::StoredValue::Kind::Constant || ev.stored.splat != std::optional<std::uint8_t>(0) || ev.loopHeader) return false;
  const trace::Scope& loop = contexts.scopes[ev.scope];
  if (loop.kind != trace::ScopeKind::Loop || loop.iterator.empty() || loop.earlyExit || loop.comparison != ir::Comparison::Less) return false;
  if (!(loop.step - 1).expand().is_zero()) return false;
  auto it = contexts.context.find(loop.iterator);
  if (!it) return false;
  sym::Expr offset = ev.offset.expand();
  if (!(offset - ev.bytes * (*it - loop.start)).expand().is_zero()) return false;
  if (!(ev.bytes * (loop.bound - loop.start) - sizeBytes).expand().is_zero()) return false;
  for (std::size_t other = 0; other < contexts.events.size(); ++other)
    if (other != e && contexts.events[other].container == ev.container && contexts.encloses(ev.scope, contexts.events[other].scope)) return false;
  return true;
}

/* Whether a store to any memory runs between event "alloc" and the loop of event "store":
   Clang 14 folds malloc + memset into calloc only when nothing is written in between. */
bool writesBetween(const trace::Trace& contexts, std::size_t alloc, std::size_t store) {
  std::size_t loop = contexts.events[store].scope;
  for (std::size_t e = alloc + 1; e < store; ++e) {
    const trace::Event& ev = contexts.events[e];
    if (ev.kind == trace::EventKind::Access && ev.mode == ir::AccessMode::Write && !contexts.encloses(loop, ev.scope)) return true;
  }
  return false;
}

}  // namespace

void decideCallocFolds(const trace::Trace& contexts, CompilationPlan& plan) {
  if (plan.target.optLevel < 2 || (plan.target.compiler == CompilerKind::Gcc && !plan.target.distributePatterns)) return;
  for (std::size_t a = 0; a < contexts.events.size(); ++a) {
    const trace::Event& alloc = contexts.events[a];
    if (alloc.kind != trace::EventKind::Alloc || alloc.function != ir::AllocFunction::Malloc) continue;
    auto store = firstAccessAfter(contexts, a, alloc.container);
    if (!store || !zeroesWholeBlock(contexts, *store, alloc.sizeBytes)) continue;
    std::size_t loop = contexts.events[*store].scope;
    if (!runsOncePer(contexts, plan, loop, alloc.scope)) continue;
    if (plan.target.compiler == CompilerKind::Clang && writesBetween(contexts, a, *store)) continue;
    if (compiledEntry(contexts, plan.calls, loop) != compiledEntry(contexts, plan.calls, alloc.scope)) continue;
    CallocFold fold;
    fold.alloc = a;
    fold.store = *store;
    fold.reason = "malloc + zeroing loop at " + contexts.events[*store].loc.str() + " -> calloc (the loop's zero store becomes memset, folded into the allocation)";
    if (std::find(plan.notes.begin(), plan.notes.end(), fold.reason) == plan.notes.end()) plan.notes.push_back(fold.reason);
    // A loop the idiom model made a memset is gone altogether: its memset is the calloc's clearing.
    for (LoopDecision& d : plan.loops)
      if (d.scope == loop && d.replacedBy == "memset") {
        d.removed = true;
        d.reason += "; then folded with the malloc into calloc";
      }
    // ... and so is a memset the store was split into.
    std::erase_if(plan.distributed, [&](const DistributedStore& d) {
      if (d.store != fold.store) return false;
      std::erase(plan.notes, d.reason);
      return true;
    });
    plan.callocs.push_back(std::move(fold));
  }
}

}  // namespace cats::sim::compiler
