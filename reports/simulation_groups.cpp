// Grouping per-event cache counters by what they mean to the programmer.
#include "reports/simulation.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace cats::report {

std::optional<GroupBy> parseGroupBy(const std::string& text) {
  for (GroupBy g : {GroupBy::Container, GroupBy::Field, GroupBy::Function, GroupBy::CompiledFunction, GroupBy::Loop, GroupBy::Line,
                    GroupBy::Context})
    if (toString(g) == text) return g;
  return std::nullopt;
}

std::string_view toString(GroupBy g) {
  switch (g) {
    case GroupBy::Container: return "container";
    case GroupBy::Field: return "field";
    case GroupBy::Function: return "function";
    case GroupBy::CompiledFunction: return "compiled-function";
    case GroupBy::Loop: return "loop";
    case GroupBy::Line: return "line";
    case GroupBy::Context: return "context";
  }
  return "container";
}

namespace {

bool scopeIsApproximate(const trace::Scope& s) {
  switch (s.kind) {
    case trace::ScopeKind::Loop:
      return !s.opaqueReason.empty() || s.earlyExit || !sym::containersIn(s.start).empty() || !sym::containersIn(s.bound).empty();
    case trace::ScopeKind::Branch:
      return s.condition.isOpaque() || (!sym::containersIn(s.condition.lhs).empty() || !sym::containersIn(s.condition.rhs).empty());
    default: return false;
  }
}

std::string keyOf(const trace::Trace& t, const trace::Event& e, GroupBy by, const sim::CompilationPlan* plan) {
  switch (by) {
    case GroupBy::Container: return t.containers.at(e.container).name;
    case GroupBy::Field: return t.containers.at(e.container).name + (e.field.empty() ? "" : "." + e.field);
    case GroupBy::Function: return t.functionOf(e.scope);
    case GroupBy::CompiledFunction: return plan ? plan->compiledFunctionOfEvent(t, static_cast<std::size_t>(&e - t.events.data())) : t.functionOf(e.scope);
    case GroupBy::Loop: {
      auto loop = t.innermostLoop(e.scope);
      if (!loop) return "(outside loops) in " + t.functionOf(e.scope);
      const trace::Scope& s = t.scopes.at(*loop);
      return s.label() + " at " + s.loc.file + ":" + std::to_string(s.loc.line) + " in " + t.functionOf(e.scope);
    }
    case GroupBy::Line:  // an allocation's accesses are calloc clearing the block: library code, no source line
      return e.kind == trace::EventKind::Alloc ? "(calloc clearing)" : e.loc.file + ":" + std::to_string(e.loc.line);
    case GroupBy::Context: {
      std::string out;
      for (const auto& label : t.stackLabels(e.scope)) out += (out.empty() ? "" : " > ") + label;
      return out;
    }
  }
  return {};
}

}  // namespace

std::string groupName(const trace::Trace& t, std::size_t event, GroupBy by, const sim::CompilationPlan* plan) {
  return keyOf(t, t.events.at(event), by, plan);
}

bool eventIsApproximate(const trace::Trace& t, std::size_t event, const sim::SimulationResult* result) {
  const trace::Event& e = t.events.at(event);
  const bool indexRead = result && result->indexesFromStoredValues.count(event) != 0;  // every index the program's own
  // An index read from stored values every time resolved the unknown that made the offset approximate.
  if ((e.classification.approximate || e.classification.kind == trace::AccessClass::Indirect) && !indexRead) return true;
  for (std::optional<std::size_t> s = e.scope; s; s = t.scopes.at(*s).parent) {
    const trace::Scope& scope = t.scopes.at(*s);
    const bool boundsRead = result && scope.kind == trace::ScopeKind::Loop && result->boundsFromStoredValues.count(*s) != 0 &&
                            (scope.opaqueReason.empty() || scope.test.op != sym::ConditionOp::True) && !scope.earlyExit;
    if (scopeIsApproximate(scope) && !boundsRead) return true;
  }
  return false;
}

std::vector<Group> groupEvents(const trace::Trace& t, const sim::SimulationResult& result, GroupBy by, const sim::CompilationPlan* plan) {
  std::map<std::string, Group> groups;
  const std::size_t levels = result.levels.size();
  for (std::size_t e = 0; e < t.events.size() && e < result.byEvent.size(); ++e) {
    // An allocation's accesses are calloc clearing its block (the compiled function memset, as
    // glibc does it): grouped with the block, so the groups add up to the totals.
    const bool clearing = t.events[e].kind == trace::EventKind::Alloc &&
                          std::any_of(result.byEvent[e].begin(), result.byEvent[e].end(), [](const auto& c) { return c.accesses() > 0; });
    if (t.events[e].kind != trace::EventKind::Access && !clearing) continue;
    std::string key = keyOf(t, t.events[e], by, plan);
    Group& g = groups[key];
    if (g.levels.empty()) {
      g.name = key;
      g.levels.resize(levels);
    }
    for (std::size_t k = 0; k < levels; ++k) g.levels[k] += result.byEvent[e][k];
    g.approximate = g.approximate || eventIsApproximate(t, e, &result);
  }
  std::vector<Group> out;
  out.reserve(groups.size());
  for (auto& [key, g] : groups) out.push_back(std::move(g));
  std::stable_sort(out.begin(), out.end(), [levels](const Group& a, const Group& b) {
    for (std::size_t k = 0; k < levels; ++k)
      if (a.levels[k].misses() != b.levels[k].misses()) return a.levels[k].misses() > b.levels[k].misses();
    return false;
  });
  return out;
}

std::vector<LineCost> lineCosts(const trace::Trace& t, const sim::SimulationResult& result, const sim::CompilationPlan* plan) {
  std::map<std::tuple<std::string, std::string, unsigned>, std::vector<sim::LevelCounts>> costs;
  const std::size_t levels = result.levels.size();
  for (std::size_t e = 0; e < t.events.size() && e < result.byEvent.size(); ++e) {
    const trace::Event& event = t.events[e];
    if (event.kind == trace::EventKind::Free) continue;
    // An allocation's accesses are calloc clearing the block: code of the C library, no source line.
    const bool library = event.kind == trace::EventKind::Alloc;
    if (library && std::all_of(result.byEvent[e].begin(), result.byEvent[e].end(), [](const auto& c) { return c.accesses() == 0; })) continue;
    auto& counts = costs[library ? std::make_tuple(std::string(), std::string("calloc"), 0u)
                                 : std::make_tuple(event.loc.file, keyOf(t, event, GroupBy::CompiledFunction, plan), event.loc.line)];
    counts.resize(levels);
    for (std::size_t k = 0; k < levels; ++k) counts[k] += result.byEvent[e][k];
  }
  std::vector<LineCost> out;
  out.reserve(costs.size());
  for (auto& [key, counts] : costs) out.push_back(LineCost{std::get<0>(key), std::get<1>(key), std::get<2>(key), std::move(counts)});
  return out;
}

}  // namespace cats::report
