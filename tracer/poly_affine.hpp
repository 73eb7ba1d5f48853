// Whether an expression is affine in the polyhedral sense (isl can read it): a sum of rational
// multiples of allowed symbols, with idiv/imod by positive integer constants and min/max of
// affine operands. Private to tracer/ (poly_model.cpp, poly_domain.cpp).
#pragma once

#include "symbolic/expr.hpp"

#include <optional>
#include <set>
#include <string>

namespace cats::trace {

/// Why "e" is not affine in "dims" (iterators in scope) and the Parameter symbols of "ctx";
/// nullopt when it is. Reasons name the culprit: "indirect via col", "unknown value unknown_x
/// (value assigned to x at a.c:3:5)", "non-affine product i*n".
std::optional<std::string> nonAffineReason(const sym::Expr& e, const std::set<std::string>& dims, const sym::Context& ctx);

}  // namespace cats::trace
