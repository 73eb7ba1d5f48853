// The predicted side of `scale`: formulas derived once from the trace, evaluated per point
// (sim/scale.hpp). Counts come from the polyhedral model and the counting formulas, misses from
// the miss model; what they do not cover is left to per-point counting.
#include "sim/scale.hpp"

namespace cats::sim {

struct ScaleFormulas::Impl {
  std::string reason;  // why no formula exists at all
};

ScaleFormulas ScaleFormulas::derive(const trace::Trace&, const std::vector<ScaleGroup>&, const std::vector<ScaleMetric>&,
                                    const cache::HierarchyConfig&) {
  ScaleFormulas f;
  auto impl = std::make_shared<Impl>();
  impl->reason = "no formula (the polyhedral model is not available in this build)";
  f.impl_ = impl;
  return f;
}

std::optional<double> ScaleFormulas::evaluate(std::size_t, ScaleMetric, const std::map<std::string, std::int64_t>&, std::string* why) const {
  if (why && impl_) *why = impl_->reason;
  return std::nullopt;
}

std::vector<std::string> ScaleFormulas::breakpoints(const std::string&, std::int64_t, std::int64_t,
                                                    const std::map<std::string, std::int64_t>&) const {
  return {};
}

std::vector<std::string> ScaleFormulas::resonances(const std::string&, std::int64_t, std::int64_t,
                                                   const std::map<std::string, std::int64_t>&) const {
  return {};
}

}  // namespace cats::sim
