// The four access classes of DESIGN.md, decided on a symbolic byte offset.
#pragma once

#include "symbolic/budget.hpp"
#include "tracer/trace.hpp"

#include <optional>
#include <vector>

namespace cats::trace {

/// A loop around an access, outermost first.
struct EnclosingLoop {
  std::optional<sym::Symbol> iterator;  // none for opaque loops
  sym::Expr step = 1;
  std::vector<sym::Symbol> varying;     // iterator and values changing per iteration
};

/// Classifies "offset" (bytes, in the symbols of "ctx") of an access of "bytes" bytes.
Classification classify(const sym::Expr& offset, std::int64_t bytes, const std::vector<EnclosingLoop>& loops,
                        const sym::Context& ctx, const sym::Budget& budget = {});

}  // namespace cats::trace
