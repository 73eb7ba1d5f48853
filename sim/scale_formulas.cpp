// The predicted side of `scale`: formulas derived once from the trace, evaluated per point
// (sim/scale.hpp). Counts come from the polyhedral model and the counting formulas, misses from
// the miss model; what they do not cover is left to per-point counting.
#include "sim/scale.hpp"

#include "sim/miss_model.hpp"
#include "tracer/poly_counts.hpp"
#include "tracer/poly_model.hpp"

#include <algorithm>
#include <mutex>

namespace cats::sim {

struct ScaleFormulas::Impl {
  std::vector<ScaleGroup> groups;
  std::vector<std::optional<std::size_t>> containerOf;  // container groups: the trace's container index
  std::vector<std::size_t> containersUsed;              // containers some access event touches
  std::optional<MissModel> misses;
  std::string missReason;     // why there is no miss model at all
  std::string countReason;    // why there are no count formulas
  std::vector<trace::CountRecord> counts;  // per group: its executions, bytes and lines
  std::int64_t lineBytes = 64;
  cache::HierarchyConfig config;

  // The miss model's estimates at the last point asked for: every group and metric of one
  // point reads the same estimates.
  mutable std::mutex mutex;
  mutable std::map<std::string, std::int64_t> lastValues;
  mutable std::vector<MissEstimate> lastEstimates;

  const std::vector<MissEstimate>& estimatesAt(const std::map<std::string, std::int64_t>& values) const {
    if (lastEstimates.empty() || values != lastValues) {
      lastEstimates = misses->predict(values);
      lastValues = values;
    }
    return lastEstimates;
  }

  std::optional<double> missesOf(std::size_t group, std::size_t level, const std::map<std::string, std::int64_t>& values, std::string* why) const;
};

namespace {

void say(std::string* why, const std::string& text) {
  if (why) *why = text;
}

}  // namespace

std::optional<double> ScaleFormulas::Impl::missesOf(std::size_t group, std::size_t level, const std::map<std::string, std::int64_t>& values,
                                                    std::string* why) const {
  if (!misses) {
    say(why, missReason);
    return std::nullopt;
  }
  const ScaleGroup& g = groups.at(group);
  if (g.kind == ScaleGroupKind::Function || g.kind == ScaleGroupKind::Loop) {
    say(why, "the miss model predicts per container");
    return std::nullopt;
  }
  std::lock_guard<std::mutex> lock(mutex);
  const auto& estimates = estimatesAt(values);
  double sum = 0;
  for (const auto& e : estimates) {
    if (e.level != level) continue;
    bool wanted = g.kind == ScaleGroupKind::Total ? std::find(containersUsed.begin(), containersUsed.end(), e.container) != containersUsed.end()
                                                  : containerOf[group] == e.container;
    if (!wanted) continue;
    if (!e.misses) {
      say(why, "the miss model cannot decide: " + e.reason);
      return std::nullopt;
    }
    sum += *e.misses;
  }
  return sum;
}

ScaleFormulas ScaleFormulas::derive(const trace::Trace& contexts, const std::vector<ScaleGroup>& groups, const std::vector<ScaleMetric>& metrics,
                                    const cache::HierarchyConfig& config, const sym::CountLimits& limits) {
  auto impl = std::make_shared<Impl>();
  impl->groups = groups;
  impl->config = config;
  impl->lineBytes = config.levels.empty() ? 64 : config.levels.front().lineBytes;
  trace::PolyModel model;
  try {
    model = trace::buildPolyModel(contexts);
    // Count formulas are isl work: derived only when a count metric (not misses_*) asks for them.
    bool wantCounts = std::any_of(metrics.begin(), metrics.end(), [](ScaleMetric m) { return m == ScaleMetric::Accesses || m == ScaleMetric::Bytes || m == ScaleMetric::Footprint; });
    if (wantCounts) {
      trace::ProgramCounts counts = trace::deriveCounts(contexts, model, impl->lineBytes, limits);
      for (const auto& g : groups) impl->counts.push_back(trace::sumEvents(counts, trace::CountLevel::Container, g.name, g.events));
    }
  } catch (const std::exception& e) {
    impl->counts.clear();
    impl->countReason = std::string("no count formula: ") + e.what();
  }
  for (const auto& g : groups) {
    std::optional<std::size_t> container;
    if (g.kind == ScaleGroupKind::Container && !g.events.empty()) container = contexts.events.at(g.events.front()).container;
    impl->containerOf.push_back(container);
  }
  for (const auto& e : contexts.events)
    if (e.kind == trace::EventKind::Access && std::find(impl->containersUsed.begin(), impl->containersUsed.end(), e.container) == impl->containersUsed.end())
      impl->containersUsed.push_back(e.container);
  try {
    impl->misses = MissModel::build(contexts, model, config);
  } catch (const std::exception& e) {
    impl->missReason = std::string("no miss model: ") + e.what();
  }
  ScaleFormulas f;
  f.impl_ = std::move(impl);
  return f;
}

std::optional<double> ScaleFormulas::evaluate(std::size_t group, ScaleMetric metric, const std::map<std::string, std::int64_t>& values,
                                              std::string* why) const {
  if (!impl_) return std::nullopt;
  if (auto level = missLevel(metric, impl_->config)) return impl_->missesOf(group, *level, values, why);
  if (group >= impl_->counts.size()) {
    say(why, impl_->countReason);
    return std::nullopt;
  }
  const trace::CountRecord& r = impl_->counts[group];
  const trace::CountFormula& f = metric == ScaleMetric::Accesses ? r.executions : metric == ScaleMetric::Bytes ? r.bytes : r.lines;
  if (!f.available || !f.exact) {
    say(why, f.reason.empty() ? "no exact formula" : f.reason);
    return std::nullopt;
  }
  auto value = f.evaluate(values);
  if (!value) {
    say(why, "the formula has no value here (a parameter without a value, or a count beyond 2^62)");
    return std::nullopt;
  }
  return metric == ScaleMetric::Footprint ? static_cast<double>(*value) * static_cast<double>(impl_->lineBytes) : static_cast<double>(*value);
}

bool ScaleFormulas::hasFormula(std::size_t group, ScaleMetric metric) const {
  if (!impl_ || missLevel(metric, impl_->config) || group >= impl_->counts.size()) return false;
  const trace::CountRecord& r = impl_->counts[group];
  const trace::CountFormula& f = metric == ScaleMetric::Accesses ? r.executions : metric == ScaleMetric::Bytes ? r.bytes : r.lines;
  return f.available && f.exact;
}

namespace {

/* The parameter bound to every value but "parameter": what the miss model's scans hold fixed. */
std::map<std::string, std::int64_t> others(const std::string& parameter, std::map<std::string, std::int64_t> values) {
  values.erase(parameter);
  return values;
}

}  // namespace

std::vector<std::string> ScaleFormulas::breakpoints(const std::string& parameter, std::int64_t lo, std::int64_t hi,
                                                    const std::map<std::string, std::int64_t>& values) const {
  std::vector<std::string> out;
  if (!impl_ || !impl_->misses) return out;
  for (const auto& b : impl_->misses->breakpoints(parameter, lo, hi, others(parameter, values)))
    out.push_back(parameter + " = " + std::to_string(b.value) + ": " + b.description);
  return out;
}

std::vector<std::string> ScaleFormulas::resonances(const std::string& parameter, std::int64_t lo, std::int64_t hi,
                                                   const std::map<std::string, std::int64_t>& values) const {
  std::vector<std::string> out;
  if (!impl_ || !impl_->misses) return out;
  for (const auto& r : impl_->misses->resonances(parameter, lo, hi, others(parameter, values)))
    out.push_back(parameter + " = " + std::to_string(r.value) + ": " + r.description + (r.padding.empty() ? "" : "; " + r.padding));
  return out;
}

}  // namespace cats::sim
