#include "tracer/tiling.hpp"

#include "band.hpp"
#include "tracer/strides.hpp"

#include <algorithm>
#include <cstdlib>

namespace cats::trace {

namespace {

constexpr std::int64_t kManyLines = std::int64_t{1} << 50;  // footprints saturate here: more than any cache, no overflow

std::optional<std::int64_t> valueOf(const sym::Expr& e, const GiNaC::exmap& values) { return sym::toInteger(e.subs(values).expand()); }

std::int64_t saturatedProduct(std::int64_t a, std::int64_t b) { return (b != 0 && a > kManyLines / b) ? kManyLines : a * b; }

bool mentionsIterator(const sym::Expr& e, const Trace& t, const std::string& iterator) {
  auto s = t.context.find(iterator);
  return s && sym::contains(e, *s);
}

/* Iterations of "s" with "values" applied (the bindings and the starts of the loops around
   it); none when they are not numbers. */
std::optional<std::int64_t> tripsOf(const Scope& s, const GiNaC::exmap& values) {
  auto start = valueOf(s.start, values), bound = valueOf(s.bound, values), step = valueOf(s.step, values);
  if (!start || !bound || !step || *step == 0) return std::nullopt;
  std::int64_t distance = *step > 0 ? *bound - *start : *start - *bound;
  std::int64_t by = std::llabs(*step);
  bool inclusive = s.comparison == ir::Comparison::LessEqual || s.comparison == ir::Comparison::GreaterEqual;
  if (inclusive) return distance < 0 ? 0 : distance / by + 1;
  return distance <= 0 ? 0 : (distance + by - 1) / by;
}

/* Trip counts of the band's loops, outer loops' iterators at their start (for a triangular
   loop, its count when the loops around it start: the largest in the usual lower-triangular
   nest); none when one is not a number or zero. */
std::optional<std::vector<std::int64_t>> bandTrips(const Trace& t, const std::vector<std::size_t>& band, GiNaC::exmap values) {
  std::vector<std::int64_t> trips;
  for (std::size_t l : band) {
    const Scope& s = t.scopes[l];
    auto n = tripsOf(s, values);
    auto start = valueOf(s.start, values);
    auto it = t.context.find(s.iterator);
    if (!n || *n <= 0 || !start || !it) return std::nullopt;
    values[*it] = GiNaC::numeric(static_cast<long>(*start));
    trips.push_back(*n);
  }
  return trips;
}

/// Accesses of the band's body alike (one container, the same strides, offsets less than a
/// line apart) folded into one walk: the bytes [lo, hi) around the first one's offset.
struct AccessGroup {
  std::size_t container = 0;
  std::size_t event = 0;              // the first access
  std::vector<std::int64_t> strides;  // bytes per iteration of each band loop
  std::int64_t lo = 0, hi = 0;
};

/* The groups of the accesses in the band's innermost loop; none when an offset does not move
   by a number of bytes per iteration (an indirect or non-affine access: footprint unknown). */
std::optional<std::vector<AccessGroup>> accessGroups(const Trace& t, const std::vector<std::size_t>& band, const GiNaC::exmap& values,
                                                     std::int64_t lineBytes) {
  std::vector<AccessGroup> groups;
  for (std::size_t e = 0; e < t.events.size(); ++e) {
    const Event& ev = t.events[e];
    if (ev.kind != EventKind::Access || t.innermostLoop(ev.scope) != band.back()) continue;
    AccessGroup g{ev.container, e, {}, 0, ev.bytes};
    for (std::size_t l : band) {
      auto stride = strideOver(t, ev, t.scopes[l], values);
      if (!stride) return std::nullopt;
      g.strides.push_back(*stride);
    }
    bool folded = false;
    for (AccessGroup& other : groups) {
      if (other.container != g.container || other.strides != g.strides) continue;
      auto apart = valueOf(ev.offset - t.events[other.event].offset, values);
      if (!apart || std::llabs(*apart) >= lineBytes) continue;  // farther apart: two walks (a[i][j] and a[i-1][j] are two rows)
      other.lo = std::min(other.lo, *apart);
      other.hi = std::max(other.hi, *apart + ev.bytes);
      folded = true;
      break;
    }
    if (!folded) groups.push_back(std::move(g));
  }
  return groups;
}

/* Lines "g" touches when band loop m runs extents[m] iterations: the walks from the smallest
   stride up, each either extending one contiguous block (its stride stays within the block or
   a line) or repeating the blocks. */
std::int64_t linesOf(const AccessGroup& g, const std::vector<std::int64_t>& extents, std::int64_t lineBytes) {
  std::vector<std::pair<std::int64_t, std::int64_t>> walks;  // |stride|, iterations
  for (std::size_t m = 0; m < extents.size(); ++m)
    if (g.strides[m] != 0 && extents[m] > 1) walks.emplace_back(std::llabs(g.strides[m]), extents[m]);
  std::sort(walks.begin(), walks.end());
  std::int64_t span = g.hi - g.lo, blocks = 1;
  for (const auto& [stride, n] : walks) {
    if (stride <= std::max(span, lineBytes)) span = std::min(kManyLines, span + saturatedProduct(stride, n - 1));
    else blocks = saturatedProduct(blocks, n);
  }
  return saturatedProduct(blocks, (span + lineBytes - 1) / lineBytes);
}

std::int64_t footprintLines(const std::vector<AccessGroup>& groups, const std::vector<std::int64_t>& extents, std::int64_t lineBytes) {
  std::int64_t lines = 0;
  for (const AccessGroup& g : groups) lines = std::min(kManyLines, lines + linesOf(g, extents, lineBytes));
  return lines;
}

/* Whether an inner loop of the band moves with band[k] (both its start and its bound follow
   band[k]'s iterator, as in a band tiled already or a sliding window): what one iteration of
   band[k] touches is then not what the next one reuses. A triangular loop has only one bound
   following. */
bool innerLoopsFollow(const Trace& t, const std::vector<std::size_t>& band, std::size_t k) {
  const std::string& iterator = t.scopes[band[k]].iterator;
  for (std::size_t m = k + 1; m < band.size(); ++m) {
    const Scope& s = t.scopes[band[m]];
    if (mentionsIterator(s.start, t, iterator) && mentionsIterator(s.bound, t, iterator)) return true;
  }
  return false;
}

/* Why "band" cannot be tiled; empty when it can. */
std::string tilingProblem(const Trace& t, const std::vector<std::size_t>& band) {
  for (std::size_t m = 0; m < band.size(); ++m) {
    const Scope& s = t.scopes[band[m]];
    if (s.kind != ScopeKind::Loop || (m > 0 && s.parent != band[m - 1])) return "the loops are not perfectly nested";
    if (s.iterator.empty() || s.earlyExit) return s.label() + " has no iterator or leaves early";
    if (s.parallel) return s.label() + " runs in parallel (its iterations are shared among threads)";
    for (const std::string& v : s.varying)
      if (v != s.iterator) return s.label() + " also changes '" + v + "' every iteration";
    auto step = sym::toInteger(s.step.expand());
    if (!step || *step <= 0 || (s.comparison != ir::Comparison::Less && s.comparison != ir::Comparison::LessEqual))
      return s.label() + " does not count up by a constant step";
    for (std::size_t other : band) {
      if (other == band[m]) continue;
      const std::string& it = t.scopes[other].iterator;
      if (mentionsIterator(s.start, t, it) || mentionsIterator(s.bound, t, it))
        return "the bounds of " + s.label() + " depend on another loop of the band (a triangular nest: only rectangular bands are tiled)";
    }
  }
  return {};
}

struct BandFacts {
  std::vector<std::int64_t> trips;
  std::vector<AccessGroup> groups;
};

std::optional<BandFacts> factsOf(const Trace& t, const std::vector<std::size_t>& band, const GiNaC::exmap& values, std::int64_t lineBytes) {
  auto trips = bandTrips(t, band, values);
  if (!trips) return std::nullopt;
  auto groups = accessGroups(t, band, values, lineBytes);
  if (!groups) return std::nullopt;
  return BandFacts{std::move(*trips), std::move(*groups)};
}

std::vector<std::int64_t> extentsOf(const std::vector<std::int64_t>& trips, const std::vector<std::int64_t>& tileSizes) {
  std::vector<std::int64_t> extents = trips;
  for (std::size_t m = 0; m < extents.size() && m < tileSizes.size(); ++m)
    if (tileSizes[m] > 0) extents[m] = std::min(extents[m], tileSizes[m]);
  return extents;
}

void setLegality(TilingCandidate& c, const NestVerdict& nest) {
  if (!nest.unknown.empty()) {
    c.legality = "the dependences are unknown: " + nest.unknown;
  } else if (nest.permutable) {
    c.legal = true;
    c.legality = "the band is fully permutable";
  } else {
    c.legal = false;
    c.legality = "the band is not fully permutable: a dependence would be reversed between tiles";
  }
}

/* The candidate of "band" at its innermost loop across which a reused access does not fit
   "capacityLines"; none when every reuse fits. */
std::optional<TilingCandidate> lostReuse(const Trace& t, const std::vector<std::size_t>& band, const BandFacts& facts,
                                         std::int64_t lineBytes, std::int64_t capacityLines) {
  for (std::size_t k = band.size() - 1; k-- > 0;) {
    if (innerLoopsFollow(t, band, k)) continue;  // (every band loop has an iterator: factsOf counted its trips)
    std::vector<std::int64_t> extents = facts.trips;
    for (std::size_t m = 0; m <= k; ++m) extents[m] = 1;
    const std::int64_t lines = footprintLines(facts.groups, extents, lineBytes);
    if (lines <= capacityLines) continue;
    const AccessGroup* reused = nullptr;
    std::int64_t reusedLines = 0;
    for (const AccessGroup& g : facts.groups) {
      bool movesInside = std::any_of(g.strides.begin() + static_cast<std::ptrdiff_t>(k) + 1, g.strides.end(), [](std::int64_t s) { return s != 0; });
      if (std::llabs(g.strides[k]) >= lineBytes || !movesInside) continue;
      std::int64_t own = linesOf(g, extents, lineBytes);
      if (own > reusedLines) {
        reused = &g;
        reusedLines = own;
      }
    }
    if (!reused) continue;
    TilingCandidate c;
    c.band = band;
    c.trips = facts.trips;
    c.carrier = k;
    c.container = t.containers[reused->container].name;
    c.access = t.events[reused->event].text;
    c.reuseBytes = std::llabs(reused->strides[k]);
    c.footprintLines = lines;
    c.capacityLines = capacityLines;
    return c;
  }
  return std::nullopt;
}

}  // namespace

std::vector<TilingCandidate> findTilings(const Trace& contexts, const Trace& modelContexts, const ProgramDependences& deps,
                                         const std::map<std::string, std::int64_t>& bindings, std::int64_t lineBytes,
                                         std::int64_t capacityBytes) {
  const std::map<std::string, std::size_t> loops = loopsByPlace(contexts);
  const GiNaC::exmap values = bindingValues(contexts, bindings);
  const std::int64_t capacityLines = capacityBytes / std::max<std::int64_t>(lineBytes, 1);
  // The bands by their source place, in order: a function called from several places has one
  // band per calling context, and a tiling of the source tiles them all.
  std::vector<std::vector<std::pair<std::vector<std::size_t>, const NestVerdict*>>> places;
  std::map<std::string, std::size_t> placeOf;
  for (const NestVerdict& nest : deps.nests) {
    if (nest.band.size() < 2) continue;
    std::vector<std::size_t> band = bandIn(modelContexts, nest, loops);
    if (band.size() != nest.band.size()) continue;
    auto [found, isNew] = placeOf.try_emplace(contexts.scopes[band.front()].loc.str(), places.size());
    if (isNew) places.emplace_back();
    places[found->second].emplace_back(std::move(band), &nest);
  }
  std::vector<TilingCandidate> out;
  for (const auto& bands : places) {
    // The candidate of the first context that loses a reuse; the legality of all of them.
    std::optional<TilingCandidate> c;
    for (const auto& [band, nest] : bands) {
      auto facts = factsOf(contexts, band, values, lineBytes);
      if (facts) c = lostReuse(contexts, band, *facts, lineBytes, capacityLines);
      if (!c) continue;
      for (const LoopRef& l : nest->band) c->iterators.push_back(l.iterator);
      c->function = nest->band.front().function;
      c->loc = contexts.scopes[band.front()].loc;
      break;
    }
    if (!c) continue;
    for (const auto& [band, nest] : bands) {
      TilingCandidate verdict;
      setLegality(verdict, *nest);
      if (c->contextBands.empty() || legalityRank(verdict.legal) < legalityRank(c->legal)) {
        c->legal = verdict.legal;
        c->legality = verdict.legality;
      }
      c->contextBands.push_back(band);
      if (c->notEvaluated.empty()) c->notEvaluated = tilingProblem(contexts, band);
    }
    out.push_back(std::move(*c));
  }
  return out;
}

std::int64_t tileFootprintLines(const Trace& contexts, const TilingCandidate& c, const std::vector<std::int64_t>& tileSizes,
                                const std::map<std::string, std::int64_t>& bindings, std::int64_t lineBytes) {
  auto groups = accessGroups(contexts, c.band, bindingValues(contexts, bindings), lineBytes);
  if (!groups) return kManyLines;
  return footprintLines(*groups, extentsOf(c.trips, tileSizes), lineBytes);
}

std::vector<std::vector<std::int64_t>> tileSizeCandidates(const Trace& contexts, const TilingCandidate& c,
                                                          const std::map<std::string, std::int64_t>& bindings, std::int64_t lineBytes,
                                                          std::int64_t capacityBytes) {
  auto groups = accessGroups(contexts, c.band, bindingValues(contexts, bindings), lineBytes);
  if (!groups || c.trips.empty()) return {};
  const std::int64_t largest = *std::max_element(c.trips.begin(), c.trips.end());
  auto sizesFor = [&c](std::int64_t t) {
    std::vector<std::int64_t> sizes;
    for (std::int64_t n : c.trips) sizes.push_back(n > t ? t : 0);
    return sizes;
  };
  const std::int64_t target = capacityBytes / 2 / std::max<std::int64_t>(lineBytes, 1);
  auto fits = [&](std::int64_t t) { return footprintLines(*groups, extentsOf(c.trips, sizesFor(t)), lineBytes) <= target; };
  std::int64_t lo = 1, hi = largest;  // the largest T that fits lies in [lo, hi] when T = lo fits
  while (lo < hi) {
    std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  const std::int64_t chosen = std::max<std::int64_t>(lo, 2);
  std::vector<std::vector<std::int64_t>> out;
  for (std::int64_t t : {chosen, chosen / 2, chosen * 2}) {
    std::vector<std::int64_t> sizes = sizesFor(t);
    bool tilesSomething = std::any_of(sizes.begin(), sizes.end(), [](std::int64_t s) { return s > 0; });
    if (t >= 2 && tilesSomething && std::find(out.begin(), out.end(), sizes) == out.end()) out.push_back(std::move(sizes));
  }
  return out;
}

std::optional<Trace> tiled(const Trace& contexts, const std::vector<std::size_t>& band, const std::vector<std::int64_t>& tileSizes,
                           std::string* why) {
  auto fail = [why](const std::string& reason) -> std::optional<Trace> {
    if (why) *why = reason;
    return std::nullopt;
  };
  if (band.empty() || tileSizes.size() != band.size()) return fail("one tile size per loop of the band is needed");
  std::string problem = tilingProblem(contexts, band);
  if (!problem.empty()) return fail(problem);
  Trace out = contexts;
  std::optional<std::size_t> parent = contexts.scopes[band.front()].parent;
  std::size_t firstEvent = contexts.scopes[band.front()].firstEvent;
  for (std::size_t m = 0; m < band.size(); ++m) {
    if (tileSizes[m] <= 0) continue;
    Scope& point = out.scopes[band[m]];
    const sym::Expr step = point.step;
    const sym::Symbol tileIterator = out.context.freshSymbol(point.iterator + "_tile", sym::SymbolKind::Iterator, "tile loop of " + point.iterator);
    Scope tile;
    tile.id = out.scopes.size();
    tile.parent = parent;
    tile.kind = ScopeKind::Loop;
    tile.function = point.function;
    tile.loc = point.loc;
    tile.iterator = tileIterator.get_name();
    tile.start = point.start;
    tile.bound = point.bound;
    tile.step = step * tileSizes[m];
    tile.comparison = point.comparison;
    tile.staticBounds = point.staticBounds;
    tile.varying = {tile.iterator};
    tile.firstEvent = firstEvent;
    // The point loop's last iteration: tile + (T-1)*step included, tile + T*step excluded, never past the bound.
    const sym::Expr last = point.comparison == ir::Comparison::LessEqual ? tileIterator + step * (tileSizes[m] - 1) : tileIterator + step * tileSizes[m];
    point.start = tileIterator;
    point.bound = sym::minOf(last, point.bound);
    point.staticBounds = false;
    point.summary.reset();  // its bounds are no longer the source's: the compiler model reads them as written here
    parent = tile.id;
    firstEvent = 0;
    out.scopes.push_back(std::move(tile));
  }
  out.scopes[band.front()].parent = parent;
  out.scopes[band.front()].firstEvent = firstEvent;
  return out;
}

}  // namespace cats::trace
