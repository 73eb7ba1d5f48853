// The miss model's interface (sim/miss_model.hpp): per container and level, misses from layer
// conditions evaluated at a point, breakpoints found by bisection, resonances by scanning.
#include "sim/miss_model.hpp"

#include "miss/evaluate.hpp"
#include "miss/nest.hpp"

#include <cmath>
#include <map>
#include <set>

namespace cats::sim {

struct MissModel::Impl {
  trace::Trace trace;
  cache::HierarchyConfig config;
  miss::Nest nest;
  std::map<std::size_t, std::string> undecided;  // container -> the first reason

  /* The layer conditions at "parameter" = "value" (formulas only when asked: they cost GiNaC work). */
  miss::Evaluation at(const std::string& parameter, std::int64_t value, sym::ParamValues values, bool formulas = false) const {
    values[parameter] = value;
    return miss::evaluate(nest, config, trace.context, values, {false, formulas});
  }
};

namespace {

/* The innermost loop position of every (level, group) whose layer condition fails, -1 for none;
   empty when evaluation failed. */
std::vector<long> stateOf(const miss::Evaluation& e) {
  std::vector<long> state;
  if (!e.reason.empty()) return state;
  for (const auto& level : e.groups)
    for (const auto& g : level) state.push_back(g.tooLarge ? static_cast<long>(*g.tooLarge) : -1);
  return state;
}

/* Values of [lo, hi] to sample before bisecting: every one in a short range, else a geometric
   series that keeps the small sizes dense. */
std::vector<std::int64_t> samples(std::int64_t lo, std::int64_t hi) {
  constexpr std::int64_t kDense = 256, kPoints = 160;
  std::vector<std::int64_t> out;
  if (hi - lo <= kDense) {
    for (std::int64_t v = lo; v <= hi; ++v) out.push_back(v);
    return out;
  }
  double a = static_cast<double>(std::max<std::int64_t>(lo, 1)), b = static_cast<double>(hi);
  out.push_back(lo);
  for (std::int64_t k = 1; k < kPoints; ++k) {
    auto v = static_cast<std::int64_t>(std::llround(a * std::pow(b / a, static_cast<double>(k) / kPoints)));
    if (v > out.back() && v < hi) out.push_back(v);
  }
  out.push_back(hi);
  return out;
}

std::string nameOf(const trace::Trace& t, std::size_t container) { return t.containers.at(container).name; }

}  // namespace

MissModel MissModel::build(const trace::Trace& contexts, const trace::PolyModel& model, const cache::HierarchyConfig& config) {
  auto impl = std::make_shared<Impl>();
  impl->trace = contexts;
  impl->config = config;
  impl->nest = miss::extractNest(contexts, model);
  for (const auto& u : impl->nest.undecided) impl->undecided.emplace(u.container, u.reason);
  MissModel m;
  m.impl_ = std::move(impl);
  return m;
}

std::vector<MissEstimate> MissModel::predict(const sym::ParamValues& values) const {
  const Impl& m = *impl_;
  miss::Evaluation e = miss::evaluate(m.nest, m.config, m.trace.context, values);
  std::vector<MissEstimate> out;
  for (std::size_t c = 0; c < m.trace.containers.size(); ++c)
    for (std::size_t l = 0; l < m.config.levels.size(); ++l) {
      MissEstimate est{c, l, std::nullopt, {}};
      if (auto u = m.undecided.find(c); u != m.undecided.end()) est.reason = u->second;
      else if (!e.reason.empty()) est.reason = e.reason;
      else {
        auto found = e.containerMisses[l].find(c);
        est.misses = found == e.containerMisses[l].end() ? 0.0 : found->second;
      }
      out.push_back(std::move(est));
    }
  return out;
}

std::vector<Breakpoint> MissModel::breakpoints(const std::string& parameter, std::int64_t lo, std::int64_t hi,
                                               const sym::ParamValues& values) const {
  const Impl& m = *impl_;
  std::vector<Breakpoint> out;
  if (lo > hi || !m.trace.context.find(parameter)) return out;
  GiNaC::exmap others;
  for (const auto& [name, value] : values)
    if (name != parameter)
      if (auto s = m.trace.context.find(name)) others[*s] = value;
  std::set<std::tuple<std::size_t, std::size_t, std::int64_t, std::size_t>> seen;
  auto record = [&](std::int64_t v, const miss::Evaluation& before, const miss::Evaluation& after) {
    for (std::size_t l = 0; l < after.groups.size(); ++l)
      for (std::size_t g = 0; g < after.groups[l].size(); ++g) {
        auto a = before.groups[l][g].tooLarge, b = after.groups[l][g].tooLarge;
        if (a == b) continue;
        const miss::Group& group = m.nest.groups[g];
        std::size_t q = std::max(a ? static_cast<long>(*a) : -1L, b ? static_cast<long>(*b) : -1L);
        std::size_t loop = group.loops[q];
        if (!seen.emplace(group.container, l, v, loop).second) continue;
        const cache::LevelConfig& level = m.config.levels[l];
        auto capacity = static_cast<std::uint64_t>(miss::effectiveCapacity(m.config, l));
        sym::Expr bytes = (after.loopLinesSym[l][loop] * level.lineBytes).subs(others).expand();
        Breakpoint bp;
        bp.container = group.container;
        bp.level = l;
        bp.parameter = parameter;
        bp.value = v;
        bp.condition = sym::print(bytes) + " <= " + std::to_string(capacity);
        bool lost = b && (!a || *b > *a);
        bp.description = nameOf(m.trace, group.container) + "'s reuse carried by " + m.nest.loops[loop].label + " fits " +
                         level.name + " while " + bp.condition + " bytes (" + cache::formatByteSize(capacity) + " usable); " +
                         (lost ? "from " : "it fits again from ") + parameter + " = " + std::to_string(v) + (lost ? " on it does not" : "");
        out.push_back(std::move(bp));
      }
  };
  std::vector<std::int64_t> points = samples(lo, hi);
  miss::Evaluation prev = m.at(parameter, points.front(), values);
  for (std::size_t k = 1; k < points.size(); ++k) {
    std::int64_t a = points[k - 1];
    miss::Evaluation next = m.at(parameter, points[k], values);
    while (!stateOf(prev).empty() && !stateOf(next).empty() && stateOf(prev) != stateOf(next)) {
      std::int64_t low = a, high = points[k];
      while (high - low > 1) {
        std::int64_t mid = low + (high - low) / 2;
        (stateOf(m.at(parameter, mid, values)) == stateOf(prev) ? low : high) = mid;
      }
      miss::Evaluation flipped = m.at(parameter, high, values, true);
      record(high, prev, flipped);
      prev = std::move(flipped);
      a = high;
    }
    prev = std::move(next);
  }
  return out;
}

std::vector<Resonance> MissModel::resonances(const std::string& parameter, std::int64_t lo, std::int64_t hi,
                                             const sym::ParamValues& values) const {
  constexpr std::int64_t kMaxScanned = 20000;
  const Impl& m = *impl_;
  std::vector<Resonance> out;
  if (lo > hi || !m.trace.context.find(parameter)) return out;
  std::int64_t step = std::max<std::int64_t>(1, (hi - lo + kMaxScanned - 1) / kMaxScanned);
  for (std::int64_t v = lo; v <= hi; v += step) {
    miss::Evaluation e = m.at(parameter, v, values);
    std::set<std::pair<std::size_t, std::size_t>> reported;
    for (const auto& c : e.conflicts) {
      const miss::Group& group = m.nest.groups[c.group];
      if (!reported.emplace(group.container, c.level).second) continue;
      const cache::LevelConfig& level = m.config.levels[c.level];
      Resonance r;
      r.container = group.container;
      r.level = c.level;
      r.parameter = parameter;
      r.value = v;
      r.setsUsed = c.setsUsed;
      r.linesNeeded = c.linesNeeded;
      r.padding = c.padding;
      r.description = nameOf(m.trace, group.container) + "'s reuse carried by " + m.nest.loops[group.loops[c.position]].label +
                      " needs " + std::to_string(c.linesNeeded) + " lines of " + level.name + " but they map to " +
                      std::to_string(c.setsUsed) + " of its sets (" + std::to_string(cache::geometryOf(level).ways) +
                      " ways each) at " + parameter + " = " + std::to_string(v);
      out.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace cats::sim
