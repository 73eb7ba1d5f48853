#include "review_findings.hpp"

#include <fmt/format.h>

#include <iterator>

namespace cats::driver {

namespace {

/* Simulates "variant" like the program and fills f.predicted; the variant's result. */
sim::SimulationResult fillPredicted(report::Finding& f, const ReviewInput& in, const trace::Trace& variant) {
  sim::SimulationResult after = std::move(simulateVariant(in.run, variant, in.configs).front());
  const sim::SimulationResult& before = in.run.results.front();
  f.predicted.clear();
  for (std::size_t k = 0; k < before.levels.size() && k < after.totals.size(); ++k)
    f.predicted.push_back({before.levels[k], before.totals[k].misses(), after.totals[k].misses()});
  return after;
}

}  // namespace

bool predictGain(report::Finding& f, const ReviewInput& in, const trace::Trace& variant) {
  fillPredicted(f, in, variant);
  return !f.predicted.empty() && f.predicted.front().after < f.predicted.front().before;
}

bool predictAccessGain(report::Finding& f, const ReviewInput& in, const trace::Trace& variant) {
  const sim::SimulationResult after = fillPredicted(f, in, variant);
  f.accesses.reset();
  if (f.predicted.empty()) return false;
  const sim::SimulationResult& before = in.run.results.front();
  f.accesses = report::PredictedMisses{before.levels.front(), before.totals.front().accesses(), after.totals.front().accesses()};
  return f.predicted.front().after < f.predicted.front().before || f.accesses->after < f.accesses->before;
}

report::Finding findingAt(std::string kind, std::string function, const ir::SourceLoc& loc) {
  report::Finding f;
  f.kind = std::move(kind);
  f.function = std::move(function);
  f.file = loc.file;
  f.line = static_cast<int>(loc.line);
  return f;
}

void appendVerdict(report::Finding& f, const std::optional<bool>& legal, const std::string& why, const std::string& notEvaluated) {
  f.legal = legal;
  if (!legal.value_or(true)) f.message += fmt::format("; the {} is illegal: {}", f.kind, why);
  else if (!legal) f.message += fmt::format("; legality unknown: {}", why);
  if (!notEvaluated.empty()) f.message += fmt::format("; not evaluated: {}", notEvaluated);
}

std::string quotedList(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "'" : ", '") + n + "'";
  return out;
}

void noteContexts(report::Finding& f, std::size_t contexts) {
  if (contexts > 1) f.message += fmt::format("; the loops run in {} calling contexts, all changed by the fix", contexts);
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
