// Interpolation: for each residue class of N modulo the period, the Lagrange polynomial through
// degree + 1 enumerated counts at N >= T, verified at further points; below T, where min/max
// bounds are not yet settled, the counts are pieces of their own (N == v) down to where they
// stay 0.
#include "interpolation.hpp"

#include <algorithm>

namespace cats::sym::counting {

namespace {

constexpr std::int64_t lowestExplicit = -8;  // counts below are checked to be 0 at a few points
constexpr std::size_t verificationPoints = 3;
constexpr std::size_t maxExplicitPieces = 64;

Expr lagrange(const Symbol& n, const std::vector<std::int64_t>& xs, const std::vector<std::int64_t>& ys) {
  Expr out = 0;
  for (std::size_t k = 0; k < xs.size(); ++k) {
    Expr term = GiNaC::numeric(ys[k]);
    for (std::size_t j = 0; j < xs.size(); ++j)
      if (j != k) term *= (n - xs[j]) / GiNaC::numeric(xs[k] - xs[j]);
    out += term;
  }
  return GiNaC::expand(out);
}

std::int64_t residue(std::int64_t n, std::int64_t period) { return ((n % period) + period) % period; }

struct Fit {
  std::int64_t threshold = 0;
  std::vector<Expr> byResidue;
};

GiNaC::numeric at(const Expr& poly, const Symbol& n, std::int64_t value) {
  return GiNaC::ex_to<GiNaC::numeric>(GiNaC::expand(poly.subs(GiNaC::lst{n}, GiNaC::lst{GiNaC::numeric(value)})));
}

/* Polynomials per residue class fitted at N >= threshold and verified, or nullopt. */
std::optional<Fit> fitFrom(const Symbol& n, std::int64_t threshold, std::size_t degree, std::int64_t period,
                           const std::function<std::int64_t(std::int64_t)>& count) {
  Fit fit{threshold, {}};
  for (std::int64_t r = 0; r < period; ++r) {
    std::int64_t first = threshold + residue(r - threshold, period);
    std::vector<std::int64_t> xs;
    std::vector<std::int64_t> ys;
    for (std::size_t k = 0; k <= degree; ++k) {
      xs.push_back(first + period * static_cast<std::int64_t>(k));
      ys.push_back(count(xs.back()));
    }
    Expr poly = lagrange(n, xs, ys);
    for (std::size_t k = 1; k <= verificationPoints; ++k) {
      std::int64_t x = xs.back() + period * static_cast<std::int64_t>(k);
      if (at(poly, n, x) != GiNaC::numeric(count(x))) return std::nullopt;
    }
    fit.byResidue.push_back(poly);
  }
  return fit;
}

/* The smallest divisor q of the fit's period whose residue classes have the same polynomials. */
void reducePeriod(Fit& fit) {
  auto period = static_cast<std::int64_t>(fit.byResidue.size());
  for (std::int64_t q = 1; q < period; ++q) {
    if (period % q != 0) continue;
    bool same = true;
    for (std::int64_t r = q; r < period && same; ++r)
      same = (fit.byResidue[static_cast<std::size_t>(r)] - fit.byResidue[static_cast<std::size_t>(r % q)]).expand().is_zero();
    if (!same) continue;
    fit.byResidue.resize(static_cast<std::size_t>(q));
    return;
  }
}

}  // namespace

PiecewiseCount interpolate(const std::vector<Symbol>& params, std::size_t degree, std::int64_t period,
                           const Enumerator& enumerate, const std::string& why) {
  PiecewiseCount out;
  out.params = params;
  try {
    if (params.empty()) {
      std::int64_t value = enumerate({});
      if (value != 0) out.pieces.push_back(CountPiece{{}, value});
      out.method = "interpolation";
      out.exact = true;
      return out;
    }
    if (params.size() > 1) {
      out.reason = why + "; interpolation covers one parameter only";
      return out;
    }
    const Symbol& n = params.front();
    auto count = [&](std::int64_t value) { return enumerate(ParamValues{{n.get_name(), value}}); };
    std::optional<Fit> fit;
    for (std::int64_t threshold : {8, 32, 128}) {
      fit = fitFrom(n, threshold, degree, std::max<std::int64_t>(period, 1), count);
      if (fit) break;
    }
    if (!fit) {
      out.reason = why + "; no polynomial of degree " + std::to_string(degree) + " per residue modulo " +
                   std::to_string(period) + " fits the enumerated counts";
      return out;
    }
    reducePeriod(*fit);
    std::int64_t p = static_cast<std::int64_t>(fit->byResidue.size());
    std::int64_t threshold = fit->threshold;
    while (threshold > lowestExplicit &&
           at(fit->byResidue[static_cast<std::size_t>(residue(threshold - 1, p))], n, threshold - 1) ==
               GiNaC::numeric(count(threshold - 1)))
      --threshold;
    for (std::int64_t r = 0; r < p; ++r) {
      std::vector<Constraint> domain{Constraint::atLeast(n, threshold)};
      if (p > 1) domain.push_back(Constraint::equal(imod(n, p), r));
      Expr poly = fit->byResidue[static_cast<std::size_t>(r)];
      if (!poly.is_zero()) out.pieces.push_back(CountPiece{domain, poly});
    }
    for (std::int64_t v = lowestExplicit; v < threshold; ++v) {
      std::int64_t c = count(v);
      if (c != 0) out.pieces.push_back(CountPiece{{Constraint::equal(n, v)}, c});
      if (out.pieces.size() > maxExplicitPieces + static_cast<std::size_t>(p)) {
        out.pieces.clear();
        out.reason = why + "; too many small values before the count settles";
        return out;
      }
    }
    out.method = "interpolation";
    out.exact = true;
    for (std::int64_t below : {lowestExplicit - 1, lowestExplicit - 7, std::int64_t{-1000}}) {
      if (count(below) != 0) {
        out.exact = false;
        out.reason = "interpolated; the count below " + n.get_name() + " = " + std::to_string(lowestExplicit) +
                     " is not 0 and not described";
      }
    }
    return out;
  } catch (const std::exception& e) {
    out.pieces.clear();
    out.method.clear();
    out.reason = why + "; interpolation failed: " + e.what();
    return out;
  }
}

}  // namespace cats::sym::counting
