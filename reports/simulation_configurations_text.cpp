// Text tables of a one-pass simulation of several configurations: each hierarchy under its
// number, the totals per configuration, then one grouping with a column set per configuration.
#include "reports/simulation.hpp"

#include "simulation_text_parts.hpp"

#include <fmt/format.h>

#include <map>

namespace cats::report {

namespace {

constexpr std::size_t kLevelWidth = 34;  // " {:>12} {:>12} {:>8}": one level's columns in a group table

std::string percent(std::uint64_t part, std::uint64_t whole) {
  return whole == 0 ? "-" : fmt::format("{:.2f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

/* "[n] label" cut to "width" columns (the last kept one "~"), padded to it. */
std::string heading(std::size_t n, const std::string& label, std::size_t width) {
  std::string text = fmt::format("[{}] {}", n, label);
  if (text.size() > width) text = text.substr(0, width - 1) + "~";
  return fmt::format("{:<{}}", text, width);
}

std::string hierarchyText(std::size_t n, const cache::HierarchyConfig& config) {
  std::string out;
  std::string number = fmt::format("[{}]", n);
  for (const auto& l : config.levels) {
    out += fmt::format("  {:<5} {:<4} {} B, {}-way, {} B lines, {}, {}, {}\n", number, l.name, l.sizeBytes,
                       l.associativity == 0 ? std::string("fully") : std::to_string(l.associativity), l.lineBytes,
                       cache::toString(l.replacement), cache::toString(l.write), cache::toString(l.allocate));
    number.clear();
  }
  return out + fmt::format("  {:<5} hierarchy: {}\n", "", cache::toString(config.inclusion));
}

std::string totalsText(const ConfigurationsReportInput& in) {
  std::string out = fmt::format("\nTotals\n  {:<6} {:<5} {:>13} {:>13} {:>12} {:>12} {:>8} {:>11} {:>11} {:>11} {:>11}\n", "config", "level",
                                "reads", "writes", "read misses", "write misses", "miss %", "cold", "capacity", "conflict", "write-backs");
  for (std::size_t c = 0; c < in.results.size(); ++c) {
    const sim::SimulationResult& r = in.results[c];
    const bool classified = in.configs[c].classifyMisses;
    std::string number = fmt::format("[{}]", c + 1);
    for (std::size_t k = 0; k < r.levels.size(); ++k) {
      const auto& t = r.totals[k];
      out += fmt::format("  {:<6} {:<5} {:>13} {:>13} {:>12} {:>12} {:>8} {:>11} {:>11} {:>11} {:>11}\n", number, r.levels[k], t.reads, t.writes,
                         t.readMisses, t.writeMisses, percent(t.misses(), t.accesses()), classified ? std::to_string(t.missClass[0]) : "-",
                         classified ? std::to_string(t.missClass[1]) : "-", classified ? std::to_string(t.missClass[2]) : "-",
                         r.levelStats[k].writebacks);
      number.clear();
    }
    out += fmt::format("  {:<6} memory: {} B read, {} B written\n", "", r.memory.readBytes, r.memory.writeBytes);
    out += loaderLine(r, fmt::format("{:<6} ", ""));
  }
  return out;
}

/* One table of the groups "by" makes, in the first configuration's order, a column set per configuration. */
std::string groupTable(const ConfigurationsReportInput& in, GroupBy by) {
  std::vector<std::map<std::string, Group>> groups(in.results.size());
  for (std::size_t c = 1; c < in.results.size(); ++c)
    for (Group& g : groupEvents(in.trace, in.results[c], by, in.plan)) groups[c].emplace(g.name, std::move(g));
  const auto& first = in.results.front();
  std::string out = fmt::format("\nBy {} (sorted by {} misses of [1])\n", toString(by), first.levels.empty() ? "" : first.levels[0]);
  std::string names = fmt::format("  {:<48}", "");
  std::string header = fmt::format("  {:<48}", toString(by));
  for (std::size_t c = 0; c < in.results.size(); ++c) {
    names += " " + heading(c + 1, configurationLabel(in.configs[c]), kLevelWidth * in.results[c].levels.size() - 1);
    for (const auto& name : in.results[c].levels) header += fmt::format(" {:>12} {:>12} {:>8}", name + " accesses", name + " misses", "miss %");
  }
  names.erase(names.find_last_not_of(' ') + 1);
  out += names + "\n" + header + "\n";
  const std::vector<Group> firstGroups = groupEvents(in.trace, first, by, in.plan);
  for (std::size_t i = 0; i < firstGroups.size() && rowShown(i, in.rows); ++i) {
    const Group& g = firstGroups[i];
    std::string name = g.name.size() > 46 ? g.name.substr(0, 45) + "~" : g.name;
    std::string line = fmt::format("  {:<48}", name + (g.approximate ? " ~" : ""));
    for (std::size_t c = 0; c < in.results.size(); ++c) {
      const Group& own = c == 0 ? g : groups[c].at(g.name);
      for (const auto& n : own.levels) line += fmt::format(" {:>12} {:>12} {:>8}", n.accesses(), n.misses(), percent(n.misses(), n.accesses()));
    }
    out += line + "\n";
  }
  return out + cutRowsLine(firstGroups, in.rows, first.levels, " of [1]");
}

}  // namespace

std::string configurationLabel(const cache::HierarchyConfig& config) {
  std::string out;
  for (const auto& l : config.levels)
    out += fmt::format("{}{} {}/{}/{}", out.empty() ? "" : " ", l.name, cache::formatByteSize(l.sizeBytes),
                       l.associativity == 0 ? std::string("full") : std::to_string(l.associativity), l.lineBytes);
  return out;
}

std::string simulationText(const ConfigurationsReportInput& in, GroupBy by) {
  const auto& r = in.results.front();
  std::string model = modelLabel(in.plan, in.model);
  std::string out = fmt::format("cats-static simulation: {} accesses, model {}, {} configurations in one pass{}\n", r.accesses, model,
                                in.results.size(), r.approximate ? "  (approximate: see notes)" : "");
  for (std::size_t c = 0; c < in.configs.size(); ++c) out += hierarchyText(c + 1, in.configs[c]);
  out += totalsText(in);
  out += groupTable(in, by);
  if (by == GroupBy::Function && functionsMove(in.plan)) out += groupTable(in, GroupBy::CompiledFunction);
  return out + notesAndModelText(r.notes, in.trace, in.plan, in.explainModel);
}

}  // namespace cats::report
