#include "tracer/layout.hpp"

#include "element_index.hpp"
#include "tracer/strides.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <set>

namespace cats::trace {

namespace {

const ir::Field* fieldNamed(const Container& c, const std::string& name) {
  auto f = std::find_if(c.fields.begin(), c.fields.end(), [&](const ir::Field& x) { return x.name == name; });
  return f == c.fields.end() ? nullptr : &*f;
}

/* Bytes past the start of field "f" of its element where access "e" begins: offset in bytes,
   in the symbols of "e"'s subscripts. */
sym::Expr withinField(const Event& e, const sym::Expr& index, std::int64_t elementBytes, const ir::Field& f) {
  return (e.offset - index * elementBytes - f.offset).expand();
}

/* Why the accesses of "container" cannot be re-addressed in a structure of arrays; empty when they can. */
std::string splitProblem(const Trace& t, std::size_t container) {
  const Container& c = t.containers[container];
  if (c.fields.empty() || c.elementBytes <= 0) return "'" + c.name + "' is not an array of structs";
  if (c.kind == ir::ContainerKind::Parameter || c.kind == ir::ContainerKind::Pointee)
    return "the number of elements of '" + c.name + "' is unknown (memory behind a pointer the program does not allocate)";
  for (const Event& e : t.events) {
    if (e.kind != EventKind::Access || e.container != container) continue;
    auto index = elementIndex(e, c);
    if (!index) return "'" + e.text + "' reaches '" + c.name + "' without its subscripts (through a pointer into it), so its split address is unknown";
    if (e.classification.kind == AccessClass::Indirect)
      return "'" + e.text + "' picks its element of '" + c.name + "' through loaded data, which the simulator draws in the struct's layout";
    const ir::Field* f = e.field.empty() ? nullptr : fieldNamed(c, e.field);
    if (!f) return "'" + e.text + "' reads or writes whole elements of '" + c.name + "' (a struct copy), which a split scatters";
    auto within = sym::toInteger(withinField(e, *index, c.elementBytes, *f));
    if (within && (*within < 0 || *within + e.bytes > f->bytes)) return "'" + e.text + "' reaches past its field '" + f->name + "'";
  }
  return {};
}

/* Bytes of [start, end) intervals covered by at least one. */
std::int64_t coveredBytes(std::vector<std::pair<std::int64_t, std::int64_t>> intervals) {
  std::sort(intervals.begin(), intervals.end());
  std::int64_t covered = 0, reached = 0;
  for (const auto& [start, end] : intervals) {
    const std::int64_t from = std::max(start, reached);
    if (end > from) covered += end - from;
    reached = std::max(reached, end);
  }
  return covered;
}

/* Distinct lines touched by "intervals" of each of "elements" elements "stride" bytes apart,
   the first starting "base" bytes into a line. */
std::int64_t linesTouched(const std::vector<std::pair<std::int64_t, std::int64_t>>& intervals, std::int64_t stride, std::int64_t lineBytes,
                          std::int64_t base, std::int64_t elements) {
  std::set<std::int64_t> lines;
  for (std::int64_t k = 0; k < elements; ++k)
    for (const auto& [start, end] : intervals)
      for (std::int64_t l = (base + k * stride + start) / lineBytes; l <= (base + k * stride + end - 1) / lineBytes; ++l) lines.insert(l);
  return static_cast<std::int64_t>(lines.size());
}

/* Lines a walk fetches per element, on average over where the array can start in a line (every
   multiple of "alignment"). The pattern repeats every lineBytes / gcd(stride, lineBytes)
   elements; two periods less one counts the lines of one period in the middle of the walk,
   where a line shared with the period before is not counted twice. */
double linesPerElement(const std::vector<std::pair<std::int64_t, std::int64_t>>& intervals, std::int64_t stride, std::int64_t lineBytes,
                       std::int64_t alignment) {
  const std::int64_t period = lineBytes / std::gcd(stride, lineBytes), step = std::clamp<std::int64_t>(alignment, 1, lineBytes);
  std::int64_t lines = 0, bases = 0;
  for (std::int64_t base = 0; base < lineBytes; base += step, ++bases)
    lines += linesTouched(intervals, stride, lineBytes, base, 2 * period) - linesTouched(intervals, stride, lineBytes, base, period);
  return static_cast<double>(lines) / static_cast<double>(bases * period);
}

/* Iterations of "loop" with "values" applied; none when its bounds are not numbers (they depend
   on another loop, on data or on an unbound parameter). */
std::optional<std::int64_t> tripsOf(const Scope& loop, const GiNaC::exmap& values) {
  auto start = sym::toInteger(loop.start.subs(values).expand()), bound = sym::toInteger(loop.bound.subs(values).expand());
  auto step = sym::toInteger(loop.step.subs(values).expand());
  if (!start || !bound || !step || *step == 0) return std::nullopt;
  const bool inclusive = loop.comparison == ir::Comparison::LessEqual || loop.comparison == ir::Comparison::GreaterEqual;
  const std::int64_t span = std::llabs(*bound - *start) + (inclusive ? 1 : 0), stride = std::llabs(*step);
  return (span + stride - 1) / stride;
}

/* How often the body of "scope" runs: the product of its loops' iterations, a loop whose count
   is unknown counted once (so that such loops never outweigh counted ones by a guess). */
double executions(const Trace& t, std::size_t scope, const GiNaC::exmap& values) {
  double runs = 1;
  for (std::size_t s : t.stack(scope))
    if (t.scopes[s].kind == ScopeKind::Loop)
      if (auto trips = tripsOf(t.scopes[s], values)) runs *= static_cast<double>(*trips);
  return runs;
}

/* What one loop does with one container's elements. */
struct LoopUse {
  std::size_t container = 0, loop = 0;
  double accesses = 0;  // executed, with every loop's count known
  std::int64_t stride = 0;
  std::vector<std::pair<std::int64_t, std::int64_t>> intervals;  // bytes of the element used
  std::set<std::string> fields;
};

/* The bytes of its element that access "e" uses, as [start, end) past the element's start:
   the access itself when its place in the field is a number, else its whole field. */
std::pair<std::int64_t, std::int64_t> usedBytes(const Event& e, const Container& c, const ir::Field& f, const GiNaC::exmap& values) {
  auto index = elementIndex(e, c);
  std::optional<std::int64_t> within;
  if (index) within = sym::toInteger(withinField(e, *index, c.elementBytes, f).subs(values).expand());
  if (!within || *within < 0 || *within + e.bytes > f.bytes) return {f.offset, f.offset + f.bytes};
  return {f.offset + *within, f.offset + *within + e.bytes};
}

/* Per (container, innermost loop), in the order of their first events: the struct elements the
   loop walks, element by element, and which of their bytes it uses. */
std::vector<LoopUse> loopUses(const Trace& contexts, const GiNaC::exmap& values) {
  std::vector<LoopUse> uses;
  std::map<std::pair<std::size_t, std::size_t>, std::size_t> at;
  std::map<std::size_t, double> runs;  // per scope: its executions, shared by the scope's events (a GiNaC evaluation per loop)
  for (const Event& e : contexts.events) {
    if (e.kind != EventKind::Access || e.loopHeader) continue;
    const Container& c = contexts.containers[e.container];
    const ir::Field* f = e.field.empty() ? nullptr : fieldNamed(c, e.field);
    auto loop = contexts.innermostLoop(e.scope);
    if (!f || c.elementBytes <= 0 || !loop) continue;
    auto stride = strideOver(contexts, e, contexts.scopes[*loop], values);
    if (!stride || *stride == 0 || std::llabs(*stride) % c.elementBytes != 0) continue;
    auto [it, fresh] = at.try_emplace({e.container, *loop}, uses.size());
    if (fresh) uses.push_back({e.container, *loop, 0, 0, {}, {}});
    LoopUse& u = uses[it->second];
    u.stride = std::max<std::int64_t>(u.stride, std::llabs(*stride));
    auto [executed, unseen] = runs.try_emplace(e.scope, 0.0);
    if (unseen) executed->second = executions(contexts, e.scope, values);
    u.accesses += executed->second * static_cast<double>(e.multiplicity);
    u.intervals.push_back(usedBytes(e, c, *f, values));
    u.fields.insert(f->name);
  }
  return uses;
}

}  // namespace

double LayoutCandidate::bytesPerLine() const { return linesPerElement <= 0 ? 0.0 : static_cast<double>(bytesUsed) / linesPerElement; }

std::vector<LayoutCandidate> findLayouts(const Trace& contexts, const std::map<std::string, std::int64_t>& bindings, std::int64_t lineBytes) {
  const GiNaC::exmap values = bindingValues(contexts, bindings);
  std::vector<LoopUse> hottest;  // per container, in the order of their first qualifying loops
  std::map<std::size_t, std::size_t> at;
  for (LoopUse& u : loopUses(contexts, values)) {
    if (coveredBytes(u.intervals) * 2 > contexts.containers[u.container].elementBytes) continue;
    auto [it, fresh] = at.try_emplace(u.container, hottest.size());
    if (fresh) hottest.push_back(std::move(u));
    else if (u.accesses > hottest[it->second].accesses) hottest[it->second] = std::move(u);
  }
  std::vector<LayoutCandidate> out;
  for (const LoopUse& u : hottest) {
    const Container& c = contexts.containers[u.container];
    const Scope& loop = contexts.scopes[u.loop];
    LayoutCandidate l;
    l.container = u.container;
    l.name = c.name;
    l.elementType = c.elementType;
    l.function = contexts.functionOf(loop.id);
    l.loc = loop.loc;
    l.iterator = loop.iterator;
    l.elementBytes = c.elementBytes;
    l.strideBytes = u.stride;
    l.fieldCount = c.fields.size();
    for (const ir::Field& f : c.fields)
      if (u.fields.count(f.name)) l.fieldsUsed.push_back(f.name);
    l.bytesUsed = coveredBytes(u.intervals);
    l.lineBytes = lineBytes;
    l.linesPerElement = linesPerElement(u.intervals, u.stride, lineBytes, c.alignment);
    l.notEvaluated = splitProblem(contexts, u.container);
    out.push_back(std::move(l));
  }
  return out;
}

std::optional<Trace> split(const Trace& contexts, std::size_t container, std::string* why) {
  std::string problem = splitProblem(contexts, container);
  if (!problem.empty()) {
    if (why) *why = problem;
    return std::nullopt;
  }
  Trace out = contexts;
  Container& c = out.containers[container];
  const sym::Expr elements = (c.sizeBytes / c.elementBytes).expand();
  std::map<std::string, sym::Expr> arrayStart;  // per field: where its array begins in the block
  std::int64_t before = 0;
  for (const ir::Field& f : c.fields) {
    arrayStart[f.name] = (elements * before).expand();
    before += f.bytes;
  }
  c.sizeBytes = (elements * before).expand();
  for (Event& e : out.events) {
    if (e.container != container) continue;
    if (e.kind == EventKind::Alloc) e.sizeBytes = c.sizeBytes;
    if (e.kind != EventKind::Access) continue;
    const ir::Field& f = *fieldNamed(c, e.field);
    const sym::Expr index = *elementIndex(e, c);
    e.offset = (arrayStart[f.name] + index * f.bytes + withinField(e, index, c.elementBytes, f)).expand();
  }
  return out;
}

}  // namespace cats::trace
