// Loops whose every iteration makes the same accesses: a time loop whose body never names its
// counter, a repetition loop around a kernel. The stream marks where their iterations start so
// that simulate() can warp over iterations that repeat (docs/performance.md, "Warping").
#pragma once

#include "sim/program.hpp"

#include <optional>
#include <vector>

namespace cats::sim {

/// True if nothing in "loop"'s header and body depends on its counter or on data (accesses,
/// bounds, conditions, sizes) and the body allocates nothing that could move from one iteration
/// to the next: static arrays and stack arrays of inlined frames only (the stack is reset when a
/// frame ends), no heap blocks.
bool iterationsRepeat(const Program& program, const LoopOp& loop);

/// An access of a loop whose offset moves with the loop's counter.
struct MovingAccess {
  const AccessOp* access = nullptr;  // its offset is linear
  std::int64_t bytesPerStep = 0;     // the coefficient of the loop's counter
  std::uint64_t innerGcd = 0;        // gcd of the coefficients of the counters of loops inside (0: none)
};

/// For a loop whose iterations make the same accesses as iterationsRepeat() asks, except that
/// some offsets are linear in its counter: those accesses (none if the loop repeats). Such
/// iterations use the same lines in the same order as long as every moving access stays within
/// its line for every iteration of the loops inside (docs/performance.md, "Line runs of outer
/// iterations"). nullopt: the loop is not of that kind.
std::optional<std::vector<MovingAccess>> movingAccesses(const Program& program, const LoopOp& loop);

}  // namespace cats::sim
