#include "review_findings.hpp"

namespace cats::driver {

bool predictGain(report::Finding& f, const ReviewInput& in, const trace::Trace& variant) {
  std::vector<sim::SimulationResult> after = simulateVariant(in.run, variant, in.configs);
  const sim::SimulationResult& before = in.run.results.front();
  f.predicted.clear();
  for (std::size_t k = 0; k < before.levels.size() && k < after.front().totals.size(); ++k)
    f.predicted.push_back({before.levels[k], before.totals[k].misses(), after.front().totals[k].misses()});
  return !f.predicted.empty() && f.predicted.front().after < f.predicted.front().before;
}

std::vector<ReviewFinder> reviewFinders() { return {interchangeFindings, paddingFindings, falseSharingFindings}; }

}  // namespace cats::driver
