// Integer sets and counting formulas as value types in GiNaC expressions: the vocabulary of the
// polyhedral model (docs/polyhedral.md). isl does the set algebra behind symbolic/isl_adapter.hpp;
// no isl type appears here.
#pragma once

#include "symbolic/expr.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cats::sym {

/// expr >= 0, or expr == 0. "expr" is affine in the set's dimensions, existentials and parameters
/// with rational coefficients; it may hold idiv/imod by integer constants and min/max.
struct Constraint {
  Expr expr = 0;
  bool equality = false;

  static Constraint atLeast(const Expr& lhs, const Expr& rhs) { return {lhs - rhs, false}; }   // lhs >= rhs
  static Constraint lessThan(const Expr& lhs, const Expr& rhs) { return {rhs - lhs - 1, false}; }  // lhs < rhs
  static Constraint equal(const Expr& lhs, const Expr& rhs) { return {lhs - rhs, true}; }
  /// "expr >= 0" or "expr = 0", for reports.
  std::string str() const { return print(expr) + (equality ? " = 0" : " >= 0"); }
};

/// { name[dims] : exists existentials : constraints } over "params": an iteration domain, or the
/// image of one (elements touched). Symbols are those of the trace's sym::Context.
struct IntegerSet {
  std::string name;                 // tuple name: a statement ("S3") or a container ("A")
  std::vector<Symbol> dims;         // set dimensions, outermost first
  std::vector<Symbol> existentials; // e.g. t in i = start + step*t for a strided loop
  std::vector<Symbol> params;       // free parameters the constraints use, sorted by name
  std::vector<Constraint> constraints;
};

/// Parameter values by symbol name.
using ParamValues = std::map<std::string, std::int64_t>;

/// A quasi-polynomial of the parameters valid where every constraint of "domain" holds
/// (constraints over parameters only). "value" and "domain" may hold idiv/imod of parameters:
/// in counts these are floor division and the non-negative remainder (isl's floor and mod; C's
/// truncation differs for a negative dividend), so evaluate with PiecewiseCount::evaluate, not
/// with GiNaC's subs (which folds idiv of numbers by truncation). Residue classes read
/// "imod(N, 3) == 1".
struct CountPiece {
  std::vector<Constraint> domain;
  Expr value = 0;
};

/// A piecewise quasi-polynomial: pieces are disjoint; outside every piece the count is 0.
struct PiecewiseCount {
  std::vector<CountPiece> pieces;
  std::vector<Symbol> params;
  /// How it was derived: "summation" (exact, symbolic), "interpolation" (fitted to isl counts
  /// and verified at extra points), or "" when there is no formula (see "reason").
  std::string method;
  std::string reason;  // why there is no (exact) formula
  bool exact = false;  // equals the count at every parameter value satisfying the pieces' domains

  /// Value at "values" (every parameter bound); nullopt when a parameter is unbound. Without a
  /// formula (method empty) this is 0: check "method" first.
  std::optional<std::int64_t> evaluate(const ParamValues& values) const;
  /// "N >= 1: (1/2)*N + (1/2)*N^2" per piece (conditions joined by " and ", "true" for none),
  /// one per line, sorted; "no formula: <reason>" without one; an "(approximate: ...)" line
  /// when not exact.
  std::string str() const;
};

/// Points of "set" as a piecewise quasi-polynomial of its parameters: symbolic summation with
/// GiNaC (Faulhaber sums) over the nest isl normalises "set" into; min/max bounds split into
/// pieces; steps and floor handled exactly (divisions as dimensions, residue splitting). Where
/// summation cannot proceed, one parameter is interpolated (method "interpolation"). Never
/// throws: no formula -> empty method and pieces + reason (isl budget, non-affine set, ...).
/// Limits of one count, so that nothing hangs: isl operations per isl call (past it: no formula,
/// with the reason) and pieces of a summation (past it: interpolation).
struct CountLimits {
  unsigned long islOperations = 5'000'000;
  std::size_t maxPieces = 200;
};

PiecewiseCount countPoints(const IntegerSet& set, const CountLimits& limits = {});
/// Distinct values of "subscripts" (expressions in the set's dims and params) over "set": the
/// elements an access touches.
PiecewiseCount countImage(const IntegerSet& set, const std::vector<Expr>& subscripts, const CountLimits& limits = {});
/// Distinct cache lines of "lineBytes" an access touches: "subscripts" index a row-major array
/// with extents "extents" (outermost first; the outermost may be 0 = unknown) of "elementBytes"
/// elements whose base is line-aligned. Numeric inner extents: exact summation (the line index
/// is affine). A parameter in an inner extent: interpolated per residue of the parameter modulo
/// the elements per line (one parameter only; otherwise no formula, with the reason).
/// "offsetBytes" (affine in the dims and parameters) moves every address: a struct field's
/// offset in its element (p[i].y), or a base that is not line-aligned.
PiecewiseCount countLines(const IntegerSet& set, const std::vector<Expr>& subscripts, const std::vector<Expr>& extents,
                          std::int64_t elementBytes, std::int64_t lineBytes, const Expr& offsetBytes = 0,
                          const CountLimits& limits = {});

/// The same three quantities by isl enumeration with every parameter fixed: the reference the
/// formulas are tested against, and the fallback for sizes no formula covers. Throw
/// std::runtime_error (with isl's message) when isl cannot answer.
std::int64_t enumeratePoints(const IntegerSet& set, const ParamValues& values);
std::int64_t enumerateImage(const IntegerSet& set, const std::vector<Expr>& subscripts, const ParamValues& values);
std::int64_t enumerateLines(const IntegerSet& set, const std::vector<Expr>& subscripts, const std::vector<Expr>& extents,
                            std::int64_t elementBytes, std::int64_t lineBytes, const ParamValues& values,
                            const Expr& offsetBytes = 0);

}  // namespace cats::sym
