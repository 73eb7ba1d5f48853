// The cache view: per level the demand accesses, misses and traffic, the miss classes when they
// were classified, and the containers, loops and calling contexts that miss most, as bars.
#include "parts.hpp"
#include "reports/simulation.hpp"

#include <fmt/format.h>

namespace cats::report::html {

namespace {

constexpr std::size_t kTopGroups = 15;

std::string levelsTable(const HtmlReportInput& in) {
  const sim::SimulationResult& r = in.result;
  std::string out = "<table class=\"sortable\"><thead><tr><th>level</th><th>geometry</th><th class=\"num\">reads</th><th class=\"num\">writes</th>"
                    "<th class=\"num\">read misses</th><th class=\"num\">write misses</th><th class=\"num\">miss %</th>"
                    "<th class=\"num\">write-backs</th><th class=\"num\">bytes in from below</th><th class=\"num\">bytes out to below</th></tr></thead><tbody>\n";
  for (std::size_t l = 0; l < r.levels.size(); ++l) {
    const sim::LevelCounts& c = r.totals[l];
    const cache::LevelConfig& g = in.config.levels.at(l);
    const cache::LevelStats* s = l < r.levelStats.size() ? &r.levelStats[l] : nullptr;
    double rate = c.accesses() ? 100.0 * static_cast<double>(c.misses()) / static_cast<double>(c.accesses()) : 0;
    out += fmt::format("<tr><td>{}</td><td>{}, {}-way, {} B lines</td><td class=\"num\" data-v=\"{}\">{}</td><td class=\"num\" data-v=\"{}\">{}</td>"
                       "<td class=\"num\" data-v=\"{}\">{}</td><td class=\"num\" data-v=\"{}\">{}</td><td class=\"num\" data-v=\"{:.4f}\">{:.2f}</td>",
                       escape(r.levels[l]), bytes(static_cast<double>(g.sizeBytes)), g.associativity, g.lineBytes, c.reads, number(c.reads), c.writes,
                       number(c.writes), c.readMisses, number(c.readMisses), c.writeMisses, number(c.writeMisses), rate, rate);
    if (s)
      out += fmt::format("<td class=\"num\" data-v=\"{0}\">{1}</td><td class=\"num\" data-v=\"{2}\">{3}</td><td class=\"num\" data-v=\"{4}\">{5}</td></tr>\n",
                         s->writebacks, number(s->writebacks), s->bytesFromBelow, bytes(static_cast<double>(s->bytesFromBelow)), s->bytesToBelow,
                         bytes(static_cast<double>(s->bytesToBelow)));
    else
      out += "<td></td><td></td><td></td></tr>\n";
  }
  out += "</tbody></table>\n";
  return out + fmt::format("<p>Memory: {} read, {} written.</p>\n", bytes(static_cast<double>(r.memory.readBytes)), bytes(static_cast<double>(r.memory.writeBytes)));
}

std::string missClasses(const sim::SimulationResult& r) {
  bool classified = false;
  for (const auto& c : r.totals) classified = classified || c.missClass[0] + c.missClass[1] + c.missClass[2] > 0;
  if (!classified) return "<p>Miss classes were not computed (<code>--miss-classes</code>).</p>\n";
  constexpr double kWidth = 600;
  std::string out = "<h3>Miss classes</h3>\n<svg class=\"classes\" width=\"760\" height=\"" + std::to_string(26 * r.levels.size() + 8) + "\">\n";
  constexpr std::array<const char*, 3> kNames{"cold", "capacity", "conflict"};
  for (std::size_t l = 0; l < r.levels.size(); ++l) {
    const auto& m = r.totals[l].missClass;
    double all = static_cast<double>(m[0] + m[1] + m[2]);
    double x = 60;
    double y = 4 + 26.0 * static_cast<double>(l);
    out += fmt::format("<text x=\"0\" y=\"{}\">{}</text>", coord(y + 15), escape(r.levels[l]));
    for (std::size_t k = 0; k < 3; ++k) {
      double w = all > 0 ? kWidth * static_cast<double>(m[k]) / all : 0;
      if (w <= 0) continue;
      out += fmt::format("<rect class=\"m{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"20\"><title>{}: {} {} misses ({:.1f}%)</title></rect>", k, coord(x),
                         coord(y), coord(w), escape(r.levels[l]), number(m[k]), kNames[k], 100 * static_cast<double>(m[k]) / all);
      if (w > 90) out += fmt::format("<text x=\"{}\" y=\"{}\" class=\"inbar\">{} {:.0f}%</text>", coord(x + 4), coord(y + 15), kNames[k], 100 * static_cast<double>(m[k]) / all);
      x += w;
    }
    out += "\n";
  }
  return out + "</svg>\n";
}

std::string topGroups(const HtmlReportInput& in, GroupBy by, const char* title) {
  std::vector<Group> groups = groupEvents(in.contexts, in.result, by, in.plan);
  std::uint64_t most = 1;
  for (const Group& g : groups) most = std::max<std::uint64_t>(most, g.levels.front().misses());
  std::string out = fmt::format("<h3>{}</h3>\n<table class=\"sortable\"><thead><tr><th>name</th><th class=\"num\">accesses</th>", title);
  for (const std::string& level : in.result.levels) out += fmt::format("<th class=\"num\">{} misses</th>", escape(level));
  out += "<th>" + escape(in.result.levels.front()) + " misses</th></tr></thead><tbody>\n";
  for (std::size_t i = 0; i < groups.size() && i < kTopGroups; ++i) {
    const Group& g = groups[i];
    out += fmt::format("<tr><td data-v=\"{0}\">{0}{1}</td><td class=\"num\" data-v=\"{2}\">{3}</td>", escape(g.name), g.approximate ? " <i>(approximate)</i>" : "",
                       g.levels.front().accesses(), number(g.levels.front().accesses()));
    for (const sim::LevelCounts& c : g.levels) out += fmt::format("<td class=\"num\" data-v=\"{}\">{}</td>", c.misses(), number(c.misses()));
    double w = 200.0 * static_cast<double>(g.levels.front().misses()) / static_cast<double>(most);
    out += fmt::format("<td><svg class=\"bar\" width=\"200\" height=\"12\"><rect class=\"miss\" width=\"{}\" height=\"12\"/></svg></td></tr>\n", coord(w));
  }
  out += "</tbody></table>\n";
  if (groups.size() > kTopGroups) out += fmt::format("<p>{} more, with fewer misses.</p>\n", groups.size() - kTopGroups);
  return out;
}

/* Misses per set index as bars (sets folded into at most kBars bars, each the largest of its
   sets, so that one thrashed set stays visible), with the summary of the text report. */
std::string setHistogram(const SetMissHistogram& h) {
  constexpr std::size_t kBars = 512;
  constexpr double kWidth = 1024, kHeight = 90;
  std::size_t sets = h.misses.size();
  if (sets == 0) return {};
  std::size_t perBar = (sets + kBars - 1) / kBars;
  std::size_t bars = (sets + perBar - 1) / perBar;
  double barWidth = kWidth / static_cast<double>(bars);
  std::string top;
  for (const auto& [set, misses] : h.top) top += fmt::format("{}set {} ({})", top.empty() ? "" : ", ", set, number(misses));
  std::string out = fmt::format("<h4>{}: {} sets, {} with misses; max {} per set, mean {:.1f} (max/mean {:.1f}); most missed: {}</h4>\n", escape(h.level),
                                number(sets), number(h.setsWithMisses), number(h.max), h.mean, h.mean > 0 ? static_cast<double>(h.max) / h.mean : 0.0,
                                escape(top.empty() ? std::string("none") : top));
  out += fmt::format("<svg class=\"sets\" width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"misses per set of {}\">", coord(kWidth + 60), coord(kHeight + 18),
                     escape(h.level));
  for (std::size_t b = 0; b < bars; ++b) {
    std::uint64_t most = 0;
    std::size_t first = b * perBar, last = std::min(sets, first + perBar) - 1;
    for (std::size_t s = first; s <= last; ++s) most = std::max(most, h.misses[s]);
    if (most == 0) continue;
    double height = std::max(1.0, kHeight * static_cast<double>(most) / static_cast<double>(std::max<std::uint64_t>(1, h.max)));
    out += fmt::format("<rect class=\"miss\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{} {}: {} misses</title></rect>", coord(static_cast<double>(b) * barWidth),
                       coord(kHeight - height), coord(std::max(barWidth - 0.2, 0.5)), coord(height), perBar == 1 ? "set" : "sets",
                       perBar == 1 ? std::to_string(first) : fmt::format("{}..{} (the largest)", first, last), number(most));
  }
  out += fmt::format("<line class=\"axis\" x1=\"0\" x2=\"{0}\" y1=\"{1}\" y2=\"{1}\"/><text x=\"0\" y=\"{2}\" class=\"tick\">set 0</text>"
                     "<text x=\"{0}\" y=\"{2}\" class=\"tick\" text-anchor=\"end\">set {3}</text></svg>\n",
                     coord(kWidth), coord(kHeight), coord(kHeight + 14), sets - 1);
  return out;
}

std::string reuseMatrix(const ReuseMatrix& m) {
  std::string out = fmt::format("<h4>{}: {} hits, {} by the context that brought the line in, {} by another</h4>\n", escape(m.level), number(m.total),
                                number(m.sameContext), number(m.crossContext));
  if (m.contexts.empty()) return out;
  std::uint64_t most = 1;
  for (const auto& row : m.hits)
    for (std::uint64_t v : row) most = std::max(most, v);
  out += "<table class=\"matrix\"><thead><tr><th>brought in by \\ hit by</th>";
  for (std::size_t c = 0; c < m.contexts.size(); ++c) out += fmt::format("<th title=\"{}\">#{}</th>", escape(m.contexts[c]), c + 1);
  out += "</tr></thead><tbody>\n";
  for (std::size_t r = 0; r < m.contexts.size(); ++r) {
    out += fmt::format("<tr><td>#{} {}</td>", r + 1, escape(m.contexts[r]));
    for (std::size_t c = 0; c < m.contexts.size(); ++c) {
      std::uint64_t v = m.hits[r][c];
      out += v == 0 ? std::string("<td class=\"num\"></td>")
                    : fmt::format("<td class=\"num{}\" style=\"background:{}\">{}</td>", r == c ? " diagonal" : "",
                                  heat(static_cast<double>(v) / static_cast<double>(most)), number(v));
    }
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

std::string trafficTable(const std::vector<LevelTraffic>& traffic) {
  std::string out = "<h3>Traffic between levels</h3>\n<table><thead><tr><th>boundary</th><th class=\"num\">fills (up)</th><th class=\"num\">down, all</th>"
                    "<th class=\"num\">write-backs</th><th class=\"num\">write-back bytes</th><th class=\"num\">other down</th></tr></thead><tbody>\n";
  for (const LevelTraffic& t : traffic)
    out += fmt::format("<tr><td>{} &harr; {}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                       "<td class=\"num\">{}</td></tr>\n",
                       escape(t.upper), escape(t.lower), bytes(static_cast<double>(t.fillBytes)), bytes(static_cast<double>(t.downBytes)), number(t.writebacks),
                       bytes(static_cast<double>(t.writebackBytes)), bytes(static_cast<double>(t.otherDownBytes)));
  return out + "</tbody></table>\n";
}

std::string observationsHtml(const SimulationObservations& o) {
  std::string out;
  if (!o.traffic.empty()) out += trafficTable(o.traffic);
  if (!o.setMisses.empty()) {
    out += "<h3>Misses per set</h3>\n<p>A few tall bars among low ones are sets that thrash: strides that map to few sets (padding helps).</p>\n";
    for (const SetMissHistogram& h : o.setMisses) out += setHistogram(h);
  }
  if (!o.reuse.empty()) {
    out += "<h3>Cross-context reuse</h3>\n<p>Hits per level by the calling context that brought the line in (rows) and the one that hit it "
           "(columns): off the diagonal, one kernel reuses data another left in the cache.</p>\n";
    for (const ReuseMatrix& m : o.reuse) out += reuseMatrix(m);
  }
  return out;
}

}  // namespace

std::string cacheSection(const HtmlReportInput& in) {
  std::string out = "<section id=\"cache\"><h2>Cache</h2>\n";
  out += fmt::format("<p>{} accesses simulated{}.</p>\n", number(in.result.accesses),
                     in.result.warpedAccesses ? fmt::format(" ({} of them by warping over repeating iterations)", number(in.result.warpedAccesses)) : "");
  out += levelsTable(in);
  out += missClasses(in.result);
  if (in.observations) out += observationsHtml(*in.observations);
  out += topGroups(in, GroupBy::Container, "Containers that miss most");
  out += topGroups(in, GroupBy::Loop, "Loops that miss most");
  out += topGroups(in, GroupBy::Context, "Calling contexts that miss most");
  return out + "</section>\n";
}

}  // namespace cats::report::html
