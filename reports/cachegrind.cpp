// The simulation as a Cachegrind profile (`cachegrind.out`, docs/cachegrind-format.md): the
// predicted data accesses and misses of every source line, read by cg_annotate and KCachegrind.
#include "reports/simulation.hpp"
#include "simulation_text_parts.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace cats::report {

namespace {

/* The events' prefix of level "k" of "names": D1 first and DL last, as Cachegrind names its
   first and last data caches; a level between keeps its own name (L2mr, L2mw). */
std::string levelPrefix(const std::vector<std::string>& names, std::size_t k) {
  if (k == 0) return "D1";
  if (k + 1 == names.size()) return "DL";
  std::string name = names[k];
  std::replace_if(name.begin(), name.end(), [](char c) { return c == ' ' || c == '\t'; }, '_');
  return name;
}

/* Cachegrind's description of a cache, "D1 cache: 32768 B, 64 B, 8-way associative", plus what
   Cachegrind does not model. */
std::string describe(const cache::LevelConfig& l) {
  std::string ways = l.associativity == 0 ? std::string("fully associative") : fmt::format("{}-way associative", l.associativity);
  return fmt::format("desc: {} cache: {:>12} B, {} B, {}, {}, {}, {}\n", l.name, l.sizeBytes, l.lineBytes, ways, cache::toString(l.replacement),
                     cache::toString(l.write), cache::toString(l.allocate));
}

/* One line's counts in the order of the `events:` line. */
std::string costLine(const std::vector<sim::LevelCounts>& levels) {
  std::string out = fmt::format("{} {}", levels.front().reads, levels.front().writes);
  for (const sim::LevelCounts& c : levels) out += fmt::format(" {} {}", c.readMisses, c.writeMisses);
  return out;
}

}  // namespace

std::string cachegrindOut(const SimulationReportInput& in, const std::string& command) {
  const sim::SimulationResult& r = in.result;
  std::string out;
  for (const auto& level : in.config.levels) out += describe(level);
  out += fmt::format("desc: cats-static prediction ({}), not a measurement: data accesses only, no instruction fetches\n",
                     modelLabel(in.plan, in.model));
  out += "cmd: " + command + "\n";
  out += "events: Dr Dw";
  for (std::size_t k = 0; k < r.levels.size(); ++k) out += fmt::format(" {0}mr {0}mw", levelPrefix(r.levels, k));
  out += "\n";
  std::string file, function;  // empty: no block yet (a cost's names are never empty)
  for (const LineCost& cost : lineCosts(in.trace, r, in.plan)) {
    const std::string costFile = cost.file.empty() ? "???" : cost.file;
    const std::string costFunction = cost.function.empty() ? "???" : cost.function;
    if (costFile != file) out += "fl=" + costFile + "\n";
    if (costFile != file || costFunction != function) out += "fn=" + costFunction + "\n";
    file = costFile;
    function = costFunction;
    out += fmt::format("{} {}\n", cost.line, costLine(cost.levels));
  }
  out += "summary: " + costLine(r.totals) + "\n";
  return out;
}

}  // namespace cats::report
