// Guarded expansion: GiNaC's expand() can blow up, so we check the shape first.
#include "symbolic/budget.hpp"

namespace cats::sym {

std::size_t nodeCount(const Expr& e) {
  std::size_t n = 1;
  for (std::size_t i = 0; i < e.nops(); ++i) n += nodeCount(e.op(i));
  return n;
}

/* True if "e" holds a power of a sum with an exponent above "limit". */
static bool hasLargePowerOfSum(const Expr& e, long limit) {
  if (GiNaC::is_a<GiNaC::power>(e) && GiNaC::is_a<GiNaC::add>(e.op(0))) {
    auto exponent = toInteger(e.op(1));
    if (!exponent || *exponent > limit) return true;
  }
  for (std::size_t i = 0; i < e.nops(); ++i)
    if (hasLargePowerOfSum(e.op(i), limit)) return true;
  return false;
}

std::optional<Expr> expandWithin(const Expr& e, const Budget& budget) {
  if (nodeCount(e) > budget.maxNodes || hasLargePowerOfSum(e, budget.maxExpandedPower)) return std::nullopt;
  Expr expanded = e.expand();
  if (GiNaC::is_a<GiNaC::add>(expanded) && expanded.nops() > budget.maxTerms) return std::nullopt;
  return expanded;
}

}  // namespace cats::sym
