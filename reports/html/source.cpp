// The source with per-line predicted accesses and misses, coloured by first-level misses (a
// heat map), from the simulation's per-line costs.
#include "parts.hpp"
#include "reports/simulation.hpp"

#include <fmt/format.h>

#include <map>
#include <sstream>

namespace cats::report::html {

namespace {

using LineCounts = std::map<std::size_t, std::vector<sim::LevelCounts>>;

/* Per file and line, the counts of every compiled function there (inlined copies summed). */
std::map<std::string, LineCounts> countsByFile(const HtmlReportInput& in) {
  std::map<std::string, LineCounts> out;
  for (const LineCost& cost : lineCosts(in.contexts, in.result, in.plan)) {
    std::vector<sim::LevelCounts>& counts = out[cost.file][cost.line];
    counts.resize(cost.levels.size());
    for (std::size_t l = 0; l < cost.levels.size(); ++l) counts[l] += cost.levels[l];
  }
  return out;
}

std::vector<std::string> linesOf(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

std::string sourceSection(const HtmlReportInput& in, std::vector<std::string>& warnings) {
  std::map<std::string, LineCounts> counts = countsByFile(in);
  std::size_t levels = in.result.levels.size();
  std::string out = "<section id=\"source\"><h2>Source</h2>\n";
  out += fmt::format("<p>Per source line: predicted accesses and misses at {} and {}; the colour follows {} misses.</p>\n",
                     escape(in.result.levels.front()), escape(in.result.levels.back()), escape(in.result.levels.front()));
  for (const HtmlSource& file : in.sources) {
    auto found = counts.find(file.file);
    if (found == counts.end()) continue;
    const LineCounts& lines = found->second;
    std::uint64_t hottest = 1;
    for (const auto& [_, c] : lines) hottest = std::max<std::uint64_t>(hottest, c.front().misses());
    std::vector<std::string> text = linesOf(file.text);
    std::size_t shown = std::min(text.size(), in.maxSourceLines);
    if (shown < text.size()) {
      std::string message = fmt::format("{}: the heat map shows the first {} of {} lines", file.file, number(shown), number(text.size()));
      warnings.push_back(message);
      out += "<p class=\"warning\">" + escape(message) + "</p>\n";
    }
    out += fmt::format("<h3>{}</h3>\n<table class=\"source\"><thead><tr><th class=\"num\">line</th><th class=\"num\">accesses</th>"
                       "<th class=\"num\">{} misses</th><th class=\"num\">{} misses</th><th>code</th></tr></thead><tbody>\n",
                       escape(file.file), escape(in.result.levels.front()), escape(in.result.levels.back()));
    for (std::size_t i = 0; i < shown; ++i) {
      auto c = lines.find(i + 1);
      if (c == lines.end()) {
        out += fmt::format("<tr><td class=\"num\">{}</td><td></td><td></td><td></td><td><code>{}</code></td></tr>\n", i + 1, escape(text[i]));
        continue;
      }
      const sim::LevelCounts& first = c->second.front();
      const sim::LevelCounts& last = c->second.at(levels - 1);
      out += fmt::format("<tr style=\"background:{}\"><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
                         "<td><code>{}</code></td></tr>\n",
                         heat(static_cast<double>(first.misses()) / static_cast<double>(hottest)), i + 1, number(first.accesses()), number(first.misses()),
                         number(last.misses()), escape(text[i]));
    }
    out += "</tbody></table>\n";
  }
  return out + "</section>\n";
}

}  // namespace cats::report::html
