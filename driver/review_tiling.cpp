// `tiling` findings (docs/review.md): a band that reuses a container across an outer loop
// while one iteration of that loop touches more lines than the first level holds.
#include "review_findings.hpp"

#include "tracer/tiling.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <optional>

namespace cats::driver {

namespace {

/* "i and j" for the tiled loops of "sizes" (0: not tiled), "32 x 32" for their sizes. */
std::pair<std::string, std::string> tileText(const trace::TilingCandidate& c, const std::vector<std::int64_t>& sizes) {
  std::vector<std::string> loops, tiles;
  for (std::size_t m = 0; m < sizes.size(); ++m) {
    if (sizes[m] <= 0) continue;
    loops.push_back(c.iterators[m]);
    tiles.push_back(std::to_string(sizes[m]));
  }
  if (loops.empty()) return {"no loop", "nothing"};
  std::string last = loops.back();
  loops.pop_back();
  std::string names = loops.empty() ? last : fmt::format("{} and {}", fmt::join(loops, ", "), last);
  return {names, fmt::format("{}", fmt::join(tiles, " x "))};
}

report::Finding tilingFinding(const trace::TilingCandidate& c, const std::string& level, std::int64_t lineBytes) {
  report::Finding f = findingAt("tiling", c.function, c.loc);
  const std::string carrier = c.iterators[c.carrier];
  const std::string reuse = c.reuseBytes == 0 ? "the same bytes" : fmt::format("bytes {} further on", c.reuseBytes);
  f.message = fmt::format("the next iteration of loop {} uses '{}' ({}) again at {}, but one iteration of loop {} touches {} lines "
                          "({} bytes) of the band's data, more than {} holds ({} lines, {} bytes): they are evicted before the reuse",
                          carrier, c.container, c.access, reuse, carrier, c.footprintLines, c.footprintLines * lineBytes, level,
                          c.capacityLines, c.capacityLines * lineBytes);
  appendVerdict(f, c.legal, c.legality, c.notEvaluated);
  return f;
}

}  // namespace

/* Every candidate's tile sizes (chosen for the first level, halved and doubled) simulated, the
   band tiled in every calling context; the best kept when it saves D1 misses (or the band could not be tiled); the recommendation,
   naming the loops and the sizes, only for a legal tiling. */
std::vector<report::Finding> tilingFindings(const ReviewInput& in) {
  const cache::LevelConfig& first = in.configs.front().levels.front();
  const auto capacity = static_cast<std::int64_t>(first.sizeBytes);
  const std::map<std::string, std::int64_t>& bindings = in.run.concretize.bindings;
  std::vector<report::Finding> out;
  for (const trace::TilingCandidate& c : trace::findTilings(in.run.contexts, in.modelContexts, in.deps, bindings, in.lineBytes(), capacity)) {
    report::Finding f = tilingFinding(c, first.name, in.lineBytes());
    noteContexts(f, c.contextBands.size());
    if (!c.notEvaluated.empty()) {
      out.push_back(std::move(f));
      continue;
    }
    const std::vector<std::vector<std::int64_t>> candidates = trace::tileSizeCandidates(in.run.contexts, c, bindings, in.lineBytes(), capacity);
    std::optional<report::Finding> best;
    std::vector<std::int64_t> bestSizes;
    for (const std::vector<std::int64_t>& sizes : candidates) {
      std::optional<trace::Trace> variant = in.run.contexts;  // tile loops are added after the others: every band keeps its ids
      for (const std::vector<std::size_t>& band : c.contextBands)
        if (variant) variant = trace::tiled(*variant, band, sizes);
      report::Finding trial = f;
      if (!variant || !predictGain(trial, in, *variant)) continue;
      if (!best || trial.predicted.front().after < best->predicted.front().after) {
        best = std::move(trial);
        bestSizes = sizes;
      }
    }
    if (!best) continue;  // no tile size saves anything: nothing to say
    auto [loops, tiles] = tileText(c, bestSizes);
    const std::string chosenTiles = tileText(c, candidates.front()).second;
    best->message += fmt::format("; tiles of {} by {} simulated best (sized for {}: {} fits half of it in {} lines; half and twice that tried)",
                                 loops, tiles, first.name, chosenTiles,
                                 trace::tileFootprintLines(in.run.contexts, c, candidates.front(), bindings, in.lineBytes()));
    best->sizes = capacitySizes(in, c.container);
    if (best->legal.value_or(false))
      best->recommendation = fmt::format("tile loops {} (line {}) by {}: strip-mine each into tiles of that many iterations and move the "
                                         "tile loops outermost",
                                         loops, c.loc.line, tiles);
    out.push_back(std::move(*best));
  }
  return out;
}

}  // namespace cats::driver
