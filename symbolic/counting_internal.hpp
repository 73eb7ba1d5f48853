// The steps countPoints, countImage and countLines share (private to the symbolic library).
#pragma once

#include "isl_adapter.hpp"
#include "summation.hpp"

#include <functional>

namespace cats::sym::counting {

/// The count at fixed parameter values (an isl enumeration); throws on failure.
using Enumerator = std::function<std::int64_t(const ParamValues&)>;

/// The summed pieces (possibly overlapping: values add up) as a disjoint piecewise count whose
/// domains isl merged (equal values) and simplified.
PiecewiseCount finalize(const isl_adapter::Ctx& ctx, const std::vector<RawPiece>& sumOfPieces,
                        const std::vector<Symbol>& params);

/// "pieces" split per residue class of the parameters modulo the divisors of their floors, where
/// every floor becomes a polynomial (unchanged when there is no floor or too many classes).
std::vector<RawPiece> splitResidues(const std::vector<RawPiece>& pieces, const std::vector<Symbol>& params);

/// Points of "set" { [dims] } over "params": summation, or interpolation of "enumerate" where
/// summation cannot proceed. Of the result with floors of parameters and the one split into
/// residue classes (polynomials), the easier one to read (printed length, a floor weighing 40
/// characters; ties: the polynomials).
PiecewiseCount countIslSet(const isl_adapter::Ctx& ctx, const isl::set& set, const std::vector<Symbol>& dims,
                           const std::vector<Symbol>& params, const Enumerator& enumerate, std::size_t maxPieces);

}  // namespace cats::sym::counting
