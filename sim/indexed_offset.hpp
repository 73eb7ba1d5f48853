// A data-dependent byte offset split as `stride * index + rest`: the part that needs data
// (the index, one random draw per iteration) apart from the field offset and iterator terms.
#pragma once

#include "symbolic/expr.hpp"

#include <cstdint>

namespace cats::sim {

struct IndexedOffset {
  sym::Expr index;          // the data-dependent element index (loads, unknowns), without its stride
  std::int64_t stride = 1;  // bytes per index step: the element (struct) size
  sym::Expr rest;           // the terms that need no data: field offset, iterator terms
  bool unknown = false;     // the index holds an unknown symbol (a value the analysis lost)
};

/// Whether "e" holds a value loaded from memory or an unknown symbol (a value the analysis lost).
bool needsData(const sym::Expr& e, const sym::Context& ctx);

/// "offset" (bytes, depends on data) as stride * index + rest; the stride is the common
/// integer coefficient of the data terms, at least "accessBytes" (else the access size).
IndexedOffset splitIndexed(const sym::Expr& offset, const sym::Context& ctx, std::int64_t accessBytes);

}  // namespace cats::sim
