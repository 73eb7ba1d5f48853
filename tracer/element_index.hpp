// What the padding and layout variants both ask of an access to an array: which element it
// reaches, from its subscripts, so that its offset can be recomputed in a new layout.
#pragma once

#include "tracer/trace.hpp"

#include <optional>
#include <vector>

namespace cats::trace {

/// Row-major element index of "subscripts" in an array of "dims" (as many as subscripts; the
/// outermost dimension does not enter).
inline sym::Expr linearIndex(const std::vector<sym::Expr>& subscripts, const std::vector<sym::Expr>& dims) {
  sym::Expr index = 0;
  for (std::size_t d = 0; d < subscripts.size(); ++d) index = index * dims[d] + subscripts[d];
  return index;
}

/// The element of "c" that access "e" reaches: its first subscripts, one per dimension of "c"
/// (one for memory reached through a pointer, which has no dimensions); the subscripts after
/// them index inside the element (an array field). None when "e" has fewer subscripts.
inline std::optional<sym::Expr> elementIndex(const Event& e, const Container& c) {
  const std::size_t rank = c.dims.empty() ? 1 : c.dims.size();
  if (e.subscripts.size() < rank) return std::nullopt;
  if (c.dims.empty()) return e.subscripts.front();
  return linearIndex({e.subscripts.begin(), e.subscripts.begin() + static_cast<std::ptrdiff_t>(rank)}, c.dims);
}

}  // namespace cats::trace
