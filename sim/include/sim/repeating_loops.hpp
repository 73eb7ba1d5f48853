// Loops whose every iteration makes the same accesses: a time loop whose body never names its
// counter, a repetition loop around a kernel. The stream marks where their iterations start so
// that simulate() can warp over iterations that repeat (docs/performance.md, "Warping").
#pragma once

#include "sim/program.hpp"

namespace cats::sim {

/// True if nothing in "loop"'s header and body depends on its counter or on data (accesses,
/// bounds, conditions, sizes) and the body allocates nothing that could move from one iteration
/// to the next: static arrays and stack arrays of inlined frames only (the stack is reset when a
/// frame ends), no heap blocks.
bool iterationsRepeat(const Program& program, const LoopOp& loop);

}  // namespace cats::sim
