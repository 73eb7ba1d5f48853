// The loop half of the compiler model: which accesses stay in registers across which loop,
// which are reloaded every iteration, and which loops GCC or Clang vectorise, by how much.
// Private to sim/compiler.
#pragma once

#include "view.hpp"

namespace cats::sim::compiler {

/// Fills the vectoriser fields of "plan.loops" (constantTrips already there, from "view") and
/// the promotion decisions of "plan.accesses" for "contexts" compiled for "plan.target".
void decideLoops(const trace::Trace& contexts, const CompilerView& view, CompilationPlan& plan);

}  // namespace cats::sim::compiler
