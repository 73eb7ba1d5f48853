// `fusion` findings (docs/review.md): adjacent loops over the same containers, too large for
// the first level, that would read them once if they ran as one loop.
#include "review_findings.hpp"

#include "tracer/fusion.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

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

report::Finding fusionFinding(const trace::FusionCandidate& c, const GroupVerdict& verdict, const cache::HierarchyConfig& h) {
  report::Finding f = findingAt("fusion", c.function, c.firstLoc);
  f.message = fmt::format("loops {} (line {}) and {} (line {}) run one after the other over {} ({})", c.firstIterator, c.firstLoc.line,
                          c.secondIterator, c.secondLoc.line, quotedList(c.shared),
                          c.sharedBytes ? capacityText(*c.sharedBytes, h) : "their size is not a number with the bindings given");
  appendVerdict(f, verdict.legal, verdict.legality, verdict.notEvaluated);
  return f;
}

/* The variant with every member of "group" fused, the last context first: fusing erases the
   second loop's scope, which renumbers only the scopes after it. */
std::optional<trace::Trace> fusedAll(const trace::Trace& contexts, std::vector<const trace::FusionCandidate*> group) {
  std::sort(group.begin(), group.end(), [](const auto* a, const auto* b) { return a->first > b->first; });
  std::optional<trace::Trace> variant = contexts;
  for (const trace::FusionCandidate* member : group)
    if (variant) variant = trace::fused(*variant, member->first, member->second);
  return variant;
}

}  // namespace

/* Every candidate over containers larger than the first level simulated fused (the same source
   loops in all their calling contexts at once), kept when the variant saves D1 misses (or could
   not be evaluated, unless it is illegal anyway); the recommendation only for a legal one. */
std::vector<report::Finding> fusionFindings(const ReviewInput& in) {
  const cache::HierarchyConfig& hierarchy = in.configs.front();
  const std::vector<trace::FusionCandidate> candidates =
      trace::findFusions(in.run.contexts, in.modelContexts, in.deps, in.run.concretize.bindings);
  std::vector<report::Finding> out;
  auto sourceLoops = [](const trace::FusionCandidate& c) { return c.firstLoc.str() + "+" + c.secondLoc.str(); };
  for (const auto& group : groupedBy(candidates, sourceLoops)) {
    const trace::FusionCandidate& c = *group.front();
    if (c.sharedBytes && static_cast<std::uint64_t>(*c.sharedBytes) <= hierarchy.levels.front().sizeBytes) continue;  // the second loop hits
    const GroupVerdict verdict = verdictOf(group);
    if (!verdict.notEvaluated.empty() && verdict.legal == false) continue;  // neither recommended nor predicted: nothing to say
    report::Finding f = fusionFinding(c, verdict, hierarchy);
    noteContexts(f, group.size());
    if (verdict.notEvaluated.empty()) {
      std::optional<trace::Trace> variant = fusedAll(in.run.contexts, group);
      if (!variant || !predictGain(f, in, *variant)) continue;  // no gain: nothing to say
      if (verdict.legal.value_or(false))
        f.recommendation = fmt::format("fuse the loops of lines {} and {}: run the body of the second after the body of the first in one loop",
                                       c.firstLoc.line, c.secondLoc.line);
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace cats::driver
