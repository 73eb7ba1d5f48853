// The records of per-set misses, cross-context reuse and traffic between levels, from a
// simulation's result (the counts the cache core kept) and the trace's calling contexts.
#include "reports/simulation_observations.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace cats::report {

namespace {

/* The summary of "misses" (per set index) of level "level". */
SetMissHistogram histogramOf(const std::string& level, const std::vector<std::uint64_t>& misses) {
  SetMissHistogram h;
  h.level = level;
  h.misses = misses;
  const std::size_t sets = misses.size();
  h.total = std::accumulate(misses.begin(), misses.end(), std::uint64_t{0});
  h.setsWithMisses = static_cast<std::uint64_t>(std::count_if(misses.begin(), misses.end(), [](std::uint64_t m) { return m != 0; }));
  h.max = sets == 0 ? 0 : *std::max_element(misses.begin(), misses.end());
  h.mean = sets == 0 ? 0.0 : static_cast<double>(h.total) / static_cast<double>(sets);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> ranked;
  for (std::size_t s = 0; s < sets; ++s)
    if (misses[s] != 0) ranked.emplace_back(s, misses[s]);
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  ranked.resize(std::min(ranked.size(), SetMissHistogram::kTopSets));
  h.top = std::move(ranked);
  const std::size_t bands = std::min(sets, SetMissHistogram::kBands);
  h.bands.assign(bands, 0);
  for (std::size_t b = 0; b < bands; ++b)
    for (std::size_t s = b * sets / bands; s < (b + 1) * sets / bands; ++s) h.bands[b] += misses[s];
  return h;
}

/* Every calling context of "trace" by name, and each event's index among them (an allocation's
   records, calloc's zeroing, belong to its context too). */
struct Contexts {
  std::vector<std::string> names;    // sorted
  std::vector<std::size_t> ofEvent;  // by trace event
};

Contexts contextsOf(const trace::Trace& trace) {
  Contexts c;
  std::vector<std::string> byEvent(trace.events.size());
  for (std::size_t e = 0; e < trace.events.size(); ++e) byEvent[e] = groupName(trace, e, GroupBy::Context);
  c.names = byEvent;
  std::sort(c.names.begin(), c.names.end());
  c.names.erase(std::unique(c.names.begin(), c.names.end()), c.names.end());
  c.ofEvent.resize(byEvent.size());
  for (std::size_t e = 0; e < byEvent.size(); ++e)
    c.ofEvent[e] = static_cast<std::size_t>(std::lower_bound(c.names.begin(), c.names.end(), byEvent[e]) - c.names.begin());
  return c;
}

/* The matrix of level "level" from the core's counts by (filler event, hitter event). */
ReuseMatrix matrixOf(const std::string& level, const std::vector<cache::ReuseCount>& counts, const Contexts& contexts) {
  constexpr std::size_t kUnknown = ~std::size_t{0};
  ReuseMatrix m;
  m.level = level;
  std::map<std::pair<std::size_t, std::size_t>, std::uint64_t> byContext;  // (filler or kUnknown, hitter) -> hits
  std::vector<std::uint64_t> activity(contexts.names.size(), 0);
  for (const cache::ReuseCount& c : counts) {
    if (c.hitter >= contexts.ofEvent.size()) continue;  // the dynamic loader's own hits (lazy binding): not the program's
    const bool known = c.filler != cache::ReuseCount::kUnknownFiller && c.filler < contexts.ofEvent.size();
    const std::size_t filler = known ? contexts.ofEvent[c.filler] : kUnknown;
    const std::size_t hitter = contexts.ofEvent.at(c.hitter);
    byContext[{filler, hitter}] += c.hits;
    m.total += c.hits;
    activity[hitter] += c.hits;
    if (!known) continue;
    activity[filler] += c.hits;
    (filler == hitter ? m.sameContext : m.crossContext) += c.hits;
  }
  std::vector<std::size_t> ranked;
  for (std::size_t i = 0; i < activity.size(); ++i)
    if (activity[i] != 0) ranked.push_back(i);
  std::stable_sort(ranked.begin(), ranked.end(), [&activity](std::size_t a, std::size_t b) { return activity[a] > activity[b]; });
  const bool folded = ranked.size() > ReuseMatrix::kTopContexts;
  ranked.resize(std::min(ranked.size(), ReuseMatrix::kTopContexts));
  std::vector<std::size_t> row(contexts.names.size(), ranked.size());  // context -> row; folded ones share the "other" row
  for (std::size_t r = 0; r < ranked.size(); ++r) {
    row[ranked[r]] = r;
    m.contexts.push_back(contexts.names[ranked[r]]);
  }
  if (folded) m.contexts.emplace_back("(other contexts)");
  const bool unknown = std::any_of(byContext.begin(), byContext.end(), [](const auto& entry) { return entry.first.first == kUnknown; });
  const std::size_t unknownRow = m.contexts.size();
  if (unknown) m.contexts.emplace_back("(unknown)");
  m.hits.assign(m.contexts.size(), std::vector<std::uint64_t>(m.contexts.size(), 0));
  for (const auto& [key, hits] : byContext) m.hits[key.first == kUnknown ? unknownRow : row[key.first]][row[key.second]] += hits;
  return m;
}

/* The traffic across the boundary below each level of "in". */
std::vector<LevelTraffic> trafficOf(const SimulationReportInput& in) {
  std::vector<LevelTraffic> out;
  const auto& r = in.result;
  for (std::size_t k = 0; k < r.levelStats.size() && k < in.config.levels.size(); ++k) {
    const cache::LevelStats& s = r.levelStats[k];
    LevelTraffic t;
    t.upper = in.config.levels[k].name;
    t.lower = k + 1 < in.config.levels.size() ? in.config.levels[k + 1].name : "memory";
    t.fillBytes = s.bytesFromBelow;
    t.downBytes = s.bytesToBelow;
    t.writebacks = s.writebacks;
    t.writebackBytes = s.writebacks * in.config.levels[k].lineBytes;
    t.otherDownBytes = t.downBytes - std::min(t.downBytes, t.writebackBytes);
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace

SimulationObservations observationsOf(const SimulationReportInput& in) {
  SimulationObservations out;
  const auto& r = in.result;
  for (std::size_t k = 0; k < r.setMisses.size() && k < r.levels.size(); ++k)
    out.setMisses.push_back(histogramOf(r.levels[k], r.setMisses[k]));
  if (!r.reuse.empty()) {
    const Contexts contexts = contextsOf(in.trace);
    for (std::size_t k = 0; k < r.reuse.size() && k < r.levels.size(); ++k)
      out.reuse.push_back(matrixOf(r.levels[k], r.reuse[k], contexts));
  }
  if (in.traffic) out.traffic = trafficOf(in);
  return out;
}

}  // namespace cats::report
