// Distinct cache lines of an access: the line of an element is floor(elementBytes * linear index
// / lineBytes), with linear index = ((s0 * e1 + s1) * e2 + s2) ... for a row-major array. With
// numeric inner extents that is affine, and the lines are the image of the set under it (exact
// summation). With a parameter in an inner extent it is not (N * i is a product of symbols), so
// the count is interpolated per residue class of N modulo the elements per line from
// enumerations at fixed N, where the linear index is affine again.
#include "counting_internal.hpp"
#include "interpolation.hpp"

#include <numeric>

namespace cats::sym {

namespace {

/* The linear element index of "subscripts" in a row-major array of "extents". */
Expr linearIndex(const std::vector<Expr>& subscripts, const std::vector<Expr>& extents) {
  Expr index = subscripts.front();
  for (std::size_t k = 1; k < subscripts.size(); ++k) index = index * extents[k] + subscripts[k];
  return GiNaC::expand(index);
}

/* The line of "subscripts" as one subscript: floor((elementBytes * index + offsetBytes) / lineBytes). */
Expr lineSubscript(const std::vector<Expr>& subscripts, const std::vector<Expr>& extents, std::int64_t elementBytes,
                   std::int64_t lineBytes, const Expr& offsetBytes) {
  return idiv(GiNaC::expand(elementBytes * linearIndex(subscripts, extents) + offsetBytes), GiNaC::numeric(lineBytes));
}

std::string checkShape(const std::vector<Expr>& subscripts, const std::vector<Expr>& extents,
                       std::int64_t elementBytes, std::int64_t lineBytes) {
  if (subscripts.empty()) return "an access without subscripts";
  if (subscripts.size() != extents.size()) return "subscripts and extents differ in number";
  if (elementBytes <= 0 || lineBytes <= 0) return "element and line sizes must be positive";
  return {};
}

bool innerExtentsAreNumbers(const std::vector<Expr>& extents) {
  for (std::size_t k = 1; k < extents.size(); ++k)
    if (!toInteger(extents[k])) return false;
  return true;
}

}  // namespace

PiecewiseCount countLines(const IntegerSet& set, const std::vector<Expr>& subscripts, const std::vector<Expr>& extents,
                          std::int64_t elementBytes, std::int64_t lineBytes, const Expr& offsetBytes,
                          const CountLimits& limits) {
  PiecewiseCount out;
  out.params = set.params;
  std::string bad = checkShape(subscripts, extents, elementBytes, lineBytes);
  if (!bad.empty()) {
    out.reason = bad;
    return out;
  }
  if (innerExtentsAreNumbers(extents))
    return countImage(set, {lineSubscript(subscripts, extents, elementBytes, lineBytes, offsetBytes)}, limits);
  auto enumerate = [&](const ParamValues& values) {
    return enumerateLines(set, subscripts, extents, elementBytes, lineBytes, values, offsetBytes);
  };
  std::int64_t elementsPerLine = lineBytes / std::gcd(lineBytes, elementBytes);
  return counting::interpolate(set.params, set.dims.size(), std::max<std::int64_t>(elementsPerLine, 1), enumerate,
                               "an inner extent is a parameter, so the line index is not affine");
}

std::int64_t enumerateLines(const IntegerSet& set, const std::vector<Expr>& subscripts, const std::vector<Expr>& extents,
                            std::int64_t elementBytes, std::int64_t lineBytes, const ParamValues& values,
                            const Expr& offsetBytes) {
  std::string bad = checkShape(subscripts, extents, elementBytes, lineBytes);
  if (!bad.empty()) throw std::runtime_error(bad);
  GiNaC::exmap bound;
  for (const auto& p : set.params) {
    auto it = values.find(p.get_name());
    if (it == values.end()) throw std::runtime_error("no value for parameter '" + p.get_name() + "'");
    bound[p] = GiNaC::numeric(it->second);
  }
  std::vector<Expr> fixedExtents;
  fixedExtents.reserve(extents.size());
  for (const auto& e : extents) fixedExtents.push_back(GiNaC::expand(e.subs(bound)));
  if (!innerExtentsAreNumbers(fixedExtents)) throw std::runtime_error("an inner extent is not a number at these values");
  return enumerateImage(set, {lineSubscript(subscripts, fixedExtents, elementBytes, lineBytes, offsetBytes)}, values);
}

}  // namespace cats::sym
