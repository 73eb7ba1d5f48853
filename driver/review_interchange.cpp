// `interchange` findings (docs/review.md): a band whose innermost loop walks a container by a
// line or more per iteration where another loop of the band walks it by its elements.
#include "review_findings.hpp"

#include "tracer/interchange.hpp"

#include <fmt/format.h>

#include <limits>
#include <map>

namespace cats::driver {

namespace {

report::Finding interchangeFinding(const ReviewInput& in, const trace::InterchangeCandidate& c, const GroupVerdict& verdict) {
  report::Finding f = findingAt("interchange", c.function, c.loc);
  f.message = fmt::format("loop {} walks '{}' ({}) {} bytes per iteration; with loop {} innermost it moves {} bytes", c.innerIterator,
                          c.container, c.access, c.strideBefore, c.outerIterator, c.strideAfter);
  f.sizes = strideSizes(in, in.run.contexts.events[c.event], in.run.contexts.scopes[c.inner]);
  appendVerdict(f, verdict.legal, verdict.legality, verdict.notEvaluated);
  return f;
}

}  // namespace

/* Every candidate simulated (the same source loops in all their calling contexts at once, as
   the source fix changes them), the best variant per loop kept when it saves D1 misses (or could
   not be evaluated); the recommendation only for a legal one. */
std::vector<report::Finding> interchangeFindings(const ReviewInput& in) {
  const std::vector<trace::InterchangeCandidate> candidates =
      trace::findInterchanges(in.run.contexts, in.modelContexts, in.deps, in.run.concretize.bindings, in.lineBytes());
  // D1 misses of a finding's variant; an unevaluated one counts as worst.
  auto missesAfter = [](const report::Finding& f) {
    return f.predicted.empty() ? std::numeric_limits<std::uint64_t>::max() : f.predicted.front().after;
  };
  std::vector<report::Finding> out;
  std::map<std::string, std::size_t> byLoop;  // the loop's place -> its finding in "out"
  auto sourceLoops = [&](const trace::InterchangeCandidate& c) { return c.loc.str() + "|" + in.run.contexts.scopes[c.outer].loc.str(); };
  for (const auto& group : groupedBy(candidates, sourceLoops)) {
    const trace::InterchangeCandidate& c = *group.front();
    const GroupVerdict verdict = verdictOf(group);
    report::Finding f = interchangeFinding(in, c, verdict);
    noteContexts(f, group.size());
    if (verdict.notEvaluated.empty()) {
      std::optional<trace::Trace> variant = in.run.contexts;  // the loops swap descriptions: every context's scopes keep their ids
      for (const trace::InterchangeCandidate* member : group) variant = trace::interchanged(*variant, member->outer, member->inner);
      if (!variant || !predictGain(f, in, *variant)) continue;  // no gain: nothing to say
      if (verdict.legal.value_or(false)) {
        f.fix = report::SourceFix{report::SourceFix::Kind::SwapLoopHeaders, in.run.contexts.scopes[c.outer].loc, c.loc, 0};
        f.recommendation = fmt::format("interchange loops {} and {} (line {}) so that {} is innermost", c.outerIterator, c.innerIterator,
                                       c.loc.line, c.outerIterator);
      }
    }
    auto [found, isNew] = byLoop.try_emplace(c.loc.str(), out.size());
    if (isNew) out.push_back(std::move(f));
    else if (missesAfter(f) < missesAfter(out[found->second])) out[found->second] = std::move(f);
  }
  return out;
}

}  // namespace cats::driver
