// Array forms of access events (see poly_subscripts.hpp).
#include "poly_subscripts.hpp"

#include "poly_affine.hpp"

namespace cats::trace {

namespace {

/* Every number in the sum "e" (expanded) is an integer coefficient or constant. */
bool integerCoefficients(const sym::Expr& e) {
  auto integral = [](const sym::Expr& term) {
    if (GiNaC::is_a<GiNaC::numeric>(term)) return GiNaC::ex_to<GiNaC::numeric>(term).is_integer();
    if (GiNaC::is_a<GiNaC::mul>(term))
      for (std::size_t k = 0; k < term.nops(); ++k)
        if (GiNaC::is_a<GiNaC::numeric>(term.op(k)) && !GiNaC::ex_to<GiNaC::numeric>(term.op(k)).is_integer()) return false;
    return true;
  };
  if (!GiNaC::is_a<GiNaC::add>(e)) return integral(e);
  for (std::size_t k = 0; k < e.nops(); ++k)
    if (!integral(e.op(k))) return false;
  return true;
}

/* The row-major address of "f" is the event's offset, up to a field inside one element: the
   subscripts do not index the container in another shape (a cast or a reshaping pointer). */
bool addressesAgree(const ArrayForm& f, const Event& e) {
  sym::Expr linear = 0;
  for (std::size_t k = 0; k < f.subscripts.size(); ++k) {
    if (k > 0 && f.extents[k].is_zero()) return false;
    linear = k == 0 ? f.subscripts[0] : linear * f.extents[k] + f.subscripts[k];
  }
  auto field = sym::toInteger((e.offset - f.elementBytes * linear).expand());
  return field && *field >= 0 && *field < f.elementBytes;
}

/* The frontend's subscripts with the container's extents, when they match its dimensions (a
   pointer's leading subscript has no extent). */
std::optional<ArrayForm> declaredForm(const Event& e, const Container& c) {
  if (e.subscripts.empty() || c.elementBytes <= 0) return std::nullopt;
  ArrayForm f;
  f.subscripts = e.subscripts;
  f.elementBytes = c.elementBytes;
  if (c.dims.size() == e.subscripts.size()) {
    f.extents = c.dims;
  } else if (c.dims.size() + 1 == e.subscripts.size()) {
    f.extents.push_back(0);
    for (const auto& d : c.dims) f.extents.push_back(d);
  } else {
    return std::nullopt;
  }
  return addressesAgree(f, e) ? std::optional<ArrayForm>(f) : std::nullopt;
}

/* One subscript: the byte offset in elements, or in bytes. */
ArrayForm flatForm(const Event& e, const Container& c) {
  ArrayForm f;
  std::int64_t unit = c.elementBytes > 0 ? c.elementBytes : 1;
  sym::Expr index = (e.offset / unit).expand();
  if (!integerCoefficients(index)) {
    unit = 1;
    index = e.offset;
  }
  f.subscripts = {index};
  f.elementBytes = unit;
  sym::Expr total = c.sizeBytes;
  auto bytes = sym::toInteger(total);
  f.extents = {bytes && *bytes % unit == 0 ? sym::Expr(*bytes / unit) : sym::Expr(0)};
  return f;
}

/* "r" is an iterator whose loop runs within [0, n): start a number >= 0, increasing with step
   > 0, exclusive end n. */
bool withinZeroTo(const sym::Expr& r, const sym::Expr& n, const std::map<std::string, const Scope*>& loops) {
  if (!GiNaC::is_a<GiNaC::symbol>(r)) return false;
  auto it = loops.find(GiNaC::ex_to<GiNaC::symbol>(r).get_name());
  if (it == loops.end()) return false;
  const Scope& loop = *it->second;
  auto start = sym::toInteger(loop.start);
  auto step = sym::toInteger(loop.step);
  if (!start || *start < 0 || !step || *step <= 0) return false;
  sym::Expr end = loop.bound;
  if (loop.comparison == ir::Comparison::LessEqual) end = loop.bound + 1;
  else if (loop.comparison != ir::Comparison::Less && loop.comparison != ir::Comparison::NotEqual) return false;
  return (end - n).expand().is_zero();
}

/* "s" as subscripts [.., q, r] with inner extents: s = n*q + r for a parameter n with r in
   [0, n) by its loop, recursively on q (outermost first). Just [s] when no split applies. */
std::pair<std::vector<sym::Expr>, std::vector<sym::Expr>> delinearise(const sym::Expr& s, const std::map<std::string, const Scope*>& loops,
                                                                   const sym::Context& ctx) {
  sym::Expr x = s.expand();
  for (const auto& n : sym::symbolsOfKind(x, ctx, sym::SymbolKind::Parameter)) {
    if (x.degree(n) != 1 || x.ldegree(n) != 0) continue;
    sym::Expr q = x.coeff(n, 1).expand(), r = x.coeff(n, 0).expand();
    if (q.is_zero() || !withinZeroTo(r, n, loops)) continue;
    auto [subscripts, extents] = delinearise(q, loops, ctx);
    subscripts.push_back(r);
    extents.push_back(n);
    return {subscripts, extents};
  }
  return {{x}, {0}};
}

/* "f" with a single non-affine subscript replaced by its delinearisation, when there is one. */
void delineariseSingle(ArrayForm& f, const std::set<std::string>& dims, const std::map<std::string, const Scope*>& loops,
                       const sym::Context& ctx) {
  if (f.subscripts.size() != 1 || !nonAffineReason(f.subscripts[0], dims, ctx)) return;
  auto [subscripts, extents] = delinearise(f.subscripts[0], loops, ctx);
  if (subscripts.size() < 2) return;
  f.subscripts = std::move(subscripts);
  f.extents = std::move(extents);
}

/* The leading extent of "f" from the container's size when it is unknown (0): size / (element
   bytes x inner extents), when that is a polynomial with integer coefficients in parameters. */
void fillLeadingExtent(ArrayForm& f, const Container& c, const sym::Context& ctx) {
  if (f.extents.empty() || !f.extents.front().is_zero()) return;
  sym::Expr inner = f.elementBytes;
  for (std::size_t k = 1; k < f.extents.size(); ++k) inner *= f.extents[k];
  if (inner.is_zero() || sym::containsUnknown(c.sizeBytes, ctx) || !sym::containersIn(c.sizeBytes).empty()) return;
  sym::Expr lead = GiNaC::normal(c.sizeBytes / inner).expand();
  if (!lead.info(GiNaC::info_flags::polynomial) || !integerCoefficients(lead) || lead.is_zero()) return;
  if (!sym::symbolsOfKind(lead, ctx, sym::SymbolKind::Iterator).empty() || sym::containsUnknown(lead, ctx)) return;
  f.extents.front() = lead;
}

}  // namespace

ArrayForm arrayForm(const Event& e, const Container& c, const std::set<std::string>& dims, const std::map<std::string, const Scope*>& loops,
                    const sym::Context& ctx) {
  ArrayForm f = declaredForm(e, c).value_or(flatForm(e, c));
  delineariseSingle(f, dims, loops, ctx);
  fillLeadingExtent(f, c, ctx);
  for (const auto& s : f.subscripts) {
    if (auto r = nonAffineReason(s, dims, ctx)) {
      f.reason = "'" + e.text + "': subscript " + sym::print(s) + " is not affine: " + *r;
      break;
    }
  }
  return f;
}

}  // namespace cats::trace
