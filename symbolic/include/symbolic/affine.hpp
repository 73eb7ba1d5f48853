// Affine decomposition of a byte offset over the loop iterators around it.
#pragma once

#include "symbolic/budget.hpp"
#include "symbolic/expr.hpp"

#include <utility>
#include <vector>

namespace cats::sym {

/// offset = sum(coefficient_i * iterator_i) + parameterPart + nonAffinePart + indirectPart
struct AffineForm {
  std::vector<std::pair<Symbol, Expr>> coefficients;  // iterators with a non-zero coefficient
  Expr parameterPart = 0;  // numbers and parameters only
  Expr nonAffinePart = 0;  // products of iterators, iterator powers, idiv of iterators, ...
  Expr indirectPart = 0;   // terms holding a loaded value or an unknown
  bool exceededBudget = false;

  bool isAffine() const { return nonAffinePart.is_zero() && indirectPart.is_zero() && !exceededBudget; }
  Expr coefficientOf(const Symbol& iterator) const;
};

/// Decomposes "offset" (bytes, in the symbols of "ctx") over "iterators".
AffineForm decompose(const Expr& offset, const std::vector<Symbol>& iterators, const Context& ctx,
                     const Budget& budget = {});

}  // namespace cats::sym
