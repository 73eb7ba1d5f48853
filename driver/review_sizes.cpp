// Findings as a function of the size (docs/review.md, "As the size grows"): where a size is a
// parameter (an entry's argument bound with --param or -D, not a macro the preprocessor already
// made a number), the sources traced again with it free give the strides as formulas and the
// miss model's layer conditions and set-conflict resonances of the finding's container, at the
// first level.
#include "review_findings.hpp"

#include "tracer/poly_model.hpp"
#include "tracer/strides.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace cats::driver {

namespace {

/* The bound values of "bindings" that are parameters of "t". */
std::map<std::string, std::int64_t> parametersOf(const trace::Trace& t, const std::map<std::string, std::int64_t>& bindings) {
  std::map<std::string, std::int64_t> out;
  for (const auto& [name, value] : bindings) {
    const sym::SymbolInfo* info = t.context.info(name);
    if (info && info->kind == sym::SymbolKind::Parameter) out.emplace(name, value);
  }
  return out;
}

/* Whether "container" of the size model at "level" is the first level's "name". */
bool namesContainer(const SizeModel& sizes, std::size_t container, std::size_t level, const std::string& name) {
  return level == 0 && container < sizes.contexts.containers.size() && sizes.contexts.containers[container].name == name;
}

/* The event of the free trace that is "event" of the bound one: same place, same text. */
const trace::Event* freeEventOf(const trace::Trace& free, const trace::Event& event) {
  for (const trace::Event& e : free.events)
    if (e.kind == trace::EventKind::Access && e.loc == event.loc && e.text == event.text && e.mode == event.mode)
      return &e;
  return nullptr;
}

/* The loop of the free trace around "e" with iterator "iterator". */
const trace::Scope* freeLoopOf(const trace::Trace& free, const trace::Event& e, const std::string& iterator) {
  for (std::optional<std::size_t> s = e.scope; s; s = free.scopes[*s].parent)
    if (free.scopes[*s].kind == trace::ScopeKind::Loop && free.scopes[*s].iterator == iterator) return &free.scopes[*s];
  return nullptr;
}

}  // namespace

std::optional<SizeModel> sizeModelOf(SourceArgs sources, const trace::Trace& boundContexts, const cache::HierarchyConfig& config,
                                     const std::map<std::string, std::int64_t>& bindings) {
  if (parametersOf(boundContexts, bindings).empty()) return std::nullopt;
  sources.freeParameters = true;
  sources.quiet = true;  // the first reading printed the diagnostics
  TraceOutcome traced = traceSources(sources);
  if (!traced.trace) return std::nullopt;
  trace::Trace contexts = modelContexts(*traced.trace);
  try {
    sim::MissModel misses = sim::MissModel::build(contexts, trace::buildPolyModel(contexts), config);
    return SizeModel{std::move(contexts), std::move(misses)};
  } catch (const std::exception&) {  // a model the formulas cannot follow: the findings keep their numbers at the bound sizes
    return std::nullopt;
  }
}

std::vector<std::string> capacitySizes(const ReviewInput& in, const std::string& container) {
  std::vector<std::string> out;
  if (!in.sizes) return out;
  const std::map<std::string, std::int64_t>& bindings = in.run.concretize.bindings;
  for (const auto& [name, value] : parametersOf(in.sizes->contexts, bindings))
    for (const sim::Breakpoint& b : in.sizes->misses.breakpoints(name, 1, std::max<std::int64_t>(4 * value, 16), bindings))
      if (namesContainer(*in.sizes, b.container, b.level, container)) out.push_back(b.description);
  return out;
}

std::vector<std::string> resonanceSizes(const ReviewInput& in, const std::string& container) {
  constexpr std::size_t kListed = 6;
  std::vector<std::string> out;
  if (!in.sizes) return out;
  const std::map<std::string, std::int64_t>& bindings = in.run.concretize.bindings;
  for (const auto& [name, value] : parametersOf(in.sizes->contexts, bindings)) {
    const std::int64_t lo = std::max<std::int64_t>(1, value / 2), hi = 2 * value;
    std::vector<std::int64_t> sizes;
    for (const sim::Resonance& r : in.sizes->misses.resonances(name, lo, hi, bindings))
      if (namesContainer(*in.sizes, r.container, r.level, container) && (sizes.empty() || sizes.back() != r.value)) sizes.push_back(r.value);
    if (sizes.empty()) continue;
    const std::size_t shown = std::min(sizes.size(), kListed);
    out.push_back(fmt::format("the reuse of '{}' maps to too few sets of {} at {} of the values of {} from {} to {}: {}{}", container,
                              in.configs.front().levels.front().name, sizes.size(), name, lo, hi,
                              fmt::join(sizes.begin(), sizes.begin() + static_cast<std::ptrdiff_t>(shown), ", "),
                              shown < sizes.size() ? fmt::format(" and {} more", sizes.size() - shown) : std::string()));
  }
  return out;
}

std::vector<std::string> strideSizes(const ReviewInput& in, const trace::Event& event, const trace::Scope& loop) {
  if (!in.sizes) return {};
  const trace::Event* e = freeEventOf(in.sizes->contexts, event);
  const trace::Scope* around = e ? freeLoopOf(in.sizes->contexts, *e, loop.iterator) : nullptr;
  const std::string formula = around ? trace::strideFormula(in.sizes->contexts, *e, *around) : std::string();
  if (formula.empty()) return {};
  return {fmt::format("{} moves {} bytes per iteration of loop {}", event.text, formula, loop.iterator)};
}

}  // namespace cats::driver
