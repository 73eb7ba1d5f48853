// `padding` findings (docs/review.md): an array walked down a column whose rows map its lines
// to few sets of the first level.
#include "review_findings.hpp"

#include "tracer/padding.hpp"

#include <fmt/format.h>

namespace cats::driver {

/* Each padded variant simulated, kept when it saves D1 misses (or could not be evaluated).
   Padding reorders nothing, so it is legal whenever every access can be re-addressed; the
   recommendation names the pad. */
std::vector<report::Finding> paddingFindings(const ReviewInput& in) {
  const std::vector<trace::PaddingCandidate> candidates =
      trace::findPaddings(in.run.contexts, in.run.concretize.bindings, in.lineBytes(), in.sets());
  std::vector<report::Finding> out;
  for (const trace::PaddingCandidate& c : candidates) {
    report::Finding f = findingAt("padding", c.function, c.loc);
    f.message = fmt::format("'{}' ({}) is walked down a column of rows {} bytes long: its lines fall in {} of the {} sets of {}", c.name,
                            c.access, c.rowBytes, c.setsTouched, c.sets, in.configs.front().levels.front().name);
    if (!c.notEvaluated.empty()) {
      f.message += fmt::format("; not evaluated: {}", c.notEvaluated);
      out.push_back(std::move(f));
      continue;
    }
    f.legal = true;
    f.sizes = resonanceSizes(in, c.name);
    if (!predictGain(f, in, *trace::padded(in.run.contexts, c.container, c.padElements))) continue;  // no gain: nothing to say
    f.recommendation = fmt::format("pad each row of '{}' by one cache line: {} more elements in its last dimension (unless code relies on "
                                   "the row length, as sizeof or pointer arithmetic across rows would)",
                                   c.name, c.padElements);
    f.fix = report::SourceFix{report::SourceFix::Kind::GrowLastDimension, in.run.contexts.containers[c.container].loc, {}, c.padElements};
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace cats::driver
