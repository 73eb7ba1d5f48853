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
  return GiNaC::is_a<GiNaC::function>(e) && GiNaC::ex_to<GiNaC::function>(e).get_name() == "idiv";
}

/* The floors idiv(affine in params, d) in "e". */
void collectFloors(const Expr& e, std::vector<Expr>& out) {
  if (isFloor(e)) {
    if (std::none_of(out.begin(), out.end(), [&](const Expr& x) { return x.is_equal(e); })) out.push_back(e);
    return;
  }
  for (std::size_t k = 0; k < e.nops(); ++k) collectFloors(e.op(k), out);
}

/* floor(a / d) with every parameter p replaced in its residue: p = residue (mod modulus). */
std::optional<Expr> polynomialFloor(const Expr& floorTerm, const std::vector<Symbol>& params,
                                    const std::vector<std::int64_t>& residues) {
  Expr a = GiNaC::expand(floorTerm.op(0));
  auto d = toInteger(floorTerm.op(1));
  if (!d || *d <= 0) return std::nullopt;
  Expr atResidues = a;
  for (std::size_t p = 0; p < params.size(); ++p) {
    Expr c = a.coeff(params[p], 1);
    if (!GiNaC::is_a<GiNaC::numeric>(c) || !GiNaC::ex_to<GiNaC::numeric>(c).is_integer()) return std::nullopt;
    atResidues = atResidues.subs(GiNaC::lst{params[p]}, GiNaC::lst{GiNaC::numeric(residues[p])});
  }
  atResidues = GiNaC::expand(atResidues);
  if (!GiNaC::is_a<GiNaC::numeric>(atResidues) || !GiNaC::ex_to<GiNaC::numeric>(atResidues).is_integer())
    return std::nullopt;
  GiNaC::numeric remainder = GiNaC::mod(GiNaC::ex_to<GiNaC::numeric>(atResidues), GiNaC::numeric(*d));
  return GiNaC::expand((a - remainder) / *d);
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
  }
  std::int64_t classes = 1;
  for (std::size_t p = 0; p < params.size(); ++p) {
    if (modulus > maxClasses || classes * modulus.to_long() > maxClasses) return pieces;
    classes *= modulus.to_long();
  }
  std::int64_t m = modulus.to_long();
  std::vector<RawPiece> out;
  for (std::int64_t combination = 0; combination < classes; ++combination) {
    std::vector<std::int64_t> residues;
    for (std::int64_t rest = combination; residues.size() < params.size(); rest /= m) residues.push_back(rest % m);
    GiNaC::exmap replacement;
    for (const auto& f : floors) {
      auto polynomial = polynomialFloor(f, params, residues);
      if (!polynomial) return pieces;
      replacement[f] = *polynomial;
    }
    for (const auto& piece : pieces) {
      RawPiece split;
      for (const auto& c : piece.domain) split.domain.push_back(Constraint{GiNaC::expand(c.expr.subs(replacement)), c.equality});
      for (std::size_t p = 0; p < params.size(); ++p)
        split.domain.push_back(Constraint::equal(imod(params[p], m), residues[p]));
      split.value = GiNaC::expand(piece.value.subs(replacement));
      out.push_back(std::move(split));
    }
  }
  return out;
}

}  // namespace cats::sym::counting
