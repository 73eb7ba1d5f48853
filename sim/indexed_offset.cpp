// Splitting data-dependent offsets into element index, element stride and field offset.
#include "indexed_offset.hpp"

#include <numeric>
#include <vector>

namespace cats::sim {

bool needsData(const sym::Expr& e, const sym::Context& ctx) { return !sym::containersIn(e).empty() || sym::containsUnknown(e, ctx); }

namespace {

/* The integer factor of a product term (1 when it has none). */
std::int64_t integerFactor(const sym::Expr& term) {
  if (auto whole = sym::toInteger(term)) return *whole;
  if (!GiNaC::is_a<GiNaC::mul>(term)) return 1;
  std::int64_t factor = 1;
  for (std::size_t i = 0; i < term.nops(); ++i)
    if (auto n = sym::toInteger(term.op(i))) factor *= *n;
  return factor;
}

}  // namespace

IndexedOffset splitIndexed(const sym::Expr& offset, const sym::Context& ctx, std::int64_t accessBytes) {
  sym::Expr e = offset.expand();
  std::vector<sym::Expr> terms;
  if (GiNaC::is_a<GiNaC::add>(e))
    for (std::size_t i = 0; i < e.nops(); ++i) terms.push_back(e.op(i));
  else
    terms.push_back(e);
  IndexedOffset out;
  sym::Expr data = 0;
  out.rest = 0;
  std::int64_t stride = 0;
  for (const sym::Expr& t : terms) {
    if (!needsData(t, ctx)) {
      out.rest += t;
      continue;
    }
    data += t;
    stride = std::gcd(stride, integerFactor(t));
  }
  out.stride = stride >= std::max<std::int64_t>(accessBytes, 1) ? stride : 1;
  out.index = (data / out.stride).expand();
  if (out.stride == 1 && accessBytes > 1) {
    out.stride = accessBytes;  // an index in bytes: draw whole accesses, as the accesses are aligned
    out.index = data;
  }
  out.unknown = sym::containsUnknown(data, ctx);
  return out;
}

}  // namespace cats::sim
