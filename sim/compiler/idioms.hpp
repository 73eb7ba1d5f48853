// The memset/memcpy idioms of GCC 12 (loop distribution, -ftree-loop-distribute-patterns, -O2
// and up) and Clang 14 (LoopIdiomRecognize, -O1 and up): a loop that only stores a byte-splat
// constant over a contiguous range becomes a memset call, one that only copies another
// contiguous range a memcpy call. Private to sim/compiler.
#pragma once

#include "view.hpp"

namespace cats::sim::compiler {

/// Sets LoopDecision::replacedBy (and clears the vectoriser's fields) for the loops of
/// "contexts" that "plan.target" turns into a library call.
void decideIdioms(const trace::Trace& contexts, const CompilerView& view, CompilationPlan& plan);

}  // namespace cats::sim::compiler
