// The memory timeline of the C.A.T.S. paper (section 4.1) over the static trace: x is the event
// order, a region per allocation lifetime stacked by allocation order (regions above drop down
// when one below is freed), its used part (first to last access) saturated, access ticks (solid
// writes, dashed reads), and below it the icicle plot of the control-flow stacks (loops red,
// branches blue).
#include "parts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>
#include <variant>

namespace cats::report::html {

namespace {

constexpr double kLeft = 8, kWidth = 1100;
constexpr double kMinRegion = 3, kChartHeight = 240, kIcicleRow = 16;
// Kelly's colours of maximum contrast without white and black, as the paper picks them.
constexpr std::array<const char*, 20> kKelly{"#F3C300", "#875692", "#F38400", "#A1CAF1", "#BE0032", "#C2B280", "#848482",
                                             "#008856", "#E68FAC", "#0067A5", "#F99379", "#604E97", "#F6A600", "#B3446C",
                                             "#DCD300", "#882D17", "#8DB600", "#654522", "#E25822", "#2B3D26"};

/* Sizes of the program's allocations at the bound parameters, by trace event: a size that
   changes with an iterator or with data has none. */
void collectAllocSizes(const sim::Block& block, std::map<std::size_t, std::int64_t>& sizes) {
  for (const sim::Op& op : block) {
    if (const auto* a = std::get_if<sim::AllocOp>(&op.value)) {
      if (!a->sizeBytes.dependsOnData() && a->sizeBytes.terms().empty()) sizes[a->tag] = a->sizeBytes.evaluate(nullptr);
    } else if (const auto* l = op.loop()) {
      collectAllocSizes(l->pre, sizes);
      collectAllocSizes(l->header, sizes);
      collectAllocSizes(l->body, sizes);
      collectAllocSizes(l->post, sizes);
    } else if (const auto* b = std::get_if<sim::BranchOp>(&op.value)) {
      for (const sim::Arm& arm : b->arms) collectAllocSizes(arm.body, sizes);
    } else if (const auto* f = std::get_if<sim::FrameOp>(&op.value)) {
      collectAllocSizes(f->body, sizes);
    }
  }
}

struct Span {
  std::size_t first = 0, last = 0;
  bool seen = false;
  void add(std::size_t e) {
    if (!seen) first = e;
    last = e;
    seen = true;
  }
};

/* One allocation lifetime: [start, end) in event positions, its stacking over time. */
struct Region {
  std::size_t container = 0;
  std::size_t start = 0, end = 0;
  std::optional<std::int64_t> size;
  bool conditional = false;  // allocated under a branch: drawn striped
  std::string where;
  double height = kMinRegion;
  std::vector<std::pair<std::size_t, double>> bottoms;  // (from event, bottom in pixels)
  std::vector<std::size_t> accesses;                    // event positions
  std::vector<bool> writes;
};

double bottomAt(const Region& r, std::size_t event) {
  double bottom = 0;
  for (const auto& [from, b] : r.bottoms)
    if (from <= event) bottom = b;
  return bottom;
}

/* The outline of "r" between events "from" and "to" as an SVG path (y grows downwards). */
std::string outline(const Region& r, std::size_t from, std::size_t to, double xScale, double base) {
  std::vector<std::pair<double, double>> lower;  // (x, bottom)
  for (std::size_t i = 0; i < r.bottoms.size(); ++i) {
    std::size_t a = std::max(r.bottoms[i].first, from);
    std::size_t b = i + 1 < r.bottoms.size() ? std::min(r.bottoms[i + 1].first, to) : to;
    if (a >= b) continue;
    lower.emplace_back(kLeft + static_cast<double>(a) * xScale, r.bottoms[i].second);
    lower.emplace_back(kLeft + static_cast<double>(b) * xScale, r.bottoms[i].second);
  }
  if (lower.empty()) return {};
  std::string path;
  for (const auto& [x, y] : lower) path += fmt::format("{}{},{} ", path.empty() ? "M" : "L", coord(x), coord(base - y));
  for (auto it = lower.rbegin(); it != lower.rend(); ++it) path += fmt::format("L{},{} ", coord(it->first), coord(base - it->second - r.height));
  return path + "Z";
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  std::size_t m = values.size() / 2;
  return values.size() % 2 ? values[m] : (values[m - 1] + values[m]) / 2;
}

bool underBranch(const trace::Trace& t, std::size_t scope) {
  for (std::optional<std::size_t> s = scope; s; s = t.scopes.at(*s).parent)
    if (t.scopes.at(*s).kind == trace::ScopeKind::Branch) return true;
  return false;
}

/* The scope a stack array lives in: the call or function around its declaration. */
std::size_t frameOf(const trace::Trace& t, std::size_t scope) {
  for (std::optional<std::size_t> s = scope; s; s = t.scopes.at(*s).parent) {
    trace::ScopeKind k = t.scopes.at(*s).kind;
    if (k == trace::ScopeKind::Call || k == trace::ScopeKind::Function) return *s;
  }
  return 0;
}

std::vector<Region> regionsOf(const HtmlReportInput& in, std::size_t shown, const std::vector<Span>& scopeSpans) {
  const trace::Trace& t = in.contexts;
  std::map<std::size_t, std::int64_t> allocSizes;
  collectAllocSizes(in.program.statics, allocSizes);
  collectAllocSizes(in.program.body, allocSizes);
  std::vector<Region> regions;
  std::map<std::size_t, std::size_t> open;  // container -> its live region
  std::vector<bool> allocated(t.containers.size(), false), accessed(t.containers.size(), false);
  for (std::size_t e = 0; e < shown; ++e) {
    if (t.events[e].kind == trace::EventKind::Alloc) allocated[t.events[e].container] = true;
    if (t.events[e].kind == trace::EventKind::Access) accessed[t.events[e].container] = true;
  }
  auto planSize = [&](std::size_t c) -> std::optional<std::int64_t> {
    if (c < in.program.containers.size() && in.program.containers[c].sizeBytes >= 0) return in.program.containers[c].sizeBytes;
    return std::nullopt;
  };
  // Containers that exist before the first event (globals without an allocation event, the
  // entry's parameters) live over the whole timeline.
  for (std::size_t c = 0; c < t.containers.size(); ++c) {
    if (allocated[c] || !accessed[c] || t.containers[c].isScalar) continue;
    Region r;
    r.container = c;
    r.end = shown;
    r.size = planSize(c);
    r.where = "before the first event";
    open[c] = regions.size();
    regions.push_back(std::move(r));
  }
  for (std::size_t e = 0; e < shown; ++e) {
    const trace::Event& ev = t.events[e];
    if (ev.kind == trace::EventKind::Alloc && !t.containers[ev.container].isScalar) {
      Region r;
      r.container = ev.container;
      r.start = e;
      r.end = shown;
      if (ev.function == ir::AllocFunction::StackArray) {
        const Span& frame = scopeSpans.at(frameOf(t, ev.scope));
        r.end = std::min(shown, (frame.seen ? frame.last : e) + 1);
      }
      auto size = allocSizes.find(e);
      r.size = size != allocSizes.end() ? std::optional<std::int64_t>(size->second) : planSize(ev.container);
      r.conditional = underBranch(t, ev.scope);
      r.where = ev.loc.str();
      open[ev.container] = regions.size();
      regions.push_back(std::move(r));
    } else if (ev.kind == trace::EventKind::Free) {
      auto it = open.find(ev.container);
      if (it != open.end()) {
        regions[it->second].end = e + 1;
        open.erase(it);
      }
    } else if (ev.kind == trace::EventKind::Access) {
      auto it = open.find(ev.container);
      if (it != open.end() && regions[it->second].end > e) {
        regions[it->second].accesses.push_back(e);
        regions[it->second].writes.push_back(ev.mode != ir::AccessMode::Read);
      }
    }
  }
  return regions;
}

/* Stacks the regions in allocation order at every change point; returns the peak in pixels.
   Small and unknown sizes get a minimum height, shrunk when many regions live at once (real
   code has thousands) so that the chart stays at most about twice its nominal height. */
double stack(std::vector<Region>& regions, double bytesToPixels) {
  std::vector<std::size_t> points;
  for (const Region& r : regions) {
    points.push_back(r.start);
    points.push_back(r.end);
  }
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  std::size_t mostLive = 1;
  for (std::size_t p : points)
    mostLive = std::max<std::size_t>(mostLive, std::count_if(regions.begin(), regions.end(), [p](const Region& r) { return r.start <= p && r.end > p; }));
  double minimum = std::clamp(kChartHeight / static_cast<double>(mostLive), 0.25, kMinRegion);
  for (Region& r : regions) r.height = std::max(minimum, static_cast<double>(r.size.value_or(0)) * bytesToPixels);
  double peak = 0;
  for (std::size_t p : points) {
    double level = 0;
    for (Region& r : regions) {
      if (r.start > p || r.end <= p) continue;
      if (r.bottoms.empty() || r.bottoms.back().second != level) r.bottoms.emplace_back(p, level);
      level += r.height;
    }
    peak = std::max(peak, level);
  }
  return peak;
}

std::string regionSvg(const trace::Trace& t, const Region& r, std::size_t index, double xScale, double base) {
  const char* colour = kKelly[index % kKelly.size()];
  const std::string& name = t.containers[r.container].name;
  std::string tip = fmt::format("{}: {}, allocated {}", name, r.size ? bytes(static_cast<double>(*r.size)) : std::string("size unknown at these parameters"), r.where);
  std::string out;
  std::string full = outline(r, r.start, r.end, xScale, base);
  if (full.empty()) return {};
  out += fmt::format("<path d=\"{}\" fill=\"{}\" fill-opacity=\"0.25\" stroke=\"{}\" stroke-width=\"0.5\"{}>", full, colour, colour,
                     r.conditional ? " style=\"fill:url(#stripes)\"" : "");
  if (!r.accesses.empty()) {
    std::vector<double> gaps;
    for (std::size_t i = 1; i < r.accesses.size(); ++i) gaps.push_back(static_cast<double>(r.accesses[i] - r.accesses[i - 1]));
    double lifetime = static_cast<double>(r.end - r.start);
    double used = static_cast<double>(r.accesses.back() - r.accesses.front() + 1);
    tip += fmt::format("; {} accesses, used {:.0f}% of its lifetime, median reuse distance {} events", r.accesses.size(),
                       lifetime > 0 ? 100 * used / lifetime : 0.0, coord(median(gaps)));
  }
  out += "<title>" + escape(tip) + "</title></path>\n";
  if (!r.accesses.empty()) {
    std::string usedPath = outline(r, r.accesses.front(), r.accesses.back() + 1, xScale, base);
    if (!usedPath.empty()) out += fmt::format("<path d=\"{}\" fill=\"{}\" fill-opacity=\"0.7\"><title>{}</title></path>\n", usedPath, colour, escape(tip));
    for (std::size_t i = 0; i < r.accesses.size(); ++i) {
      double x = kLeft + (static_cast<double>(r.accesses[i]) + 0.5) * xScale;
      double bottom = bottomAt(r, r.accesses[i]);
      out += fmt::format("<line x1=\"{0}\" x2=\"{0}\" y1=\"{1}\" y2=\"{2}\" class=\"{3}\"/>", coord(x), coord(base - bottom), coord(base - bottom - r.height),
                         r.writes[i] ? "w" : "r");
    }
    out += "\n";
  }
  return out;
}

std::string icicle(const trace::Trace& t, const std::vector<Span>& spans, double xScale, double top, double& height) {
  std::string out;
  std::size_t deepest = 0;
  for (std::size_t s = 1; s < t.scopes.size(); ++s) {
    if (!spans[s].seen) continue;
    std::size_t depth = t.stack(s).size() - 1;
    deepest = std::max(deepest, depth);
    const trace::Scope& scope = t.scopes[s];
    const char* cls = scope.kind == trace::ScopeKind::Loop     ? "loop"
                      : scope.kind == trace::ScopeKind::Branch ? "cond"
                      : scope.kind == trace::ScopeKind::Parallel ? "para"
                                                                 : "func";
    double x = kLeft + static_cast<double>(spans[s].first) * xScale;
    double w = std::max(1.0, static_cast<double>(spans[s].last - spans[s].first + 1) * xScale);
    double y = top + static_cast<double>(depth) * kIcicleRow;
    std::string label = scope.label();
    out += fmt::format("<g class=\"{}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>", cls, coord(x), coord(y), coord(w), kIcicleRow - 2);
    if (w > 7.0 * static_cast<double>(label.size())) out += fmt::format("<text x=\"{}\" y=\"{}\">{}</text>", coord(x + 3), coord(y + kIcicleRow - 5), escape(label));
    out += fmt::format("<title>{} ({}), events {}..{}</title></g>\n", escape(label), escape(scope.loc.str()), spans[s].first, spans[s].last);
  }
  height = static_cast<double>(deepest + 1) * kIcicleRow;
  return out;
}

}  // namespace

std::string timelineSection(const HtmlReportInput& in, std::vector<std::string>& warnings) {
  const trace::Trace& t = in.contexts;
  std::string out = "<section id=\"timeline\"><h2>Memory timeline</h2>\n";
  std::size_t shown = std::min(t.events.size(), in.maxTimelineEvents);
  if (shown < t.events.size()) {
    std::string message = fmt::format("the memory timeline shows the first {} of {} trace events (--max-events)", number(shown), number(t.events.size()));
    warnings.push_back(message);
    out += "<p class=\"warning\">" + escape(message) + "</p>\n";
  }
  if (shown == 0) return out + "<p>The trace has no events.</p></section>\n";
  std::vector<Span> spans(t.scopes.size());
  for (std::size_t e = 0; e < shown; ++e)
    for (std::optional<std::size_t> s = t.events[e].scope; s; s = t.scopes.at(*s).parent) spans[*s].add(e);
  std::vector<Region> regions = regionsOf(in, shown, spans);
  double peakBytes = 0;  // the footprint only grows at an allocation
  for (const Region& at : regions) {
    double live = 0;
    for (const Region& r : regions)
      if (r.start <= at.start && r.end > at.start) live += static_cast<double>(r.size.value_or(0));
    peakBytes = std::max(peakBytes, live);
  }
  double peak = stack(regions, peakBytes > 0 ? kChartHeight / peakBytes : 0);
  double xScale = kWidth / static_cast<double>(shown);
  double base = peak + 10;
  double icicleHeight = 0;
  std::string bars = icicle(t, spans, xScale, base + 12, icicleHeight);
  double total = base + 12 + icicleHeight + 4;
  out += fmt::format("<p>Peak footprint at these parameters: <b>{}</b> in {} allocations. x: the {} events of the static trace in program order; "
                     "y: bytes allocated. Saturated: from the first to the last access; ticks: writes solid, reads dashed. "
                     "Below: the control-flow stacks (loops red, branches blue, parallel regions green).</p>\n",
                     bytes(peakBytes), regions.size(), number(shown));
  out += fmt::format("<svg class=\"timeline\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" role=\"img\" aria-label=\"memory timeline\">\n",
                     coord(kWidth + 2 * kLeft), coord(total), coord(kWidth + 2 * kLeft), coord(total));
  out += "<defs><pattern id=\"stripes\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
         "<rect width=\"3\" height=\"6\" fill=\"#999\" fill-opacity=\"0.4\"/></pattern></defs>\n";
  for (std::size_t i = 0; i < regions.size(); ++i) out += regionSvg(t, regions[i], i, xScale, base);
  out += fmt::format("<line x1=\"{}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" class=\"axis\"/>\n", coord(kLeft), coord(kLeft + kWidth), coord(base), coord(base));
  out += bars;
  out += "</svg>\n<ul class=\"legend\">";
  constexpr std::size_t kLegendEntries = 60;
  for (std::size_t i = 0; i < regions.size() && i < kLegendEntries; ++i)
    out += fmt::format("<li><span class=\"swatch\" style=\"background:{}\"></span>{} ({})</li>", kKelly[i % kKelly.size()],
                       escape(t.containers[regions[i].container].name), regions[i].size ? bytes(static_cast<double>(*regions[i].size)) : "size unknown");
  if (regions.size() > kLegendEntries) out += fmt::format("<li>… and {} more (their tooltips name them)</li>", number(regions.size() - kLegendEntries));
  return out + "</ul>\n</section>\n";
}

}  // namespace cats::report::html
