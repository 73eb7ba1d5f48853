// What the dependences mean for loops and nests (parallel, reduction, permutable band, fusion),
// and the dependence graph's recurrences. Private to the symbolic library.
#pragma once

#include "isl_adapter.hpp"
#include "symbolic/dependences.hpp"

namespace cats::sym::deps_detail {

/// Fills out.loops, nests, fusion, recurrences and nestOrder from out.dependences.
void summarise(const isl_adapter::Ctx& ctx, const std::vector<DepStatement>& statements, Dependences& out);

}  // namespace cats::sym::deps_detail
