#include "review_findings.hpp"

#include <iterator>

namespace cats::driver {

bool predictGain(report::Finding& f, const ReviewInput& in, const trace::Trace& variant) {
  std::vector<sim::SimulationResult> after = simulateVariant(in.run, variant, in.configs);
  const sim::SimulationResult& before = in.run.results.front();
  f.predicted.clear();
  for (std::size_t k = 0; k < before.levels.size() && k < after.front().totals.size(); ++k)
    f.predicted.push_back({before.levels[k], before.totals[k].misses(), after.front().totals[k].misses()});
  return !f.predicted.empty() && f.predicted.front().after < f.predicted.front().before;
}

bool predictAccessGain(report::Finding& f, const ReviewInput& in, const trace::Trace& variant) {
  std::vector<sim::SimulationResult> after = simulateVariant(in.run, variant, in.configs);
  const sim::SimulationResult& before = in.run.results.front();
  f.predicted.clear();
  f.accesses.reset();
  for (std::size_t k = 0; k < before.levels.size() && k < after.front().totals.size(); ++k)
    f.predicted.push_back({before.levels[k], before.totals[k].misses(), after.front().totals[k].misses()});
  if (f.predicted.empty()) return false;
  f.accesses = report::PredictedMisses{before.levels.front(), before.totals.front().accesses(), after.front().totals.front().accesses()};
  return f.predicted.front().after < f.predicted.front().before || f.accesses->after < f.accesses->before;
}

std::vector<ReviewFinder> reviewFinders() { return {interchangeFindings, paddingFindings, fusionFindings, tilingFindings, layoutFindings, hoistingFindings, indirectFindings,
                                                   falseSharingFindings}; }

std::vector<report::Finding> reviewFindings(const ReviewInput& in) {
  std::vector<report::Finding> findings;
  for (ReviewFinder finder : reviewFinders()) {
    std::vector<report::Finding> found = finder(in);
    findings.insert(findings.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  }
  report::sortFindings(findings);
  return findings;
}

}  // namespace cats::driver
