// Values the compiler already holds in a register within one loop iteration: reads of an
// address read or written earlier in the iteration (common subexpressions across an if's
// condition and its arms, store-to-load forwarding), and one store for a store every arm of a
// complete if/else makes. Private to sim/compiler.
#pragma once

#include "view.hpp"

namespace cats::sim::compiler {

/// Adds Reused and Sunk decisions to "plan.accesses" (events without a decision yet).
void decideReuse(const trace::Trace& contexts, const CompilerView& view, CompilationPlan& plan);

}  // namespace cats::sim::compiler
