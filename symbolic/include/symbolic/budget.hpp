// Named limits on symbolic work: when one is exceeded the result is Unknown, not a hang.
#pragma once

#include "symbolic/expr.hpp"

#include <cstddef>
#include <optional>

namespace cats::sym {

struct Budget {
  std::size_t maxNodes = 20000;      // size of an expression tree we agree to expand
  std::size_t maxTerms = 4096;       // terms of an expanded sum
  long maxExpandedPower = 8;         // largest exponent of a sum we multiply out
};

std::size_t nodeCount(const Expr& e);
/// expand(e) unless that would exceed "budget"; nullopt then.
std::optional<Expr> expandWithin(const Expr& e, const Budget& budget);

}  // namespace cats::sym
