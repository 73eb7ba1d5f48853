// countPoints / countImage and the enumerations they are tested against: isl normalises the set
// into disjoint basic sets, each is summed symbolically (summation.hpp), and isl merges and
// simplifies the pieces' parameter domains. Where summation cannot proceed, the count is fitted
// to isl enumerations (interpolation.hpp).
#include "counting_internal.hpp"
#include "interpolation.hpp"
#include "isl_adapter.hpp"
#include "summation.hpp"

#include <algorithm>
#include <map>

namespace cats::sym {

namespace counting {

namespace {

using isl_adapter::Ctx;

/* { [] : domain } over "params" as an isl set. */
isl::set domainSet(const Ctx& ctx, const std::vector<Constraint>& domain, const std::vector<Symbol>& params) {
  IntegerSet s;
  s.params = params;
  s.constraints = domain;
  return isl_adapter::toSet(ctx, s);
}

/* s*(d*floor(x/d) - x) + k = 0 (s = 1 or -1, x = p + e with a parameter p and a number e), isl's
   form of a residue class, as imod(p, d) == r. Other constraints unchanged. */
Constraint asResidue(const Constraint& c) {
  std::vector<Expr> floors;
  Expr e = GiNaC::expand(c.expr);
  for (std::size_t k = 0; k < (GiNaC::is_a<GiNaC::add>(e) ? e.nops() : 0); ++k) {
    Expr term = e.op(k);
    if (GiNaC::is_a<GiNaC::mul>(term) && term.nops() == 2) term = GiNaC::is_a<GiNaC::numeric>(term.op(0)) ? term.op(1) : term.op(0);
    if (isIdiv(term))
      floors.push_back(term);
  }
  if (floors.size() != 1) return c;
  auto d = toInteger(floors[0].op(1));
  if (!d || *d <= 1) return c;
  Expr x = GiNaC::expand(floors[0].op(0));
  Expr s = GiNaC::expand(e.coeff(floors[0], 1) / *d);
  if (!s.is_equal(1) && !s.is_equal(-1)) return c;
  Expr k = GiNaC::expand(e - s * (*d * floors[0] - x));
  Expr xConstant = 0;
  for (std::size_t t = 0; t < (GiNaC::is_a<GiNaC::add>(x) ? x.nops() : 0); ++t)
    if (GiNaC::is_a<GiNaC::numeric>(x.op(t))) xConstant = x.op(t);
  Expr p = GiNaC::expand(x - xConstant);
  if (!GiNaC::is_a<GiNaC::numeric>(k) || !GiNaC::is_a<GiNaC::symbol>(p)) return c;
  Expr r = GiNaC::expand(k / s - xConstant);  // x mod d == k/s, so p mod d == k/s - e (mod d)
  auto residue = toInteger(r);
  if (!residue) return c;
  std::int64_t normalized = ((*residue % *d) + *d) % *d;
  return Constraint::equal(imod(p, GiNaC::numeric(*d)), normalized);
}

/* c*floor(x/d) + k >= 0 (c, k numbers) as the equivalent bound on x: floor(x/d) >= m is
   x >= d*m, floor(x/d) <= m is x <= d*m + d - 1. Other constraints unchanged. */
Constraint withoutFloor(const Constraint& c) {
  if (c.equality) return asResidue(c);
  if (!GiNaC::is_a<GiNaC::add>(c.expr) || c.expr.nops() != 2) return c;
  Expr k = c.expr.op(0);
  Expr term = c.expr.op(1);
  if (!GiNaC::is_a<GiNaC::numeric>(k)) std::swap(k, term);
  if (!GiNaC::is_a<GiNaC::numeric>(k)) return c;
  GiNaC::numeric coefficient = 1;
  Expr floorTerm = term;
  if (GiNaC::is_a<GiNaC::mul>(term) && term.nops() == 2) {
    std::size_t number = GiNaC::is_a<GiNaC::numeric>(term.op(0)) ? 0 : 1;
    if (!GiNaC::is_a<GiNaC::numeric>(term.op(number))) return c;
    coefficient = GiNaC::ex_to<GiNaC::numeric>(term.op(number));
    floorTerm = term.op(1 - number);
  }
  if (!isIdiv(floorTerm))
    return c;
  auto d = toInteger(floorTerm.op(1));
  if (!d || *d <= 0 || !coefficient.is_integer()) return c;
  Expr x = floorTerm.op(0);
  GiNaC::numeric kn = GiNaC::ex_to<GiNaC::numeric>(k);
  if (coefficient.is_positive()) {
    Expr m = -floorDiv(kn, coefficient.to_long());  // ceil(-k/c)
    return Constraint{GiNaC::expand(x - *d * m), false};
  }
  Expr m = floorDiv(kn, (-coefficient).to_long());
  return Constraint{GiNaC::expand(*d * m + *d - 1 - x), false};
}

/* "terms" of a parameter set with its divisions replaced by floors of the parameters. */
std::vector<Constraint> parameterConstraints(const isl_adapter::BasicSetTerms& terms) {
  GiNaC::lst from;
  GiNaC::lst to;
  for (const auto& q : terms.divisions) {
    Expr numerator = q.numerator.subs(from, to);
    from.append(q.symbol);
    to.append(floorDiv(numerator, q.denominator));
  }
  std::vector<Constraint> bounds;
  for (const auto& q : terms.divisions)
    for (const auto& b : isl_adapter::divisionBounds(q)) bounds.push_back(b);
  std::vector<Constraint> out;
  for (const auto& c : terms.constraints) {
    bool isBound = std::any_of(bounds.begin(), bounds.end(), [&](const Constraint& b) {
      return !c.equality && GiNaC::expand(b.expr - c.expr).is_zero();
    });
    if (!isBound) out.push_back(withoutFloor(Constraint{GiNaC::expand(c.expr.subs(from, to)), c.equality}));
  }
  return out;
}

/* The least common multiple of the divisors and dimension coefficients in "basicSets" (capped):
   the period of the count's coefficients in the parameters. */
std::int64_t periodOf(const std::vector<isl_adapter::BasicSetTerms>& basicSets, const std::vector<Symbol>& dims) {
  constexpr std::int64_t maxPeriod = 64;
  GiNaC::numeric period = 1;
  for (const auto& terms : basicSets) {
    for (const auto& q : terms.divisions) period = GiNaC::lcm(period, GiNaC::numeric(q.denominator));
    for (const auto& c : terms.constraints)
      for (const auto& d : dims) {
        Expr a = GiNaC::expand(c.expr).coeff(d, 1);
        if (GiNaC::is_a<GiNaC::numeric>(a) && GiNaC::ex_to<GiNaC::numeric>(a).is_integer() && !a.is_zero())
          period = GiNaC::lcm(period, GiNaC::abs(GiNaC::ex_to<GiNaC::numeric>(a)));
      }
  }
  return period > maxPeriod ? maxPeriod : period.to_long();
}

// NOLINTNEXTLINE(bugprone-exception-escape): isl::set's move is not noexcept; a throw there is a bad_alloc.
struct DomainValue {
  isl::set domain;
  Expr value;
};

/* Adds "piece" to the disjoint "pieces", summing values where domains overlap. Throws
   SummationFailure past "maxPieces" (isl's subtractions grow with every piece). */
void addPiece(std::vector<DomainValue>& pieces, const DomainValue& piece, std::size_t maxPieces) {
  std::vector<DomainValue> out;
  isl::set rest = piece.domain;
  for (auto& p : pieces) {
    isl::set both = p.domain.intersect(piece.domain);
    if (!both.is_empty()) {
      out.push_back({both, GiNaC::expand(p.value + piece.value)});
      isl::set only = p.domain.subtract(piece.domain);
      if (!only.is_empty()) out.push_back({only, p.value});
      rest = rest.subtract(p.domain);
    } else {
      out.push_back(p);
    }
  }
  if (!rest.is_empty()) out.push_back({rest, piece.value});
  if (out.size() > maxPieces) throw SummationFailure("more than " + std::to_string(maxPieces) + " disjoint pieces");
  pieces = std::move(out);
}

/* Each domain read back in our terms (floors of bounds removed) and given to isl again: isl
   coalesces a union only where its basic sets have the same divisions. */
void rebuildDomains(const Ctx& ctx, std::map<std::string, DomainValue>& byValue, const std::vector<Symbol>& params) {
  for (auto& [key, group] : byValue) {
    std::optional<isl::set> rebuilt;
    for (const auto& terms : isl_adapter::disjointBasicSets(ctx, group.domain, {}, params)) {
      isl::set part = domainSet(ctx, parameterConstraints(terms), params);
      rebuilt = rebuilt ? rebuilt->unite(part) : part;
    }
    if (rebuilt) group.domain = rebuilt->coalesce();
  }
}

/* "value" at "values" with floor semantics. */
std::optional<std::int64_t> valueAt(const Expr& value, const std::vector<Symbol>& params, const ParamValues& values) {
  PiecewiseCount single;
  single.params = params;
  single.pieces.push_back(CountPiece{{}, value});
  return single.evaluate(values);
}

/* The parameter values "domain" fixes by equalities p == c, when it fixes every parameter. */
std::optional<ParamValues> fixedPoint(const std::vector<Constraint>& domain, const std::vector<Symbol>& params) {
  ParamValues point;
  for (const auto& c : domain) {
    if (!c.equality) continue;
    for (const auto& p : params) {
      Expr e = GiNaC::expand(c.expr);
      auto value = toInteger(-(e - p));
      if (e.coeff(p, 1).is_equal(1) && value) point[p.get_name()] = *value;
    }
  }
  if (point.size() != params.size()) return std::nullopt;
  return point;
}

/* Pieces over finitely many parameter values (the small sizes before min/max bounds settle)
   join a piece whose value agrees with theirs at each of those values. */
void mergeAgreeingFinitePieces(const Ctx& ctx, std::map<std::string, DomainValue>& byValue,
                               const std::vector<Symbol>& params) {
  constexpr std::size_t maxPoints = 128;
  for (auto it = byValue.begin(); it != byValue.end();) {
    auto points = isl_adapter::parameterPoints(ctx, it->second.domain, params, maxPoints);
    bool merged = false;
    if (points) {
      for (auto& entry : byValue) {
        if (entry.first == it->first) continue;
        auto& other = entry.second;  // not a structured binding: clang 14 cannot capture those in a lambda
        bool agrees = std::all_of(points->begin(), points->end(), [&](const ParamValues& values) {
          return valueAt(other.value, params, values) == valueAt(it->second.value, params, values);
        });
        if (!agrees) continue;
        other.domain = other.domain.unite(it->second.domain).coalesce();
        merged = true;
        break;
      }
    }
    it = merged ? byValue.erase(it) : std::next(it);
  }
}

/* How hard "count" is to read: its printed length, each floor weighing as much as a line. */
std::size_t readingCost(const PiecewiseCount& count) {
  constexpr std::size_t floorWeight = 40;
  std::string text = count.str();
  std::size_t floors = 0;
  for (std::size_t at = text.find("idiv("); at != std::string::npos; at = text.find("idiv(", at + 1)) ++floors;
  return text.size() + floorWeight * floors;
}

}  // namespace

PiecewiseCount finalize(const Ctx& ctx, const std::vector<RawPiece>& sumOfPieces, const std::vector<Symbol>& params,
                        std::size_t maxPieces) {
  std::vector<DomainValue> pieces;
  for (const auto& raw : sumOfPieces) {
    ctx.resetBudget();
    addPiece(pieces, {domainSet(ctx, raw.domain, params), raw.value}, maxPieces);
  }
  std::map<std::string, DomainValue> byValue;
  for (auto& p : pieces) {
    Expr v = GiNaC::expand(p.value);
    if (v.is_zero()) continue;
    std::string key = print(v);
    auto it = byValue.find(key);
    if (it == byValue.end()) {
      byValue.emplace(key, DomainValue{p.domain, v});
    } else {
      it->second.domain = it->second.domain.unite(p.domain);
    }
  }
  rebuildDomains(ctx, byValue, params);
  mergeAgreeingFinitePieces(ctx, byValue, params);
  rebuildDomains(ctx, byValue, params);
  PiecewiseCount out;
  out.params = params;
  out.method = "summation";
  out.exact = true;
  for (auto& [key, p] : byValue) {
    for (const auto& terms : isl_adapter::disjointBasicSets(ctx, p.domain, {}, params)) {
      CountPiece piece{parameterConstraints(terms), p.value};
      if (auto point = fixedPoint(piece.domain, params)) piece.value = *valueAt(p.value, params, *point);
      out.pieces.push_back(std::move(piece));
    }
  }
  return out;
}

PiecewiseCount countIslSet(const Ctx& ctx, const isl::set& set, const std::vector<Symbol>& dims,
                           const std::vector<Symbol>& params, const Enumerator& enumerate, std::size_t maxPieces) {
  std::int64_t period = 1;
  try {
    std::vector<RawPiece> all;
    Summation summation(
        params, [&](const std::vector<Symbol>& vars, const std::vector<Symbol>& ps, const std::vector<Constraint>& cs) {
          IntegerSet s;
          s.dims = vars;
          s.params = ps;
          s.constraints = cs;
          return isl_adapter::isEmpty(ctx, s);
        },
        maxPieces);
    auto basicSets = isl_adapter::disjointBasicSets(ctx, set, dims, params);
    period = periodOf(basicSets, dims);
    for (const auto& terms : basicSets) {
      std::vector<Symbol> vars = dims;
      std::vector<Constraint> constraints = terms.constraints;
      for (const auto& q : terms.divisions) {
        vars.push_back(q.symbol);
        for (const auto& b : isl_adapter::divisionBounds(q)) constraints.push_back(b);
      }
      for (auto& piece : summation.sum(vars, constraints, 1)) {
        for (auto& c : piece.domain) c.expr = GiNaC::expand(summation.expandFloors(c.expr));
        piece.value = GiNaC::expand(summation.expandFloors(piece.value));
        all.push_back(std::move(piece));
      }
    }
    std::size_t maxDisjoint = std::max<std::size_t>(maxPieces / 4, 1);
    PiecewiseCount withFloors = finalize(ctx, all, params, maxDisjoint);
    std::vector<RawPiece> split = splitResidues(all, params);
    if (split.size() == all.size()) return withFloors;
    PiecewiseCount polynomials;
    try {
      polynomials = finalize(ctx, split, params, maxPieces);  // residue classes multiply the pieces
    } catch (const SummationFailure&) {
      return withFloors;
    }
    return readingCost(polynomials) <= readingCost(withFloors) ? polynomials : withFloors;
  } catch (const SummationFailure& failure) {
    return interpolate(params, dims.size(), period, enumerate, failure.what());
  }
}

}  // namespace counting

PiecewiseCount countPoints(const IntegerSet& set, const CountLimits& limits) {
  try {
    isl_adapter::Ctx ctx(limits.islOperations);
    isl::set s = isl_adapter::toSet(ctx, set);
    auto enumerate = [&](const ParamValues& values) { return isl_adapter::countPoints(ctx, s, set.params, values); };
    return counting::countIslSet(ctx, s, set.dims, set.params, enumerate, limits.maxPieces);
  } catch (const std::exception& e) {
    PiecewiseCount out;
    out.params = set.params;
    out.reason = e.what();
    return out;
  }
}

PiecewiseCount countImage(const IntegerSet& set, const std::vector<Expr>& subscripts, const CountLimits& limits) {
  try {
    isl_adapter::Ctx ctx(limits.islOperations);
    isl::set image = isl_adapter::imageSet(ctx, set, subscripts, "A");
    std::vector<Symbol> dims;
    for (std::size_t k = 0; k < subscripts.size(); ++k) dims.push_back(Symbol("cnt_o" + std::to_string(k)));
    auto enumerate = [&](const ParamValues& values) { return isl_adapter::countPoints(ctx, image, set.params, values); };
    return counting::countIslSet(ctx, image, dims, set.params, enumerate, limits.maxPieces);
  } catch (const std::exception& e) {
    PiecewiseCount out;
    out.params = set.params;
    out.reason = e.what();
    return out;
  }
}

std::int64_t enumeratePoints(const IntegerSet& set, const ParamValues& values) {
  isl_adapter::Ctx ctx;
  return isl_adapter::countPoints(ctx, set, values);
}

std::int64_t enumerateImage(const IntegerSet& set, const std::vector<Expr>& subscripts, const ParamValues& values) {
  isl_adapter::Ctx ctx;
  return isl_adapter::countPoints(ctx, isl_adapter::imageSet(ctx, set, subscripts, "A"), set.params, values);
}

}  // namespace cats::sym
