// Calls through pointer parameters, resolved from what the callers pass (after lowering).
#pragma once

#include "ir/ir.hpp"

namespace cats::frontend {

/// A call through pointer parameter k of a function goes to the functions its callers pass
/// by name for k (one: a direct call; several: one branch arm each), when every call site of
/// the function passes one; otherwise it is dropped with a warning. Placeholders left by the
/// lowering (Call::throughParameter) are all replaced or removed here.
void linkParameterCalls(ir::Program& program);

}  // namespace cats::frontend
