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

/// "  <indent>loader: ..." naming the functions ld.so bound lazily and its own accesses and
/// misses, which are not in the totals; empty when nothing was bound.
std::string loaderLine(const sim::SimulationResult& r, const std::string& indent = "");

/// Whether a table of "count" groups cut at "rows" (0: no cut) shows group "index".
inline bool rowShown(std::size_t index, std::size_t rows) { return rows == 0 || index < rows; }

/// The line that ends a table of "groups" cut after "rows": how many more, and their misses per
/// level ("levels" names them, "whose" says whose they are if not the only configuration's);
/// empty when nothing was cut.
std::string cutRowsLine(const std::vector<Group>& groups, std::size_t rows, const std::vector<std::string>& levels, const std::string& whose = "");

/// The notes, then with --explain-model what the compiler model assumed.
std::string notesAndModelText(const std::vector<std::string>& notes, const trace::Trace& trace, const sim::CompilationPlan* plan,
                              bool explainModel);

}  // namespace cats::report
