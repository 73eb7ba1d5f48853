// Pieces both simulation text reports (one configuration, several in one pass) end with.
#pragma once

#include "reports/simulation.hpp"

#include <string>
#include <vector>

namespace cats::report {

/// Whether inlining moved some code into another function of the binary (then the text report
/// shows both views of functions).
bool functionsMove(const sim::CompilationPlan* plan);

/// The notes, then with --explain-model what the compiler model assumed.
std::string notesAndModelText(const std::vector<std::string>& notes, const trace::Trace& trace, const sim::CompilationPlan* plan,
                              bool explainModel);

}  // namespace cats::report
