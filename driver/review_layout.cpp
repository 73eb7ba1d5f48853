// `layout` findings (docs/review.md): an array of structs walked by a loop that uses few of
// each element's bytes, so most of every line it fetches is other fields.
#include "review_findings.hpp"

#include "tracer/layout.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace cats::driver {

namespace {

std::string message(const trace::LayoutCandidate& c) {
  return fmt::format("loop {} walks '{}' ({}, {} bytes) using {} of its {} fields ({}: {} of {} bytes of each element): {:.1f} bytes used "
                     "per {}-byte line fetched",
                     c.iterator, c.name, c.elementType, c.elementBytes, c.fieldsUsed.size(), c.fieldCount, fmt::join(c.fieldsUsed, ", "),
                     c.bytesUsed, c.elementBytes, c.bytesPerLine(), c.lineBytes);
}

}  // namespace

/* Each split variant simulated, kept when it saves D1 misses (or could not be evaluated). A
   new layout reorders no access, so it is legal whenever every access can be re-addressed;
   the recommendation names the fields the loop keeps. */
std::vector<report::Finding> layoutFindings(const ReviewInput& in) {
  std::vector<report::Finding> out;
  for (const trace::LayoutCandidate& c : trace::findLayouts(in.run.contexts, in.run.concretize.bindings, in.lineBytes())) {
    report::Finding f = findingAt("layout", c.function, c.loc);
    f.message = message(c);
    if (!c.notEvaluated.empty()) {
      f.message += fmt::format("; not evaluated: {}", c.notEvaluated);
      out.push_back(std::move(f));
      continue;
    }
    f.legal = true;
    if (!predictGain(f, in, *trace::split(in.run.contexts, c.container))) continue;  // no gain: nothing to say
    const std::string alternative =
        c.fieldsUsed.size() > 1 ? fmt::format(" (or move {} into a struct of their own)", fmt::join(c.fieldsUsed, ", ")) : std::string();
    f.recommendation = fmt::format("split '{}' into a structure of arrays, one array per field, so that loop {} reads only the arrays of {}{}; "
                                   "code that copies whole elements or uses sizeof({}) must change with it",
                                   c.name, c.iterator, fmt::join(c.fieldsUsed, ", "), alternative, c.elementType);
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace cats::driver
