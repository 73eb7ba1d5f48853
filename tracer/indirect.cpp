#include "tracer/indirect.hpp"

#include "tracer/classify.hpp"

namespace cats::trace {

namespace {

/* The terms of "offset" (bytes) that hold loaded values or unknowns: the data-dependent part. */
sym::Expr indexedPart(const sym::Expr& offset, const sym::Context& ctx) {
  const sym::Expr expanded = offset.expand();
  auto dataDependent = [&](const sym::Expr& term) { return !sym::containersIn(term).empty() || sym::containsUnknown(term, ctx); };
  if (!GiNaC::is_a<GiNaC::add>(expanded)) return dataDependent(expanded) ? expanded : sym::Expr(0);
  sym::Expr part = 0;
  for (const auto& term : expanded)
    if (dataDependent(term)) part += term;
  return part;
}

/* Bytes per element of what "e" reads: its container's element, else the access itself. */
std::int64_t elementOf(const Trace& t, const Event& e) {
  const std::int64_t element = t.containers[e.container].elementBytes;
  return element > 0 ? element : e.bytes;
}

/* The loops around "scope", outermost first, as classify() wants them. */
std::vector<EnclosingLoop> enclosingLoops(const Trace& t, std::size_t scope) {
  std::vector<EnclosingLoop> out;
  for (std::size_t s : t.stack(scope)) {
    const Scope& l = t.scopes[s];
    if (l.kind != ScopeKind::Loop) continue;
    EnclosingLoop loop;
    loop.iterator = l.iterator.empty() ? std::nullopt : t.context.find(l.iterator);
    loop.step = l.step;
    for (const auto& name : l.varying)
      if (auto v = t.context.find(name)) loop.varying.push_back(*v);
    if (loop.iterator) loop.varying.push_back(*loop.iterator);
    out.push_back(std::move(loop));
  }
  return out;
}

}  // namespace

std::optional<std::size_t> gatherLoop(const Trace& contexts, std::size_t event) {
  const Event& e = contexts.events[event];
  const sym::Expr index = indexedPart(e.offset, contexts.context);
  const std::optional<std::size_t> innermost = contexts.innermostLoop(e.scope);
  for (std::optional<std::size_t> l = innermost; l; l = contexts.innermostLoop(*contexts.scopes[*l].parent)) {
    const Scope& loop = contexts.scopes[*l];
    auto it = loop.iterator.empty() ? std::nullopt : contexts.context.find(loop.iterator);
    if (it && index.has(*it)) return l;
    if (!loop.parent) break;
  }
  return innermost;
}

std::optional<Trace> sortedGather(const Trace& contexts, std::size_t event, std::string* why) {
  auto fail = [&](const std::string& reason) -> std::optional<Trace> {
    if (why) *why = reason;
    return std::nullopt;
  };
  const Event& gather = contexts.events[event];
  const std::optional<std::size_t> loopId = gatherLoop(contexts, event);
  if (!loopId) return fail("it is not in a loop");
  const Scope& loop = contexts.scopes[*loopId];
  auto it = loop.iterator.empty() ? std::nullopt : contexts.context.find(loop.iterator);
  if (!it || sym::toInteger(loop.step) != 1) return fail("its loop (" + loop.label() + ") does not count up by one");
  const sym::Expr index = (indexedPart(gather.offset, contexts.context) / elementOf(contexts, gather)).expand();
  const sym::Expr inOrder = *it - loop.start;
  Trace out = contexts;
  for (Event& e : out.events) {
    if (e.kind != EventKind::Access || !out.encloses(*loopId, e.scope)) continue;
    const std::int64_t element = elementOf(out, e);
    const sym::Expr part = indexedPart(e.offset, out.context);
    if (part.is_zero() || !(part / element - index).expand().is_zero()) continue;
    e.offset = (e.offset - part + element * inOrder).expand();
    e.subscripts.clear();
    e.classification = classify(e.offset, e.bytes, enclosingLoops(out, e.scope), out.context);
  }
  return out;
}

}  // namespace cats::trace
