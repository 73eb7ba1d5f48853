// malloc + a loop zeroing the whole block -> calloc, as GCC 12 (-ftree-loop-distribute-patterns,
// then the malloc/memset fold) and Clang 14 (loop idiom, then the same fold) do from -O2.
// Private to sim/compiler.
#pragma once

#include "sim/compiler.hpp"

namespace cats::sim::compiler {

/// Fills "plan.callocs" for "contexts" compiled for "plan.target" (calls already decided).
void decideCallocFolds(const trace::Trace& contexts, CompilationPlan& plan);

}  // namespace cats::sim::compiler
