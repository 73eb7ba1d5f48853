// The fallback of counting: a quasi-polynomial fitted to enumerated counts (per residue class of
// the parameter modulo a period) and verified at extra points.
#pragma once

#include "counting_internal.hpp"

#include <string>

namespace cats::sym::counting {

/// A count of degree at most "degree" in the parameters, periodic with "period" in its
/// coefficients, fitted to "enumerate". One parameter (or none); "why" says why summation did
/// not answer (kept as the reason when interpolation cannot either).
PiecewiseCount interpolate(const std::vector<Symbol>& params, std::size_t degree, std::int64_t period,
                           const Enumerator& enumerate, const std::string& why);

}  // namespace cats::sym::counting
