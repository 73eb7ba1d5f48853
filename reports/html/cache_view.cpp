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

}  // namespace

std::string cacheSection(const HtmlReportInput& in) {
  std::string out = "<section id=\"cache\"><h2>Cache</h2>\n";
  out += fmt::format("<p>{} accesses simulated{}.</p>\n", number(in.result.accesses),
                     in.result.warpedAccesses ? fmt::format(" ({} of them by warping over repeating iterations)", number(in.result.warpedAccesses)) : "");
  out += levelsTable(in);
  out += missClasses(in.result);
  out += topGroups(in, GroupBy::Container, "Containers that miss most");
  out += topGroups(in, GroupBy::Loop, "Loops that miss most");
  out += topGroups(in, GroupBy::Context, "Calling contexts that miss most");
  return out + "</section>\n";
}

}  // namespace cats::report::html
