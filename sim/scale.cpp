// Groups, names and stream counts of the scaling analysis (sim/scale.hpp).
#include "sim/scale.hpp"

#include <algorithm>
#include <array>
#include <unordered_set>

namespace cats::sim {

namespace {

constexpr std::array<std::pair<ScaleMetric, std::string_view>, 6> kMetricNames{{
    {ScaleMetric::Accesses, "accesses"},
    {ScaleMetric::Bytes, "bytes"},
    {ScaleMetric::Footprint, "footprint"},
    {ScaleMetric::MissesD1, "misses_D1"},
    {ScaleMetric::MissesL2, "misses_L2"},
    {ScaleMetric::MissesLL, "misses_LL"},
}};

}  // namespace

std::optional<ScaleMetric> parseScaleMetric(std::string_view text) {
  for (const auto& [metric, name] : kMetricNames)
    if (name == text) return metric;
  return std::nullopt;
}

std::string_view toString(ScaleMetric metric) {
  for (const auto& [m, name] : kMetricNames)
    if (m == metric) return name;
  return "?";
}

std::optional<std::size_t> missLevel(ScaleMetric metric, const cache::HierarchyConfig& config, std::string* problem) {
  auto missing = [&](const std::string& what) -> std::optional<std::size_t> {
    if (problem) *problem = what;
    return std::nullopt;
  };
  switch (metric) {
    case ScaleMetric::Accesses:
    case ScaleMetric::Bytes:
    case ScaleMetric::Footprint: return std::nullopt;
    case ScaleMetric::MissesD1:
      if (config.levels.empty()) return missing("the cache hierarchy has no level");
      return 0;
    case ScaleMetric::MissesLL:
      if (config.levels.size() < 2) return missing("misses_LL needs a hierarchy with at least two levels");
      return config.levels.size() - 1;
    case ScaleMetric::MissesL2:
      for (std::size_t k = 0; k < config.levels.size(); ++k)
        if (config.levels[k].name == "L2") return k;
      return missing("misses_L2: the cache hierarchy has no level called L2 (give --L2 size,assoc,line)");
  }
  return std::nullopt;
}

std::string_view toString(ScaleGroupKind kind) {
  switch (kind) {
    case ScaleGroupKind::Total: return "total";
    case ScaleGroupKind::Container: return "container";
    case ScaleGroupKind::Function: return "function";
    case ScaleGroupKind::Loop: return "loop";
  }
  return "?";
}

namespace {

/* The name of the group of "kind" that event "e" belongs to; empty when it belongs to none
   (an access outside every loop has no loop group). */
std::string groupName(const trace::Trace& t, const trace::Event& e, ScaleGroupKind kind) {
  switch (kind) {
    case ScaleGroupKind::Total: return "program";
    case ScaleGroupKind::Container: return t.containers.at(e.container).name;
    case ScaleGroupKind::Function: return t.functionOf(e.scope);
    case ScaleGroupKind::Loop: {
      auto loop = t.innermostLoop(e.scope);
      if (!loop) return {};
      const trace::Scope& s = t.scopes.at(*loop);
      return s.label() + " at " + s.loc.file + ":" + std::to_string(s.loc.line) + " in " + t.functionOf(e.scope);
    }
  }
  return {};
}

bool conditionUses(const sym::Condition& c, const sym::Symbol& s) {
  if (sym::contains(c.lhs, s) || sym::contains(c.rhs, s)) return true;
  return std::any_of(c.operands.begin(), c.operands.end(), [&](const auto& o) { return conditionUses(o, s); });
}

}  // namespace

std::vector<ScaleGroup> scaleGroups(const trace::Trace& t) {
  std::vector<ScaleGroup> out;
  for (ScaleGroupKind kind : {ScaleGroupKind::Total, ScaleGroupKind::Container, ScaleGroupKind::Function, ScaleGroupKind::Loop}) {
    std::map<std::string, std::vector<std::size_t>> byName;
    for (std::size_t i = 0; i < t.events.size(); ++i) {
      if (t.events[i].kind != trace::EventKind::Access) continue;
      std::string name = groupName(t, t.events[i], kind);
      if (!name.empty()) byName[name].push_back(i);
    }
    for (auto& [name, events] : byName) out.push_back(ScaleGroup{kind, name, std::move(events)});
  }
  return out;
}

bool usesParameter(const trace::Trace& t, const std::string& name) {
  auto symbol = t.context.find(name);
  if (!symbol || t.context.kindOf(*symbol) != sym::SymbolKind::Parameter) return false;
  const sym::Symbol& s = *symbol;
  for (const auto& c : t.containers)
    if (sym::contains(c.sizeBytes, s) || std::any_of(c.dims.begin(), c.dims.end(), [&](const auto& d) { return sym::contains(d, s); }))
      return true;
  for (const auto& scope : t.scopes)
    if (sym::contains(scope.start, s) || sym::contains(scope.bound, s) || sym::contains(scope.step, s) || conditionUses(scope.condition, s))
      return true;
  return std::any_of(t.events.begin(), t.events.end(),
                     [&](const auto& e) { return sym::contains(e.offset, s) || sym::contains(e.sizeBytes, s); });
}

StreamCounts countStream(const Program& program, const StreamOptions& options, const std::vector<ScaleGroup>& groups,
                         std::size_t eventCount, std::uint32_t lineBytes) {
  std::vector<std::vector<std::uint32_t>> groupsOf(eventCount);
  for (std::uint32_t g = 0; g < groups.size(); ++g)
    for (std::size_t e : groups[g].events)
      if (e < eventCount) groupsOf[e].push_back(g);
  StreamCounts counts;
  counts.accesses.assign(groups.size(), 0);
  counts.bytes.assign(groups.size(), 0);
  std::vector<std::unordered_set<std::uint64_t>> lines(groups.size());
  AddressStream stream(program, options);
  std::vector<Record> batch(4096);
  const std::uint64_t line = std::max<std::uint32_t>(lineBytes, 1);
  while (std::size_t n = stream.next(batch.data(), batch.size())) {
    for (std::size_t i = 0; i < n; ++i) {
      const Record& r = batch[i];
      if (r.tag >= eventCount) continue;
      for (std::uint32_t g : groupsOf[r.tag]) {
        ++counts.accesses[g];
        counts.bytes[g] += r.bytes;
        if (lineBytes == 0) continue;
        for (std::uint64_t l = r.address / line; l <= (r.address + std::max<std::uint32_t>(r.bytes, 1) - 1) / line; ++l) lines[g].insert(l);
      }
    }
  }
  counts.lines.resize(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) counts.lines[g] = lines[g].size();
  counts.approximate = stream.usedPolicy();
  return counts;
}

}  // namespace cats::sim
