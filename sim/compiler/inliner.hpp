// The inliner and interprocedural constant propagation of the compiler's view. Private to sim/compiler.
#pragma once

#include "call_sites.hpp"
#include "sim/compiler.hpp"

#include <vector>

namespace cats::sim::compiler {

// Calibration of FunctionTraits against the compilers' own size estimates. GCC 12 -O2, fitted on
// tests/inputs/compiler/inline_sizes.c (docs/register-model.md): growths 17, 28, 43, 74 for
// bodies of 24, 34, 50, 80 statements (insns = statements - 6, growth = insns less the call and
// its arguments). Clang 14 -O2 prices the callee as simplified before inlining, so its cost is
// fitted on FunctionTraits::operations: 38 call sites of that file and the fidelity corpus at
// N = 40 and 400 (cost -30 to 805), cost = 3.84 per operation - 27, rms 34, median error 15.
inline constexpr double kGccInsnsPerStatement = 1.0;
inline constexpr int kGccBodyOffset = 6;      // statements of a body GCC does not count as insns (the frame, the return)
inline constexpr int kGccCallInsns = 1;       // a call statement's own size; each argument adds one
inline constexpr double kClangCostPerOperation = 3.84;
inline constexpr int kClangCallSaving = 27;   // the call and its arguments, no longer paid

/// One decision per Call scope of sites.contexts, in scope order: inlined or not, and why.
std::vector<CallDecision> decideInlining(const CallSites& sites, const CompilerTarget& target);

}  // namespace cats::sim::compiler
