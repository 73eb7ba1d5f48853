// Text of the requested statistics: misses per set, cross-context reuse, traffic between levels.
#include "reports/simulation_observations.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

namespace cats::report {

namespace {

/* One character per band, darker for more misses (" " none, "@" the most). */
std::string sparkBar(const std::vector<std::uint64_t>& bands) {
  static constexpr std::string_view kShades = " .:-=+*#%@";
  const std::uint64_t top = bands.empty() ? 0 : *std::max_element(bands.begin(), bands.end());
  std::string out;
  for (std::uint64_t b : bands) {
    const std::uint64_t shade = top == 0 ? 0 : (b * (kShades.size() - 1) + top - 1) / top;
    out += kShades[static_cast<std::size_t>(shade)];
  }
  return out;
}

std::string histogramText(const SetMissHistogram& h) {
  const std::size_t sets = h.misses.size();
  std::string out = fmt::format("  {:<5} {} sets, {} with misses; {} misses, mean {:.1f} per set, max {}", h.level, sets, h.setsWithMisses,
                                h.total, h.mean, h.max);
  if (h.mean > 0) out += fmt::format(" ({:.1f}x the mean)", static_cast<double>(h.max) / h.mean);
  out += "\n";
  if (!h.top.empty()) {
    std::string top;
    for (const auto& [set, misses] : h.top) top += fmt::format("{}set {}: {}", top.empty() ? "" : ", ", set, misses);
    out += fmt::format("        most missed: {}\n", top);
  }
  if (!h.bands.empty())
    out += fmt::format("        sets 0-{} in {} bands of {}: |{}|\n", sets - 1, h.bands.size(), sets / h.bands.size(), sparkBar(h.bands));
  return out;
}

std::string matrixText(const ReuseMatrix& m) {
  const std::uint64_t unknown = m.total - m.sameContext - m.crossContext;
  std::string out = fmt::format("\nCross-context reuse at {}: {} hits; {} in the context that brought the line in, {} in another", m.level,
                                m.total, m.sameContext, m.crossContext);
  if (unknown != 0) out += fmt::format(", {} on lines of unknown origin", unknown);
  out += "\n";
  if (m.contexts.empty()) return out;
  std::string header = fmt::format("  {:<22}", "filled by \\ hit by");
  for (std::size_t c = 0; c < m.contexts.size(); ++c) header += fmt::format(" {:>12}", fmt::format("[{}]", c + 1));
  out += header + "\n";
  for (std::size_t r = 0; r < m.contexts.size(); ++r) {
    std::string line = fmt::format("  {:<22}", fmt::format("[{}]", r + 1));
    for (std::uint64_t hits : m.hits[r]) line += fmt::format(" {:>12}", hits);
    out += line + "\n";
  }
  for (std::size_t c = 0; c < m.contexts.size(); ++c) out += fmt::format("  [{}] {}\n", c + 1, m.contexts[c]);
  return out;
}

std::string trafficText(const std::vector<LevelTraffic>& traffic) {
  std::string out = "\nTraffic (bytes across the boundary below each level)\n";
  out += fmt::format("  {:<16} {:>15} {:>15} {:>12} {:>16} {:>15}\n", "boundary", "up (fills)", "down", "write-backs", "write-back bytes",
                     "other down");
  for (const LevelTraffic& t : traffic)
    out += fmt::format("  {:<16} {:>15} {:>15} {:>12} {:>16} {:>15}\n", t.upper + " -> " + t.lower, t.fillBytes, t.downBytes, t.writebacks,
                       t.writebackBytes, t.otherDownBytes);
  out += "  other down: write-throughs, writes around a level, write-backs passed on from above, victims moved down (exclusive)\n";
  return out;
}

}  // namespace

std::string observationsText(const SimulationObservations& observations) {
  std::string out;
  if (!observations.setMisses.empty()) {
    out += "\nMisses per set (demand and write-back misses by set index)\n";
    for (const SetMissHistogram& h : observations.setMisses) out += histogramText(h);
  }
  for (const ReuseMatrix& m : observations.reuse) out += matrixText(m);
  if (!observations.traffic.empty()) out += trafficText(observations.traffic);
  return out;
}

}  // namespace cats::report
