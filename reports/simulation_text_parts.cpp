#include "simulation_text_parts.hpp"

#include "note_groups.hpp"

#include <fmt/format.h>

namespace cats::report {

bool functionsMove(const sim::CompilationPlan* plan) {
  if (!plan) return false;
  for (const auto& d : plan->calls)
    if (d.inlined) return true;
  return false;
}

std::string cutRowsLine(const std::vector<Group>& groups, std::size_t rows, const std::vector<std::string>& levels, const std::string& whose) {
  if (rows == 0 || groups.size() <= rows) return "";
  std::string misses;
  for (std::size_t k = 0; k < levels.size(); ++k) {
    std::uint64_t sum = 0;
    for (std::size_t g = rows; g < groups.size(); ++g) sum += k < groups[g].levels.size() ? groups[g].levels[k].misses() : 0;
    misses += fmt::format("{}{} {}", k == 0 ? "" : ", ", sum, levels[k]);
  }
  return fmt::format("  ... {} more with {} misses{} in all (--rows 0 lists every one)\n", groups.size() - rows, misses, whose);
}

std::string notesAndModelText(const std::vector<std::string>& notes, const trace::Trace& trace, const sim::CompilationPlan* plan,
                              bool explainModel) {
  std::string out;
  if (!notes.empty()) {
    out += "\nNotes (\"~\" marks groups a modelled guess went into)\n";
    for (const auto& line : groupedNotes(notes)) out += "  - " + line + "\n";
  }
  if (plan && explainModel) out += "\n" + compilerModelText(trace, *plan);
  return out;
}

std::string modelLabel(const sim::CompilationPlan* plan, sim::RegisterModel model) {
  return plan ? plan->target.label() : model == sim::RegisterModel::O0 ? "O0" : "O2";
}

std::string loaderLine(const sim::SimulationResult& r, const std::string& indent) {
  if (r.boundFunctions.empty() || r.loader.empty()) return "";
  std::string misses;
  for (std::size_t k = 0; k < r.levels.size() && k < r.loader.size(); ++k)
    misses += fmt::format("{}{} {}", k == 0 ? "" : " / ", r.levels[k], r.loader[k].misses());
  return fmt::format("  {}loader: {} bound lazily by ld.so: {} accesses, misses {} (not in the totals)\n", indent,
                     fmt::join(r.boundFunctions, ", "),
                     r.loader.front().accesses(), misses);
}

}  // namespace cats::report
