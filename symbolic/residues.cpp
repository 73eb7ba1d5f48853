// Residue splitting: floor((c*N + e) / d) is the polynomial (c*N + e - ((c*r + e) mod d)) / d
// where N = r (mod d). Splitting the parameters into residue classes modulo the divisors turns
// the floors of a summed count into polynomials per class; classes with equal values are merged
// again by isl (finalize), so "N >= 1: N" is what a min-tiled nest prints.
#include "counting_internal.hpp"

#include <algorithm>

namespace cats::sym::counting {

namespace {

constexpr std::int64_t maxClasses = 64;

bool isFloor(const Expr& e) {
  return isIdiv(e);
}

/* The floors idiv(affine in params, d) in "e", nested ones included. */
void collectFloors(const Expr& e, std::vector<Expr>& out) {
  if (isFloor(e) && std::none_of(out.begin(), out.end(), [&](const Expr& x) { return x.is_equal(e); }))
    out.push_back(e);
  for (std::size_t k = 0; k < e.nops(); ++k) collectFloors(e.op(k), out);
}

/* floor(a / d) as a polynomial where every parameter p = residue (mod "modulus"): exact when
   d divides c*modulus for each parameter coefficient c of a, and a is an integer at the
   residues. */
std::optional<Expr> polynomialFloor(const Expr& argument, std::int64_t d, const std::vector<Symbol>& params,
                                    const std::vector<std::int64_t>& residues, std::int64_t modulus) {
  Expr a = GiNaC::expand(argument);
  GiNaC::exmap atResidues;
  for (std::size_t p = 0; p < params.size(); ++p) {
    Expr c = a.coeff(params[p], 1);
    if (!GiNaC::is_a<GiNaC::numeric>(c)) return std::nullopt;
    if (!(GiNaC::ex_to<GiNaC::numeric>(c) * modulus / d).is_integer()) return std::nullopt;
    atResidues[params[p]] = GiNaC::numeric(residues[p]);
  }
  Expr value = GiNaC::expand(a.subs(atResidues));
  if (!GiNaC::is_a<GiNaC::numeric>(value) || !GiNaC::ex_to<GiNaC::numeric>(value).is_integer()) return std::nullopt;
  GiNaC::numeric remainder = GiNaC::mod(GiNaC::ex_to<GiNaC::numeric>(value), GiNaC::numeric(d));
  return GiNaC::expand((a - remainder) / d);
}

/* Every floor of "e" (innermost first) as a polynomial in one residue class; "failed" when one
   is not. Floors are never rebuilt, so GiNaC never folds one by C truncation. */
struct FloorRemover : GiNaC::map_function {
  const std::vector<Symbol>& params;
  const std::vector<std::int64_t>& residues;
  std::int64_t modulus;
  bool failed = false;

  FloorRemover(const std::vector<Symbol>& ps, const std::vector<std::int64_t>& rs, std::int64_t m)
      : params(ps), residues(rs), modulus(m) {}

  Expr operator()(const Expr& e) override {
    if (!isFloor(e)) return e.map(*this);
    auto d = toInteger(e.op(1));
    Expr argument = (*this)(e.op(0));
    auto polynomial = d && *d > 0 ? polynomialFloor(argument, *d, params, residues, modulus) : std::nullopt;
    if (!polynomial) {
      failed = true;
      return e;
    }
    return *polynomial;
  }
};

/* "pieces" split into the residue classes modulo "modulus", or nullopt when a floor stays. */
std::optional<std::vector<RawPiece>> splitModulo(const std::vector<RawPiece>& pieces, const std::vector<Symbol>& params,
                                                 std::int64_t modulus) {
  std::int64_t classes = 1;
  for (std::size_t p = 0; p < params.size(); ++p) {
    if (classes * modulus > maxClasses) return std::nullopt;
    classes *= modulus;
  }
  std::vector<RawPiece> out;
  for (std::int64_t combination = 0; combination < classes; ++combination) {
    std::vector<std::int64_t> residues;
    for (std::int64_t rest = combination; residues.size() < params.size(); rest /= modulus)
      residues.push_back(rest % modulus);
    FloorRemover remove(params, residues, modulus);
    for (const auto& piece : pieces) {
      RawPiece split;
      for (const auto& c : piece.domain) split.domain.push_back(Constraint{GiNaC::expand(remove(c.expr)), c.equality});
      for (std::size_t p = 0; p < params.size(); ++p)
        split.domain.push_back(Constraint::equal(imod(params[p], modulus), residues[p]));
      split.value = GiNaC::expand(remove(piece.value));
      if (remove.failed) return std::nullopt;
      out.push_back(std::move(split));
    }
  }
  return out;
}

}  // namespace

std::vector<RawPiece> splitResidues(const std::vector<RawPiece>& pieces, const std::vector<Symbol>& params) {
  std::vector<Expr> floors;
  for (const auto& piece : pieces) {
    collectFloors(piece.value, floors);
    for (const auto& c : piece.domain) collectFloors(c.expr, floors);
  }
  if (floors.empty() || params.empty()) return pieces;
  GiNaC::numeric modulus = 1;
  for (const auto& f : floors) {
    auto d = toInteger(f.op(1));
    if (!d || *d <= 0) return pieces;
    modulus = GiNaC::lcm(modulus, GiNaC::numeric(*d));
    Expr argument = GiNaC::expand(f.op(0));
    for (const auto& p : params) {
      Expr c = argument.coeff(p, 1);
      if (GiNaC::is_a<GiNaC::numeric>(c))
        modulus = GiNaC::lcm(modulus, GiNaC::numeric(*d) * GiNaC::ex_to<GiNaC::numeric>(c).denom());
    }
  }
  for (GiNaC::numeric m = modulus; m <= maxClasses; m *= 2)
    if (auto split = splitModulo(pieces, params, m.to_long())) return *split;
  return pieces;
}

}  // namespace cats::sym::counting
