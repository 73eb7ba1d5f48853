#include "simulation_text_parts.hpp"

namespace cats::report {

bool functionsMove(const sim::CompilationPlan* plan) {
  if (!plan) return false;
  for (const auto& d : plan->calls)
    if (d.inlined) return true;
  return false;
}

std::string notesAndModelText(const std::vector<std::string>& notes, const trace::Trace& trace, const sim::CompilationPlan* plan,
                              bool explainModel) {
  std::string out;
  if (!notes.empty()) {
    out += "\nNotes (\"~\" marks groups a modelled guess went into)\n";
    for (const auto& n : notes) out += "  - " + n + "\n";
  }
  if (plan && explainModel) out += "\n" + compilerModelText(trace, *plan);
  return out;
}

std::string modelLabel(const sim::CompilationPlan* plan, sim::RegisterModel model) {
  return plan ? plan->target.label() : model == sim::RegisterModel::O0 ? "O0" : "O2";
}

}  // namespace cats::report
