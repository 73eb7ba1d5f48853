// Parallel loops, thread numbers and the false-sharing fixes on a Contexts trace
// (tracer/false_sharing.hpp).
#include "tracer/false_sharing.hpp"

#include "tracer/strides.hpp"

#include <algorithm>

namespace cats::trace {

namespace {

/* Whether a parallel loop scope other than "scope" encloses it. */
bool insideParallelLoop(const Trace& t, std::size_t scope) {
  for (std::size_t id : t.stack(scope))
    if (id != scope && t.scopes[id].kind == ScopeKind::Loop && t.scopes[id].parallel) return true;
  return false;
}

/* "e" with every thread-number symbol replaced by "thread". */
sym::Expr withThread(const sym::Expr& e, const sym::Context& context, const sym::Expr& thread) {
  GiNaC::exmap map;
  for (const sym::Symbol& s : sym::symbolsOfKind(e, context, sym::SymbolKind::Unknown))
    if (isThreadNumber(context, s)) map[s] = thread;
  return map.empty() ? e : e.subs(map).expand();
}

}  // namespace

std::vector<ParallelLoop> parallelLoops(const Trace& contexts, const std::map<std::string, std::int64_t>& bindings) {
  const GiNaC::exmap values = bindingValues(contexts, bindings);
  std::vector<ParallelLoop> out;
  for (const Scope& s : contexts.scopes) {
    if (s.kind != ScopeKind::Loop || !s.parallel || s.iterator.empty() || s.scheduleChunk < 0 || insideParallelLoop(contexts, s.id)) continue;
    ir::Loop shape;
    shape.start = s.start;
    shape.bound = s.bound;
    shape.step = s.step;
    shape.comparison = s.comparison;
    auto trips = sym::toInteger(sym::Expr(shape.tripCount()).subs(values).expand());
    if (!trips || *trips <= 0) continue;
    out.push_back(ParallelLoop{s.id, contexts.functionOf(s.id), s.loc, *trips, s.scheduleChunk});
  }
  return out;
}

bool isThreadNumber(const sym::Context& context, const sym::Symbol& symbol) {
  // The frontend gives each call of a library function it does not model a fresh unknown with
  // this note (frontend/build_library.cpp); omp_get_thread_num is one of them.
  const sym::SymbolInfo* info = context.info(symbol.get_name());
  return info && info->kind == sym::SymbolKind::Unknown && info->note == "result of omp_get_thread_num";
}

bool indexedByThread(const Trace& t, std::size_t container) {
  for (const Event& e : t.events)
    if (e.kind == EventKind::Access && e.container == container)
      for (const sym::Symbol& s : sym::symbolsOfKind(e.offset, t.context, sym::SymbolKind::Unknown))
        if (isThreadNumber(t.context, s)) return true;
  return false;
}

sym::Expr threadOfIteration(const Trace& contexts, const ParallelLoop& loop, std::uint32_t threads) {
  const Scope& s = contexts.scopes[loop.scope];
  const sym::Expr iterator = *contexts.context.find(s.iterator);
  const sym::Expr index = sym::idiv(iterator - s.start, s.step);
  const std::int64_t t = std::max<std::uint32_t>(threads, 1);
  if (loop.chunk > 0) return sym::imod(sym::idiv(index, loop.chunk), t);
  const std::int64_t block = std::max<std::int64_t>((loop.trips + t - 1) / t, 1);
  return sym::minOf(sym::idiv(index, block), t - 1);
}

Trace threadNumbered(const Trace& contexts, const ParallelLoop& loop, std::uint32_t threads) {
  Trace out = contexts;
  const sym::Expr thread = threadOfIteration(contexts, loop, threads);
  for (Event& e : out.events) {
    if (e.kind != EventKind::Access || !out.encloses(loop.scope, e.scope)) continue;
    e.offset = withThread(e.offset, out.context, thread);
    for (sym::Expr& subscript : e.subscripts) subscript = withThread(subscript, out.context, thread);
  }
  return out;
}

std::optional<Trace> threadDataSpread(const Trace& contexts, std::size_t container, std::int64_t factor, std::string* why) {
  const Container& c = contexts.containers[container];
  auto fail = [&](const std::string& problem) -> std::optional<Trace> {
    if (why) *why = problem;
    return std::nullopt;
  };
  if (c.dims.size() != 1 || c.elementBytes <= 0) return fail("'" + c.name + "' is not a one-dimensional array");
  if (!indexedByThread(contexts, container)) return fail("no access to '" + c.name + "' is indexed by omp_get_thread_num()");
  for (const Event& e : contexts.events)
    if (e.kind == EventKind::Access && e.container == container && e.subscripts.size() != 1)
      return fail("'" + e.text + "' reaches '" + c.name + "' without its subscript (through a pointer), so its spread address is unknown");
  Trace out = contexts;
  Container& spread = out.containers[container];
  spread.dims.front() = spread.dims.front() * factor;
  spread.sizeBytes = (spread.sizeBytes * factor).expand();
  for (Event& e : out.events) {
    if (e.container != container) continue;
    if (e.kind == EventKind::Alloc) e.sizeBytes = spread.sizeBytes;
    if (e.kind != EventKind::Access) continue;
    // Element k moves to k * factor; what the offset adds past the element's start stays.
    e.offset = (e.offset + e.subscripts.front() * (factor - 1) * c.elementBytes).expand();
    e.subscripts.front() = (e.subscripts.front() * factor).expand();
  }
  return out;
}

Trace rescheduled(const Trace& contexts, std::size_t loop, std::int64_t chunk) {
  Trace out = contexts;
  out.scopes[loop].scheduleChunk = chunk;
  return out;
}

}  // namespace cats::trace
