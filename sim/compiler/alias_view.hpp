// The alias half of the compiler's view. Private to sim/compiler.
#pragma once

#include "view.hpp"

namespace cats::sim::compiler {

/// Fills view.objectOf, restrictPointer, accessTypes and strictAliasing; view.calls must be decided.
void viewAliases(const trace::Trace& contexts, const CompilerTarget& target, CompilerView& view);

}  // namespace cats::sim::compiler
