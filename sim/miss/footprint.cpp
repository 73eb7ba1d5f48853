// Footprints of reuse groups: clusters of members, bounding boxes, contiguous runs and lines.
#include "miss/footprint.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <vector>

namespace cats::sim::miss {

namespace {

/* Upper bound on the line starts enumerated for one set count: beyond it the walk spreads. */
constexpr std::uint64_t kMaxEnumeratedLines = std::uint64_t{1} << 20;

std::int64_t whole(double x) { return static_cast<std::int64_t>(std::llround(x)); }

/* Expected lines of a run of "span" bytes whose start is "start" plus any multiple of "granule"
   modulo "line" (the alignments the other loops give it). */
double linesOfRun(double span, std::int64_t start, std::int64_t granule, std::int64_t line) {
  std::int64_t g = std::max<std::int64_t>(1, granule);
  std::int64_t first = ((start % g) + g) % g;
  double total = 0;
  std::int64_t count = 0;
  for (std::int64_t o = first; o < line; o += g, ++count) total += std::floor((static_cast<double>(o) + span - 1) / line) + 1;
  return count ? total / count : std::ceil(span / line);
}

/* Members of one cluster (sorted offsets, close enough to share a bounding box) as runs. */
Footprint cluster(const Walk& w, const std::vector<double>& members, std::int64_t line, bool formulas) {
  std::vector<std::size_t> order(w.dims.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return w.dims[a].stride > w.dims[b].stride; });
  std::vector<double> lo(w.dims.size(), 0), hi(w.dims.size(), 0);
  double rlo = 0, rhi = 0, base = members.front();
  for (double m : members) {
    double rest = m - base;
    for (std::size_t d : order) {
      if (w.dims[d].stride <= 0) continue;
      double k = std::round(rest / w.dims[d].stride);
      rest -= k * w.dims[d].stride;
      lo[d] = std::min(lo[d], k);
      hi[d] = std::max(hi[d], k);
    }
    rlo = std::min(rlo, rest);
    rhi = std::max(rhi, rest);
  }
  double start = base + rlo;
  for (std::size_t d = 0; d < w.dims.size(); ++d) start += lo[d] * w.dims[d].stride;
  std::vector<std::size_t> ascending(order.rbegin(), order.rend());
  Runs runs;
  runs.start = start;
  runs.span = w.elementBytes + (rhi - rlo);
  sym::Expr spanSym = whole(runs.span), copiesSym = 1;
  std::int64_t granule = line;
  for (std::size_t d : ascending) {
    const Dim& dim = w.dims[d];
    double extra = hi[d] - lo[d];
    Dim grown{dim.stride, dim.trips + extra, dim.strideSym, formulas ? dim.tripsSym + static_cast<long>(extra) : sym::Expr(1)};
    if (grown.stride <= 0) continue;
    if (grown.trips <= 1) {
      granule = std::gcd(granule, whole(grown.stride) % line);
      continue;
    }
    if (runs.copies.empty() && grown.stride < runs.span + line) {
      runs.span += grown.stride * (grown.trips - 1);
      if (formulas) spanSym += grown.strideSym * (grown.tripsSym - 1);
    } else {
      runs.copies.push_back(grown);
      if (formulas) copiesSym *= grown.tripsSym;
      granule = std::gcd(granule, whole(grown.stride) % line);
    }
  }
  double copies = 1;
  for (const Dim& c : runs.copies) copies *= c.trips;
  Footprint f;
  f.lines = copies * linesOfRun(runs.span, whole(runs.start), granule == 0 ? line : granule, line);
  if (formulas) f.linesSym = (copiesSym * ((spanSym - whole(w.elementBytes)) / line + 1)).expand();
  f.runs.push_back(std::move(runs));
  return f;
}

}  // namespace

Footprint footprint(const Walk& w, std::int64_t line, bool formulas) {
  for (const Dim& d : w.dims)
    if (d.trips < 1) return {};
  double extent = w.elementBytes;
  for (const Dim& d : w.dims) extent += d.stride * (d.trips - 1);
  std::vector<double> offsets = w.offsets;
  std::sort(offsets.begin(), offsets.end());
  Footprint total;
  std::vector<double> members;
  auto flush = [&] {
    if (members.empty()) return;
    Footprint f = cluster(w, members, line, formulas);
    total.lines += f.lines;
    total.linesSym += f.linesSym;
    for (auto& r : f.runs) total.runs.push_back(std::move(r));
    members.clear();
  };
  for (double o : offsets) {
    if (!members.empty() && o - members.back() > extent + line) flush();
    members.push_back(o);
  }
  flush();
  return total;
}

namespace {

std::int64_t floorDiv(std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

}  // namespace

bool forEachLine(const Footprint& f, std::int64_t line, std::uint64_t maxLines, const std::function<bool(std::int64_t)>& visit) {
  std::uint64_t enumerated = 0;
  for (const Runs& r : f.runs) {
    double count = 1;
    for (const Dim& c : r.copies) count *= std::max(1.0, c.trips);
    double linesPerRun = std::ceil(r.span / static_cast<double>(line)) + 1;
    if (count * linesPerRun > static_cast<double>(maxLines - enumerated)) return false;
    enumerated += static_cast<std::uint64_t>(count * linesPerRun);
    auto starts = static_cast<std::uint64_t>(count);
    std::vector<std::uint64_t> k(r.copies.size(), 0);
    for (std::uint64_t n = 0; n < starts; ++n) {
      std::int64_t start = whole(r.start);
      for (std::size_t d = 0; d < k.size(); ++d) start += static_cast<std::int64_t>(k[d]) * whole(r.copies[d].stride);
      for (std::int64_t l = floorDiv(start, line), last = floorDiv(start + whole(r.span) - 1, line); l <= last; ++l)
        if (!visit(l)) return true;
      for (std::size_t d = 0; d < k.size() && ++k[d] >= static_cast<std::uint64_t>(r.copies[d].trips); ++d) k[d] = 0;
    }
  }
  return true;
}

std::optional<std::uint64_t> setsUsed(const Footprint& f, std::int64_t line, std::uint64_t sets, std::uint64_t enough) {
  std::vector<bool> seen(sets, false);
  std::uint64_t used = 0;
  auto count = [&](std::int64_t l) {
    auto set = static_cast<std::uint64_t>(l - floorDiv(l, static_cast<std::int64_t>(sets)) * static_cast<std::int64_t>(sets));
    if (!seen[set]) {
      seen[set] = true;
      ++used;
    }
    return used < enough;
  };
  if (!forEachLine(f, line, kMaxEnumeratedLines, count)) return std::nullopt;
  return used;
}

}  // namespace cats::sim::miss
