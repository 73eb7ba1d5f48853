#include "tracer/padding.hpp"

#include "element_index.hpp"
#include "tracer/strides.hpp"

#include <cstdlib>
#include <numeric>
#include <set>

namespace cats::trace {

namespace {

std::optional<std::int64_t> valueOf(const sym::Expr& e, const GiNaC::exmap& values) { return sym::toInteger(e.subs(values).expand()); }

/* Why "container"'s accesses cannot be re-addressed after a pad; empty when they can. */
std::string paddingProblem(const Trace& t, std::size_t container) {
  const Container& c = t.containers[container];
  if (c.dims.size() < 2 || c.elementBytes <= 0) return "'" + c.name + "' is not an array of two or more dimensions";
  for (const Event& e : t.events)
    if (e.kind == EventKind::Access && e.container == container && e.subscripts.size() != c.dims.size())
      return "'" + e.text + "' reaches '" + c.name + "' without its subscripts (through a pointer), so its padded address is unknown";
  return {};
}

}  // namespace

std::vector<PaddingCandidate> findPaddings(const Trace& contexts, const std::map<std::string, std::int64_t>& bindings,
                                           std::int64_t lineBytes, std::uint64_t sets) {
  const GiNaC::exmap values = bindingValues(contexts, bindings);
  std::vector<PaddingCandidate> out;
  std::set<std::size_t> seen;
  for (const Event& e : contexts.events) {
    if (e.kind != EventKind::Access || e.loopHeader || seen.count(e.container)) continue;
    const Container& c = contexts.containers[e.container];
    if (c.dims.size() < 2 || c.elementBytes <= 0 || e.subscripts.size() != c.dims.size()) continue;
    auto loop = contexts.innermostLoop(e.scope);
    if (!loop) continue;
    const Scope& l = contexts.scopes[*loop];
    auto stride = strideOver(contexts, e, l, values);
    auto row = valueOf(c.dims.back() * c.elementBytes, values);
    if (!row || !stride || *row <= 0 || *stride == 0 || *row % lineBytes != 0 || std::llabs(*stride) % *row != 0) continue;
    // Lines "stride" bytes apart fall in sets / gcd(stride in lines, sets) sets.
    const auto strideLines = static_cast<std::uint64_t>(std::llabs(*stride) / lineBytes);
    const std::uint64_t touched = sets / std::gcd(strideLines, sets);
    if (touched * 4 >= sets) continue;
    seen.insert(e.container);
    PaddingCandidate p;
    p.container = e.container;
    p.name = c.name;
    p.function = contexts.functionOf(e.scope);
    p.loc = l.loc;
    p.access = e.text;
    p.rowBytes = *row;
    p.padElements = std::max<std::int64_t>(1, lineBytes / c.elementBytes);
    p.setsTouched = touched;
    p.sets = sets;
    p.notEvaluated = paddingProblem(contexts, e.container);
    out.push_back(std::move(p));
  }
  return out;
}

std::optional<Trace> padded(const Trace& contexts, std::size_t container, std::int64_t padElements, std::string* why) {
  std::string problem = paddingProblem(contexts, container);
  if (!problem.empty()) {
    if (why) *why = problem;
    return std::nullopt;
  }
  Trace out = contexts;
  Container& c = out.containers[container];
  const std::vector<sym::Expr> oldDims = c.dims;
  c.dims.back() = c.dims.back() + padElements;
  sym::Expr elements = 1;
  for (const auto& d : c.dims) elements = elements * d;
  c.sizeBytes = (elements * c.elementBytes).expand();
  for (Event& e : out.events) {
    if (e.container != container) continue;
    if (e.kind == EventKind::Alloc) e.sizeBytes = c.sizeBytes;
    if (e.kind != EventKind::Access) continue;
    // What the offset adds past the element's start (a field of a struct element) stays.
    sym::Expr within = e.offset - linearIndex(e.subscripts, oldDims) * c.elementBytes;
    e.offset = (linearIndex(e.subscripts, c.dims) * c.elementBytes + within).expand();
  }
  return out;
}

}  // namespace cats::trace
