// Counting by summation: each dimension's bounds are split into pieces per (active lower, active
// upper) pair, and the summand is summed over the dimension in closed form (Faulhaber).
#include "summation.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace cats::sym::counting {

namespace {

GiNaC::numeric coefficientOf(const Expr& e, const Symbol& v) {
  Expr c = GiNaC::expand(e).coeff(v, 1);
  if (!GiNaC::is_a<GiNaC::numeric>(c)) throw SummationFailure("non-constant coefficient of " + v.get_name());
  return GiNaC::ex_to<GiNaC::numeric>(c);
}

bool mentionsAny(const Expr& e, const std::vector<Symbol>& vars) {
  return std::any_of(vars.begin(), vars.end(), [&](const Symbol& v) { return e.has(v); });
}

/* Sum of k-th powers 0^k + ... + (n-1)^k as a polynomial in "n". */
Expr powerSum(unsigned k, const Expr& n) {
  Expr out = 0;
  for (unsigned j = 0; j <= k; ++j)
    out += GiNaC::binomial(GiNaC::numeric(k + 1), GiNaC::numeric(j)) * GiNaC::bernoulli(GiNaC::numeric(j)) *
           GiNaC::pow(n, k + 1 - j);
  return out / (k + 1);
}

/* "c" with integer coefficients over integer unknowns, divided by the gcd of its non-constant
   coefficients (the constant rounded down: valid for integer points). nullopt: no unknown. */
std::optional<Constraint> tightened(const Constraint& c) {
  Expr e = GiNaC::expand(c.expr);
  GiNaC::numeric constant = 0;
  GiNaC::numeric g = 0;
  auto visit = [&](const Expr& term) {
    if (GiNaC::is_a<GiNaC::numeric>(term)) {
      constant += GiNaC::ex_to<GiNaC::numeric>(term);
      return;
    }
    GiNaC::numeric coefficient = 1;
    if (GiNaC::is_a<GiNaC::mul>(term))
      for (std::size_t k = 0; k < term.nops(); ++k)
        if (GiNaC::is_a<GiNaC::numeric>(term.op(k))) coefficient = GiNaC::ex_to<GiNaC::numeric>(term.op(k));
    g = GiNaC::gcd(g, coefficient);
  };
  if (GiNaC::is_a<GiNaC::add>(e)) {
    for (std::size_t k = 0; k < e.nops(); ++k) visit(e.op(k));
  } else {
    visit(e);
  }
  if (g.is_zero()) return std::nullopt;
  if (!g.is_integer() || !constant.is_integer() || g == 1) return Constraint{e, c.equality};
  if (c.equality) {
    if (!(constant / g).is_integer()) return Constraint{-1, false};  // g does not divide the constant: no point
    return Constraint{GiNaC::expand(e / g), true};
  }
  Expr rest = e - constant;
  Expr roundedConstant = floorDiv(constant, g.to_long());
  return Constraint{GiNaC::expand(rest / g + roundedConstant), false};
}

/* Whether a constraint without unknowns holds. */
bool holds(const Constraint& c) {
  GiNaC::numeric n = GiNaC::ex_to<GiNaC::numeric>(GiNaC::expand(c.expr));
  return c.equality ? n.is_zero() : !n.is_negative();
}

}  // namespace

Expr floorDiv(const Expr& numerator, std::int64_t denominator) {
  Expr n = GiNaC::expand(numerator);
  if (GiNaC::is_a<GiNaC::numeric>(n) && GiNaC::ex_to<GiNaC::numeric>(n).is_integer()) {
    GiNaC::numeric a = GiNaC::ex_to<GiNaC::numeric>(n);
    GiNaC::numeric d(denominator);
    GiNaC::numeric r = GiNaC::mod(a, d);  // GiNaC::mod is non-negative for a positive divisor
    return (a - r) / d;
  }
  return idiv(n, GiNaC::numeric(denominator));
}

Expr sumPolynomial(const Expr& f, const Symbol& v, const Expr& lo, const Expr& hi) {
  Expr poly = GiNaC::expand(f);
  if (!poly.is_polynomial(v)) throw SummationFailure("summand is not a polynomial in " + v.get_name());
  Expr out = 0;
  for (int k = poly.ldegree(v); k <= poly.degree(v); ++k) {
    Expr c = poly.coeff(v, k);
    if (c.is_zero()) continue;
    auto power = static_cast<unsigned>(k);
    out += c * (powerSum(power, hi + 1) - powerSum(power, lo));
  }
  return GiNaC::expand(out);
}

Summation::Summation(std::vector<Symbol> params, EmptinessTest isEmpty, std::size_t maxPieces)
    : params_(std::move(params)), isEmpty_(std::move(isEmpty)), maxPieces_(maxPieces) {}

std::vector<RawPiece> Summation::sum(std::vector<Symbol> vars, std::vector<Constraint> constraints,
                                     const Expr& summand) {
  std::vector<RawPiece> out;
  sumInto(std::move(vars), std::move(constraints), summand, out);
  return out;
}

Expr Summation::expandFloors(const Expr& e) const {
  Expr out = e;
  for (auto it = floors_.rbegin(); it != floors_.rend(); ++it)
    out = out.subs(GiNaC::lst{it->symbol}, GiNaC::lst{floorDiv(it->numerator, it->denominator)});
  return out;
}

Expr Summation::floorSymbolOrNumber(const Expr& numerator, std::int64_t denominator) {
  Expr n = GiNaC::expand(numerator);
  if (GiNaC::is_a<GiNaC::numeric>(n)) return floorDiv(n, denominator);
  for (const auto& f : floors_)
    if (f.denominator == denominator && (f.numerator - n).expand().is_zero()) return f.symbol;
  floors_.push_back(ParamFloor{Symbol("cnt_f" + std::to_string(floors_.size())), n, denominator});
  return floors_.back().symbol;
}

Summation::Bound Summation::boundOf(const Constraint& c, const Symbol& v, const std::vector<Symbol>& others) {
  GiNaC::numeric a = coefficientOf(c.expr, v);
  Expr rest = GiNaC::expand(c.expr - a * v);
  if (a == 1) return {-rest, true};
  if (a == -1) return {rest, false};
  Expr varPart = 0;
  for (const auto& w : others) varPart += coefficientOf(rest, w) * w;
  Expr paramPart = GiNaC::expand(rest - varPart);
  if (a.is_positive()) return {-varPart / a + floorSymbolOrNumber(-paramPart + a - 1, a.to_long()), true};
  return {varPart / (-a) + floorSymbolOrNumber(paramPart, (-a).to_long()), false};
}

bool Summation::eliminateEquality(std::vector<Symbol>& vars, std::vector<Constraint>& constraints, Expr& summand) {
  for (std::size_t k = 0; k < constraints.size(); ++k) {
    const Constraint& c = constraints[k];
    if (!c.equality || !mentionsAny(c.expr, vars)) continue;
    for (std::size_t d = vars.size(); d-- > 0;) {
      GiNaC::numeric a = coefficientOf(c.expr, vars[d]);
      if (a != 1 && a != -1) continue;
      Symbol v = vars[d];
      Expr solution = GiNaC::expand(-(c.expr - a * v) / a);
      constraints.erase(constraints.begin() + static_cast<std::ptrdiff_t>(k));
      for (auto& other : constraints) other.expr = GiNaC::expand(other.expr.subs(GiNaC::lst{v}, GiNaC::lst{solution}));
      summand = GiNaC::expand(summand.subs(GiNaC::lst{v}, GiNaC::lst{solution}));
      vars.erase(vars.begin() + static_cast<std::ptrdiff_t>(d));
      return true;
    }
    throw SummationFailure("an equality without a unit coefficient: " + sym::print(c.expr) + " = 0");
  }
  return false;
}

std::optional<std::size_t> Summation::pickDimension(const std::vector<Symbol>& vars,
                                                    const std::vector<Constraint>& constraints) const {
  std::optional<std::size_t> best;
  std::size_t fewestPairs = 0;
  for (std::size_t d = vars.size(); d-- > 0;) {
    std::vector<Symbol> others = vars;
    others.erase(others.begin() + static_cast<std::ptrdiff_t>(d));
    bool eligible = std::all_of(constraints.begin(), constraints.end(),
                                [&](const Constraint& c) { return !nonDivisibleVariable(c, vars[d], others); });
    if (!eligible) continue;
    std::size_t lowers = 0;
    std::size_t uppers = 0;
    for (const auto& c : constraints) {
      if (!c.expr.has(vars[d])) continue;
      (coefficientOf(c.expr, vars[d]).is_positive() ? lowers : uppers) += 1;
    }
    std::size_t pairs = lowers * uppers;
    if (!best || pairs < fewestPairs) {
      best = d;
      fewestPairs = pairs;
    }
  }
  return best;
}

std::optional<Symbol> Summation::nonDivisibleVariable(const Constraint& c, const Symbol& v,
                                                      const std::vector<Symbol>& others) const {
  if (!c.expr.has(v)) return std::nullopt;
  GiNaC::numeric a = coefficientOf(c.expr, v);
  if (a == 1 || a == -1) return std::nullopt;
  for (const auto& w : others)
    if (!(coefficientOf(c.expr, w) / a).is_integer()) return w;
  return std::nullopt;
}

void Summation::splitResidue(const std::vector<Symbol>& vars, const std::vector<Constraint>& constraints,
                             const Expr& summand, std::vector<RawPiece>& out) {
  const Symbol& v = vars.back();
  std::vector<Symbol> others(vars.begin(), vars.end() - 1);
  for (const auto& c : constraints) {
    auto w = nonDivisibleVariable(c, v, others);
    if (!w) continue;
    GiNaC::numeric a = GiNaC::abs(coefficientOf(c.expr, v));
    GiNaC::numeric b = GiNaC::abs(coefficientOf(c.expr, *w));
    GiNaC::numeric m = a / GiNaC::gcd(a, b);
    if (++splits_ > maxSplits) throw SummationFailure("too many residue splits");
    Symbol quotient(w->get_name() + "q");
    std::vector<Symbol> renamed = vars;
    std::replace_if(renamed.begin(), renamed.end(), [&](const Symbol& x) { return x.is_equal(*w); }, quotient);
    for (GiNaC::numeric r = 0; r < m; ++r) {
      GiNaC::lst from{*w};
      GiNaC::lst to{m * quotient + r};
      std::vector<Constraint> split;
      split.reserve(constraints.size());
      for (const auto& x : constraints) split.push_back(Constraint{GiNaC::expand(x.expr.subs(from, to)), x.equality});
      sumInto(renamed, split, GiNaC::expand(summand.subs(from, to)), out);
    }
    return;
  }
  throw SummationFailure("no residue split makes a dimension summable");
}

bool Summation::feasible(const std::vector<Symbol>& vars, const std::vector<Constraint>& constraints) const {
  std::vector<Symbol> params = params_;
  std::vector<Constraint> all = constraints;
  for (const auto& f : floors_) {
    params.push_back(f.symbol);
    all.push_back(Constraint{f.numerator - f.denominator * f.symbol, false});
    all.push_back(Constraint{f.denominator * f.symbol + f.denominator - 1 - f.numerator, false});
  }
  return !isEmpty_(vars, params, all);
}

void Summation::sumInto(std::vector<Symbol> vars, std::vector<Constraint> constraints, Expr summand,
                        std::vector<RawPiece>& out) {
  for (;;) {
    std::vector<Constraint> kept;
    for (const auto& c : constraints) {
      auto t = tightened(c);
      if (!t || GiNaC::is_a<GiNaC::numeric>(t->expr)) {
        if (!holds(t ? *t : c)) return;
        continue;
      }
      kept.push_back(*t);
    }
    constraints = std::move(kept);
    if (!eliminateEquality(vars, constraints, summand)) break;
  }
  if (vars.empty()) {
    if (++pieces_ > maxPieces_) throw SummationFailure("more than " + std::to_string(maxPieces_) + " pieces");
    out.push_back(RawPiece{std::move(constraints), GiNaC::expand(summand)});
    return;
  }
  auto chosen = pickDimension(vars, constraints);
  if (!chosen) {
    splitResidue(vars, constraints, summand, out);
    return;
  }
  Symbol v = vars[*chosen];
  std::vector<Symbol> rest = vars;
  rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(*chosen));
  std::vector<Constraint> outer;
  std::vector<Expr> lowers;
  std::vector<Expr> uppers;
  auto addUnique = [](std::vector<Expr>& list, const Expr& e) {
    if (std::none_of(list.begin(), list.end(), [&](const Expr& x) { return (x - e).expand().is_zero(); }))
      list.push_back(e);
  };
  for (const auto& c : constraints) {
    if (!c.expr.has(v)) {
      outer.push_back(c);
      continue;
    }
    Bound b = boundOf(c, v, rest);
    addUnique(b.lower ? lowers : uppers, GiNaC::expand(b.value));
  }
  if (lowers.empty() || uppers.empty()) throw SummationFailure("dimension " + v.get_name() + " is unbounded");
  bool split = lowers.size() > 1 || uppers.size() > 1;
  for (std::size_t a = 0; a < lowers.size(); ++a) {
    for (std::size_t b = 0; b < uppers.size(); ++b) {
      std::vector<Constraint> piece = outer;
      for (std::size_t other = 0; other < lowers.size(); ++other)
        if (other != a) piece.push_back(Constraint{lowers[a] - lowers[other] - (other < a ? 1 : 0), false});
      for (std::size_t other = 0; other < uppers.size(); ++other)
        if (other != b) piece.push_back(Constraint{uppers[other] - uppers[b] - (other < b ? 1 : 0), false});
      piece.push_back(Constraint{uppers[b] - lowers[a], false});
      if (split && !feasible(rest, piece)) continue;
      sumInto(rest, piece, sumPolynomial(summand, v, lowers[a], uppers[b]), out);
    }
  }
}

}  // namespace cats::sym::counting
