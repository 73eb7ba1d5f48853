// `fusion` findings (docs/review.md): adjacent loops over the same containers, too large for
// the first level, that would read them once if they ran as one loop.
#include "review_findings.hpp"

#include "tracer/fusion.hpp"

#include <fmt/format.h>

#include <set>

namespace cats::driver {

namespace {

/* What the shared bytes are to the hierarchy: which level they overflow, hence where the
   second loop finds them again. */
std::string capacityText(std::int64_t bytes, const cache::HierarchyConfig& h) {
  const cache::LevelConfig& first = h.levels.front();
  const cache::LevelConfig& last = h.levels.back();
  const auto size = static_cast<std::uint64_t>(bytes);
  if (size > last.sizeBytes)
    return fmt::format("{} bytes, more than the {} bytes of {}: the second loop reads them from memory again", bytes, last.sizeBytes, last.name);
  return fmt::format("{} bytes, more than the {} bytes of {}: the second loop reads them from {} again", bytes, first.sizeBytes, first.name,
                     h.levels.size() > 1 ? h.levels[1].name : "memory");
}

report::Finding fusionFinding(const trace::FusionCandidate& c, const cache::HierarchyConfig& h) {
  report::Finding f = findingAt("fusion", c.function, c.firstLoc);
  f.message = fmt::format("loops {} (line {}) and {} (line {}) run one after the other over {} ({})", c.firstIterator, c.firstLoc.line,
                          c.secondIterator, c.secondLoc.line, quotedList(c.shared),
                          c.sharedBytes ? capacityText(*c.sharedBytes, h) : "their size is not a number with the bindings given");
  appendVerdict(f, c.legal, c.legality, c.notEvaluated);
  return f;
}

}  // namespace

/* Every candidate over containers larger than the first level simulated fused, kept when the
   variant saves D1 misses (or could not be evaluated, unless it is illegal anyway); the
   recommendation only for a legal one.
   A pair of loops in a function called from several places is reported once, for its first
   calling context. */
std::vector<report::Finding> fusionFindings(const ReviewInput& in) {
  const cache::HierarchyConfig& hierarchy = in.configs.front();
  const std::vector<trace::FusionCandidate> candidates =
      trace::findFusions(in.run.contexts, in.modelContexts, in.deps, in.run.concretize.bindings);
  std::vector<report::Finding> out;
  std::set<std::string> reported;  // the loops' places
  for (const trace::FusionCandidate& c : candidates) {
    if (c.sharedBytes && static_cast<std::uint64_t>(*c.sharedBytes) <= hierarchy.levels.front().sizeBytes) continue;  // the second loop hits
    if (!reported.insert(c.firstLoc.str() + "+" + c.secondLoc.str()).second) continue;
    if (!c.notEvaluated.empty() && c.legal == false) continue;  // neither recommended nor predicted: nothing to say
    report::Finding f = fusionFinding(c, hierarchy);
    if (c.notEvaluated.empty()) {
      if (!predictGain(f, in, *trace::fused(in.run.contexts, c.first, c.second))) continue;  // no gain: nothing to say
      if (c.legal.value_or(false))
        f.recommendation = fmt::format("fuse the loops of lines {} and {}: run the body of the second after the body of the first in one loop",
                                       c.firstLoc.line, c.secondLoc.line);
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace cats::driver
