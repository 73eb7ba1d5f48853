// Small loops with constant bounds written out before streaming (docs/performance.md, "Small
// loops written out"): the accesses of a loop of a few iterations, in the same order, become
// straight-line code of the block around it. The stream then no longer enters, counts and
// leaves such a loop once per iteration of the loop around it (kmeans' `for (d < 8)` inside
// `for (c < 8)` inside `for (i < n)`), and the loop around it may become a leaf that runs on
// the stream's fast paths.
#pragma once

#include "sim/program.hpp"

namespace cats::sim {

/// Whether "program" has a loop flattenSmallLoops writes out. "keepLibraryLoops": not the
/// library calls the compiler made of loops (the stream binds each at its first call: lazy binding).
bool hasSmallLoops(const Program& program, bool keepLibraryLoops = false);

/// "program" with those loops written out: it streams the same records.
Program flattenSmallLoops(Program program, bool keepLibraryLoops = false);

}  // namespace cats::sim
