// `indirect` findings (docs/review.md): gathers through an index array whose simulated
// misses are a large part of the program's and which use little of each line they fetch.
#include "review_findings.hpp"

#include "tracer/indirect.hpp"

#include <fmt/format.h>

#include <set>

namespace cats::driver {

namespace {

// A gather is worth a finding when it makes this share of the program's first-level misses ...
constexpr double kMinShare = 0.05;
// ... and uses less than this fraction of each line it brings in.
constexpr double kMaxLineUse = 0.5;

}  // namespace

/* Every indirect access (once per source access) with many first-level misses and poor line
   use; the variant with its indices sorted simulated, kept when it saves D1 misses. The
   prediction is approximate (the index values are drawn), sorting is the programmer's call. */
std::vector<report::Finding> indirectFindings(const ReviewInput& in) {
  std::vector<report::Finding> out;
  const trace::Trace& t = in.run.contexts;
  const sim::SimulationResult& result = in.run.results.front();
  const std::uint64_t total = result.totals.empty() ? 0 : result.totals.front().misses();
  std::set<std::string> seen;
  for (std::size_t e = 0; e < t.events.size() && e < result.byEvent.size() && total > 0; ++e) {
    const trace::Event& ev = t.events[e];
    if (ev.kind != trace::EventKind::Access || ev.classification.kind != trace::AccessClass::Indirect || result.byEvent[e].empty()) continue;
    const sim::LevelCounts& d1 = result.byEvent[e].front();
    if (d1.misses() == 0) continue;
    const double share = static_cast<double>(d1.misses()) / static_cast<double>(total);
    const double bytesPerLine = static_cast<double>(d1.accesses()) * static_cast<double>(ev.bytes) / static_cast<double>(d1.misses());
    if (share < kMinShare || bytesPerLine >= kMaxLineUse * static_cast<double>(in.lineBytes())) continue;
    if (!seen.insert(ev.loc.str() + "|" + ev.text).second) continue;
    report::Finding f = findingAt("indirect", t.functionOf(ev.scope), ev.loc);
    f.message = fmt::format("{} gathers '{}' through {}: {} {} misses ({:.1f} % of the program's), {:.1f} bytes used per {}-byte line "
                            "fetched; approximate: the index values are not known before running, the simulator drew them at random "
                            "over '{}' (one draw per index and iteration, --seed)",
                            ev.text, t.containers[ev.container].name, quotedList(ev.classification.indirectVia), d1.misses(),
                            in.configs.front().levels.front().name, 100.0 * share, bytesPerLine, in.lineBytes(),
                            t.containers[ev.container].name);
    std::string why;
    if (auto variant = trace::sortedGather(t, e, &why)) {
      if (!predictGain(f, in, *variant)) continue;  // even sorted, nothing to save
      f.message += fmt::format("; the \"after\" assumes fully sorted indices ('{}' visited in order)", t.containers[ev.container].name);
    } else {
      f.message += fmt::format("; not evaluated: {}", why);
    }
    f.message += "; sort the indices, or block the gather so that each block touches a part that fits in the cache, if the "
                 "order of the visits may change (floating-point sums round differently)";
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace cats::driver
