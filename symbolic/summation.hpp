// Symbolic summation of polynomials over the integer points of a polytope, one dimension at a
// time (innermost first), in GiNaC: the counting method of docs/polyhedral.md. Pure math on our
// value types; private to the symbolic library (isl is reached through a callback).
#pragma once

#include "symbolic/polyhedral.hpp"

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cats::sym::counting {

/// Why summation cannot proceed (a non-unit coefficient it cannot split, too many pieces, an
/// unbounded dimension): the caller falls back to interpolation.
class SummationFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// sum_{v = lo}^{hi} f for a polynomial "f" in "v" (Faulhaber with GiNaC's Bernoulli numbers);
/// the polynomial identity holds for every hi >= lo - 1 (0 at hi = lo - 1).
Expr sumPolynomial(const Expr& f, const Symbol& v, const Expr& lo, const Expr& hi);

/// floor(numerator / denominator) with floor semantics even for a negative numerator (GiNaC's
/// idiv folds numbers by C truncation, so numbers are folded here).
Expr floorDiv(const Expr& numerator, std::int64_t denominator);

/// A summand valid where every constraint of "domain" (over parameters and floors) holds.
struct RawPiece {
  std::vector<Constraint> domain;
  Expr value = 0;
};

/// A floor of parameters introduced for a bound with a non-unit coefficient: symbol =
/// floor(numerator / denominator), numerator over the parameters and earlier floors.
struct ParamFloor {
  Symbol symbol;
  Expr numerator;
  std::int64_t denominator = 1;
};

/// Whether { vars : constraints } over "params" is empty (isl decides).
using EmptinessTest =
    std::function<bool(const std::vector<Symbol>& vars, const std::vector<Symbol>& params,
                       const std::vector<Constraint>& constraints)>;

class Summation {
 public:
  Summation(std::vector<Symbol> params, EmptinessTest isEmpty, std::size_t maxPieces = 200);

  /// Pieces of sum_{points of { vars : constraints }} summand; "vars" outermost first,
  /// constraints affine with integer coefficients in vars, parameters and floors. Throws
  /// SummationFailure.
  std::vector<RawPiece> sum(std::vector<Symbol> vars, std::vector<Constraint> constraints, const Expr& summand);
  /// "e" with every floor symbol replaced by its definition (floorDiv of parameters).
  Expr expandFloors(const Expr& e) const;

 private:
  struct Bound {
    Expr value;
    bool lower = false;
  };
  void sumInto(std::vector<Symbol> vars, std::vector<Constraint> constraints, Expr summand,
               std::vector<RawPiece>& out);
  bool eliminateEquality(std::vector<Symbol>& vars, std::vector<Constraint>& constraints, Expr& summand);
  std::optional<std::size_t> pickDimension(const std::vector<Symbol>& vars,
                                           const std::vector<Constraint>& constraints) const;
  /// v >= bound or v <= bound from "c"; a non-unit coefficient a of v divides the coefficients
  /// of "others" in c (pickDimension), so the bound is theirs over a plus a floor of parameters.
  Bound boundOf(const Constraint& c, const Symbol& v, const std::vector<Symbol>& others);
  /// A variable of "others" whose coefficient in "c" the non-unit coefficient of "v" does not divide.
  std::optional<Symbol> nonDivisibleVariable(const Constraint& c, const Symbol& v, const std::vector<Symbol>& others) const;
  /// Sums with such a variable w (of the innermost dimension's constraints) split into its residue
  /// classes w = m*w' + r, after which the coefficient divides.
  void splitResidue(const std::vector<Symbol>& vars, const std::vector<Constraint>& constraints, const Expr& summand,
                    std::vector<RawPiece>& out);
  Expr floorSymbolOrNumber(const Expr& numerator, std::int64_t denominator);
  bool feasible(const std::vector<Symbol>& vars, const std::vector<Constraint>& constraints) const;

  std::vector<Symbol> params_;
  EmptinessTest isEmpty_;
  std::size_t maxPieces_;
  std::size_t pieces_ = 0;
  std::size_t splits_ = 0;
  static constexpr std::size_t maxSplits = 64;
  std::vector<ParamFloor> floors_;
};

}  // namespace cats::sym::counting
