// Text tables of a simulation: the hierarchy, totals per level, then one grouping.
#include "reports/simulation.hpp"
#include "reports/simulation_observations.hpp"

#include "simulation_text_parts.hpp"

#include <fmt/format.h>

namespace cats::report {

namespace {

std::string percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? "-" : fmt::format("{:.2f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

/* One table of the groups "by" makes. */
std::string groupTable(const SimulationReportInput& in, GroupBy by) {
  const auto& r = in.result;
  std::string out = fmt::format("\nBy {} (sorted by {} misses)\n", toString(by), r.levels.empty() ? "" : r.levels[0]);
  std::string header = fmt::format("  {:<48}", toString(by));
  for (const auto& name : r.levels) header += fmt::format(" {:>12} {:>12} {:>8}", name + " accesses", name + " misses", "miss %");
  out += header + "\n";
  const std::vector<Group> groups = groupEvents(in.trace, r, by, in.plan);
  for (std::size_t i = 0; i < groups.size() && rowShown(i, in.rows); ++i) {
    const Group& g = groups[i];
    std::string name = g.name.size() > 46 ? g.name.substr(0, 45) + "~" : g.name;
    std::string line = fmt::format("  {:<48}", name + (g.approximate ? " ~" : ""));
    for (const auto& c : g.levels) line += fmt::format(" {:>12} {:>12} {:>8}", c.accesses(), c.misses(), percent(c.misses(), c.accesses()));
    out += line + "\n";
  }
  return out + cutRowsLine(groups, in.rows, r.levels);
}

}  // namespace

std::string simulationText(const SimulationReportInput& in, GroupBy by) {
  const auto& r = in.result;
  std::string model = modelLabel(in.plan, in.model);
  std::string out = fmt::format("cats-static simulation: {} accesses, model {}{}\n", r.accesses, model,
                                r.approximate ? "  (approximate: see notes)" : "");
  for (const auto& l : in.config.levels)
    out += fmt::format("  {:<4} {} B, {}-way, {} B lines, {}, {}, {}\n", l.name, l.sizeBytes,
                       l.associativity == 0 ? std::string("fully") : std::to_string(l.associativity), l.lineBytes,
                       cache::toString(l.replacement), cache::toString(l.write), cache::toString(l.allocate));
  out += fmt::format("  hierarchy: {}\n\nTotals\n", cache::toString(in.config.inclusion));
  out += fmt::format("  {:<5} {:>13} {:>13} {:>12} {:>12} {:>8} {:>11} {:>11} {:>11} {:>11}\n", "level", "reads", "writes", "read misses",
                     "write misses", "miss %", "cold", "capacity", "conflict", "write-backs");
  for (std::size_t k = 0; k < r.levels.size(); ++k) {
    const auto& t = r.totals[k];
    bool classified = in.config.classifyMisses;
    out += fmt::format("  {:<5} {:>13} {:>13} {:>12} {:>12} {:>8} {:>11} {:>11} {:>11} {:>11}\n", r.levels[k], t.reads, t.writes,
                       t.readMisses, t.writeMisses, percent(t.misses(), t.accesses()), classified ? std::to_string(t.missClass[0]) : "-",
                       classified ? std::to_string(t.missClass[1]) : "-", classified ? std::to_string(t.missClass[2]) : "-",
                       r.levelStats[k].writebacks);
  }
  out += fmt::format("  memory: {} B read, {} B written\n", r.memory.readBytes, r.memory.writeBytes);
  out += loaderLine(r);

  out += groupTable(in, by);
  if (by == GroupBy::Function && functionsMove(in.plan)) out += groupTable(in, GroupBy::CompiledFunction);
  out += observationsText(observationsOf(in));
  return out + notesAndModelText(r.notes, in.trace, in.plan, in.explainModel);
}

}  // namespace cats::report
