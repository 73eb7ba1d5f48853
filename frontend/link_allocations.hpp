// Allocation wrappers across the whole program (after every translation unit is lowered).
#pragma once

#include "ir/ir.hpp"
#include "symbolic/expr.hpp"

namespace cats::frontend {

/// Recognises allocation wrappers — functions whose returned pointer, or a pointer they store
/// through `*param`, is a block they allocate once (not in a loop) with a size in their
/// parameters and globals — and makes each call of one an allocation at the call site: the
/// caller's call-site container is allocated before the call with the size the arguments give,
/// and the wrapper receives it as an extra pointer parameter instead of allocating its own.
/// Wrappers of wrappers are found by repeating this. Pointers returned by other analysed
/// functions stay unknown memory, with a warning where they are accessed.
void linkAllocationWrappers(ir::Program& program, sym::Context& ctx);

}  // namespace cats::frontend
