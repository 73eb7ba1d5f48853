// The miss model's view of a contexts trace (docs/polyhedral.md, "Miss model"): every loop with
// its bounds, every access as an affine walk (constant byte offset plus a byte stride per
// iteration of each enclosing loop), in the parameters; accesses with the same container, loops
// and strides form a reuse group (stencil neighbours differ only in the constant). Private to sim/.
#pragma once

#include "tracer/poly_model.hpp"
#include "tracer/trace.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cats::sim::miss {

struct LoopInfo {
  std::size_t scope = 0;
  std::optional<std::size_t> parent;  // enclosing loop (index into Nest::loops)
  sym::Symbol iterator;
  sym::Expr start = 0, bound = 0, step = 1;  // in the parameters and the outer loops' iterators
  ir::Comparison comparison = ir::Comparison::Less;
  std::string label;   // "loop j at kernel.c:3"
  std::string reason;  // non-empty: the model cannot use this loop (opaque, bounds from data)
  /// The iterator as start + step * counter, the outer iterators in the start replaced the same
  /// way: counters run 0, 1, ... in every loop, so a tile loop's start (i = ii) moves the walk.
  sym::Symbol counter;
  sym::Expr normalized = 0;
};

/// Accesses of one container that walk alike: same loops, same byte strides; they differ only in
/// their constant offsets ("members"), so their lines are shared (group reuse).
struct Group {
  std::size_t container = 0;
  std::vector<std::size_t> loops;   // indices into Nest::loops, outermost first
  std::vector<sym::Expr> strides;   // bytes per iteration of each loop (coefficient × step)
  std::vector<sym::Expr> offsets;   // distinct constant byte offsets of the members
  std::vector<std::size_t> events;
  std::int64_t elementBytes = 1;    // widest member access
  bool writeOnly = true;            // every member writes (no-write-allocate levels do not keep them)
  std::size_t accessesPerIteration = 0;  // member accesses per iteration of the innermost loop
};

/// An access (or a whole container) the model cannot describe, and why.
struct Undecided {
  std::size_t container = 0;
  std::size_t event = 0;
  std::string reason;
};

struct Nest {
  std::vector<LoopInfo> loops;  // parents before children
  std::vector<Group> groups;
  std::vector<Undecided> undecided;
};

/// The walks of every access event of "contexts" (TraceForm::Contexts). An access whose byte offset
/// is not affine in its loops' iterators (with coefficients in the parameters), or that depends on
/// data, becomes Undecided, with "model"'s reason for it when it has one. The model's other
/// non-affine accesses stay: a flat A[i*n + k] is a product of symbols for isl but a plain walk of
/// 8*n bytes per i for a cache.
Nest extractNest(const trace::Trace& contexts, const trace::PolyModel& model);

}  // namespace cats::sim::miss
