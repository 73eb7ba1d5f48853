// The one place isl is used: isl's own C++ bindings (isl/cpp.h: RAII handles, errors as
// isl::exception), an owner for the isl_ctx, and the conversion of our value types
// (symbolic/polyhedral.hpp) to isl. Private to the symbolic library; no isl type leaves it.
#pragma once

#include "symbolic/polyhedral.hpp"

#include <isl/cpp.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace cats::sym::isl_adapter {

/// An isl failure (a parse error, an exceeded operation budget), with isl's own message.
class IslError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Owns one isl_ctx (isl::ctx does not) with a bounded number of operations per call, so that a
/// hard set gives an IslError instead of a hang. Errors become isl::exception in the bindings.
class Ctx {
 public:
  explicit Ctx(unsigned long maxOperations = 5'000'000);
  Ctx(const Ctx&) = delete;
  Ctx& operator=(const Ctx&) = delete;
  ~Ctx();
  isl::ctx get() const { return isl::ctx(ctx_); }
  isl_ctx* raw() const { return ctx_; }
  /// Starts a new operation budget (isl counts operations since the last reset).
  void resetBudget() const;

 private:
  isl_ctx* ctx_ = nullptr;
};

/// Fails loudly when isl calls bind to the old isl copy libLLVM exports (docs: TOOLCHAIN trap 1).
void checkIslLibrary();

/// A name isl can parse for "name" (C identifiers that are isl keywords, or hold other
/// characters, are renamed deterministically).
std::string islName(const std::string& name);
/// isl's text for an affine expression of ours whose coefficients are integers (scale it by
/// denominatorLcm first): idiv(a, c) -> floor((a)/c) (a >= 0 assumed, as C truncation differs
/// below 0), imod -> mod, min/max kept. Throws IslError for a non-affine expression (a product of
/// symbols, a load, an unknown function).
std::string affineText(const Expr& e);
/// The least common multiple of the denominators of the rational coefficients in "e" (top level).
long denominatorLcm(const Expr& e);
/// "c >= 0" / "c = 0" with denominators cleared.
std::string constraintText(const Constraint& c);
/// "[N, M] -> { S[i, j] : exists (t : ...) }" for "set".
std::string setText(const IntegerSet& set);
isl::set toSet(const Ctx& ctx, const IntegerSet& set);
/// The number of points of "set" with every parameter fixed by "values". Throws IslError when a
/// parameter has no value, the set is unbounded or isl fails (isl_set_count_val returns a wrong
/// 0 on a parametric set, so every parameter is fixed first).
std::int64_t countPoints(const Ctx& ctx, const IntegerSet& set, const ParamValues& values);

/// floor(numerator / denominator): an integer division isl introduced (for a stride, a floor or a
/// mod), named by a fresh "symbol"; "numerator" is affine with integer coefficients in the set's
/// dimensions, its parameters and earlier divisions.
struct Division {
  Symbol symbol;
  Expr numerator;
  std::int64_t denominator = 1;
};

/// One basic set of an isl set in our terms: "constraints" (integer coefficients) over the
/// dimensions, the parameters and "divisions". The defining bounds of the divisions
/// (d*q <= numerator <= d*q + d - 1) are not among them: see divisionBounds.
struct BasicSetTerms {
  std::vector<Division> divisions;
  std::vector<Constraint> constraints;
};

/// d*q <= numerator <= d*q + d - 1 for the division q.
std::vector<Constraint> divisionBounds(const Division& q);

/// The basic sets of "set" after isl made every existential a division (compute_divs, so that a
/// point with its divisions is still one point), coalesced it, removed redundant constraints and
/// made its basic sets disjoint. "dims" name the set dimensions in order; "params" the parameters
/// (matched by name). Throws IslError when isl fails (e.g. its operation budget runs out).
std::vector<BasicSetTerms> disjointBasicSets(const Ctx& ctx, const isl::set& set, const std::vector<Symbol>& dims,
                                             const std::vector<Symbol>& params);
/// Whether "set" has no integer point (for every parameter value).
bool isEmpty(const Ctx& ctx, const IntegerSet& set);
/// { name[subscripts] : set }: the image of "set" under an access with "subscripts" (affine in
/// the set's dimensions and parameters; idiv/imod by constants allowed) as an isl set.
isl::set imageSet(const Ctx& ctx, const IntegerSet& set, const std::vector<Expr>& subscripts, const std::string& name);
/// The parameter values of the 0-dimensional "set" over "params" (isl order matched by name),
/// or nullopt when they are unbounded or more than "maxPoints".
std::optional<std::vector<ParamValues>> parameterPoints(const Ctx& ctx, const isl::set& set,
                                                        const std::vector<Symbol>& params, std::size_t maxPoints);
/// The number of points of the isl set "set" over "params" with each fixed by "values" (see countPoints).
std::int64_t countPoints(const Ctx& ctx, const isl::set& set, const std::vector<Symbol>& params,
                         const ParamValues& values);

}  // namespace cats::sym::isl_adapter
