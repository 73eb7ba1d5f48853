// `indirect` findings (docs/review.md): gathers through an index array whose simulated
// misses are a large part of the program's and which use little of each line they fetch.
#include "review_findings.hpp"

#include "tracer/indirect.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace cats::driver {

namespace {

// A gather is worth a finding when it makes this share of the program's first-level misses ...
constexpr double kMinShare = 0.05;
// ... and uses less than this fraction of each line it brings in. Its misses must also be more
// than the first level holds lines: fewer are no more than one fill of the cache, whatever the
// order (a small program's few cold misses are not a finding).
constexpr double kMaxLineUse = 0.5;

/* The indirect accesses of "t" that reach the first level (event indices). */
std::vector<std::size_t> indirectAccesses(const trace::Trace& t, const sim::SimulationResult& result) {
  std::vector<std::size_t> out;
  for (std::size_t e = 0; e < t.events.size() && e < result.byEvent.size(); ++e) {
    const trace::Event& ev = t.events[e];
    if (ev.kind == trace::EventKind::Access && ev.classification.kind == trace::AccessClass::Indirect && !result.byEvent[e].empty()) out.push_back(e);
  }
  return out;
}

}  // namespace

/* Every source access that gathers (all its calling contexts together) with many first-level
   misses and poor line use; the variant with its indices sorted in every context simulated,
   kept when it saves D1 misses. The prediction is approximate (the index values are drawn),
   sorting is the programmer's call. */
std::vector<report::Finding> indirectFindings(const ReviewInput& in) {
  std::vector<report::Finding> out;
  const trace::Trace& t = in.run.contexts;
  const sim::SimulationResult& result = in.run.results.front();
  const std::uint64_t total = result.totals.empty() ? 0 : result.totals.front().misses();
  if (total == 0) return out;
  const std::vector<std::size_t> gathers = indirectAccesses(t, result);
  auto sourceAccess = [&](std::size_t e) { return t.events[e].loc.str() + "|" + t.events[e].text; };
  for (const std::vector<const std::size_t*>& group : groupedBy(gathers, sourceAccess)) {
    std::uint64_t misses = 0, accesses = 0;
    for (const std::size_t* e : group) {
      misses += result.byEvent[*e].front().misses();
      accesses += result.byEvent[*e].front().accesses();
    }
    const trace::Event& ev = t.events[*group.front()];
    if (misses == 0) continue;
    const double share = static_cast<double>(misses) / static_cast<double>(total);
    const double bytesPerLine = static_cast<double>(accesses) * static_cast<double>(ev.bytes) / static_cast<double>(misses);
    const std::uint64_t firstLevelLines = in.configs.front().levels.front().sizeBytes / static_cast<std::uint64_t>(std::max<std::int64_t>(in.lineBytes(), 1));
    if (share < kMinShare || bytesPerLine >= kMaxLineUse * static_cast<double>(in.lineBytes()) || misses <= firstLevelLines) continue;
    report::Finding f = findingAt("indirect", t.functionOf(ev.scope), ev.loc);
    f.message = fmt::format("{} gathers '{}' through {}: {} {} misses ({:.1f} % of the program's), {:.1f} bytes used per {}-byte line "
                            "fetched; approximate: the index values are not known before running, the simulator drew them at random "
                            "over '{}' (one draw per index and iteration, --seed)",
                            ev.text, t.containers[ev.container].name, quotedList(ev.classification.indirectVia), misses,
                            in.configs.front().levels.front().name, 100.0 * share, bytesPerLine, in.lineBytes(),
                            t.containers[ev.container].name);
    if (group.size() > 1) f.message += fmt::format(" (the access runs in {} calling contexts, counted together)", group.size());
    std::string why;
    std::optional<trace::Trace> variant = t;
    for (const std::size_t* e : group)
      if (variant) variant = trace::sortedGather(*variant, *e, &why);  // offsets change in place: the other events keep their indices
    if (variant) {
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
