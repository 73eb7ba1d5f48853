// Pieces both simulation text reports (one configuration, several in one pass) end with.
#pragma once

#include "reports/simulation.hpp"

#include <string>
#include <vector>

namespace cats::report {

/// Whether inlining moved some code into another function of the binary (then the text report
/// shows both views of functions).
bool functionsMove(const sim::CompilationPlan* plan);

/// The compiler modelled, as the reports head it: the plan's target ("gcc -O2"), else the register model.
std::string modelLabel(const sim::CompilationPlan* plan, sim::RegisterModel model);

/// The notes, then with --explain-model what the compiler model assumed.
std::string notesAndModelText(const std::vector<std::string>& notes, const trace::Trace& trace, const sim::CompilationPlan* plan,
                              bool explainModel);

}  // namespace cats::report
