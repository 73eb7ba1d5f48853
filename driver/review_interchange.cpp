// `interchange` findings (docs/review.md): a band whose innermost loop walks a container by a
// line or more per iteration where another loop of the band walks it by its elements.
#include "review_findings.hpp"

#include "tracer/interchange.hpp"

#include <fmt/format.h>

#include <limits>
#include <map>

namespace cats::driver {

namespace {

report::Finding interchangeFinding(const trace::InterchangeCandidate& c) {
  report::Finding f;
  f.kind = "interchange";
  f.function = c.function;
  f.file = c.loc.file;
  f.line = static_cast<int>(c.loc.line);
  f.legal = c.legal;
  f.message = fmt::format("loop {} walks '{}' ({}) {} bytes per iteration; with loop {} innermost it moves {} bytes", c.innerIterator,
                          c.container, c.access, c.strideBefore, c.outerIterator, c.strideAfter);
  if (!c.legal.value_or(true)) f.message += fmt::format("; the interchange is illegal: {}", c.legality);
  else if (!c.legal) f.message += fmt::format("; legality unknown: {}", c.legality);
  if (!c.notEvaluated.empty()) f.message += fmt::format("; not evaluated: {}", c.notEvaluated);
  return f;
}

}  // namespace

/* Every candidate simulated, the best variant per loop kept when it saves D1 misses (or could
   not be evaluated); the recommendation only for a legal one. */
std::vector<report::Finding> interchangeFindings(const ReviewInput& in) {
  const std::vector<trace::InterchangeCandidate> candidates =
      trace::findInterchanges(in.run.contexts, in.modelContexts, in.deps, in.run.concretize.bindings, in.lineBytes);
  std::vector<report::Finding> out;
  std::vector<std::uint64_t> missesAfter;     // D1 misses of out[i]'s variant
  std::map<std::string, std::size_t> byLoop;  // the loop's place -> its finding in "out"
  for (const trace::InterchangeCandidate& c : candidates) {
    report::Finding f = interchangeFinding(c);
    if (c.notEvaluated.empty()) {
      if (!predictGain(f, in, *trace::interchanged(in.run.contexts, c.outer, c.inner))) continue;  // no gain: nothing to say
      if (c.legal.value_or(false)) {
        f.fix = report::SourceFix{report::SourceFix::Kind::SwapLoopHeaders, in.run.contexts.scopes[c.outer].loc, c.loc, 0};
        f.recommendation = fmt::format("interchange loops {} and {} (line {}) so that {} is innermost", c.outerIterator, c.innerIterator,
                                       c.loc.line, c.outerIterator);
      }
    }
    std::uint64_t misses = f.predicted.empty() ? std::numeric_limits<std::uint64_t>::max() : f.predicted.front().after;
    auto [found, isNew] = byLoop.try_emplace(c.loc.str(), out.size());
    if (isNew) {
      out.push_back(std::move(f));
      missesAfter.push_back(misses);
    } else if (misses < missesAfter[found->second]) {
      out[found->second] = std::move(f);
      missesAfter[found->second] = misses;
    }
  }
  return out;
}

}  // namespace cats::driver
