// Classification: indirect if another container's value (or an unknown) is in the offset;
// constant without iterators; stride-1 when the innermost varying iterator walks elements
// contiguously; stride-k otherwise, with the stride as a formula.
#include "tracer/classify.hpp"

namespace cats::trace {

/* True if "offset" holds any symbol that changes in "loop". */
static bool variesIn(const sym::Expr& offset, const EnclosingLoop& loop) {
  for (const auto& s : loop.varying)
    if (offset.has(s)) return true;
  return false;
}

/* Stride-1 test: step ±1, iterator only additive with coefficient ±bytes. */
static std::optional<sym::Expr> contiguousStride(const sym::Expr& expanded, const sym::Symbol& it, const sym::Expr& step,
                                                 std::int64_t bytes) {
  auto s = sym::toInteger(step);
  if (!s || (*s != 1 && *s != -1)) return std::nullopt;
  if (!expanded.is_polynomial(it) || expanded.degree(it) != 1) return std::nullopt;
  sym::Expr coefficient = expanded.coeff(it, 1);
  if (coefficient.has(it)) return std::nullopt;
  auto c = sym::toInteger(coefficient);
  if (!c || (*c != bytes && *c != -bytes)) return std::nullopt;
  return sym::Expr(*c * *s);
}

Classification classify(const sym::Expr& offset, std::int64_t bytes, const std::vector<EnclosingLoop>& loops,
                        const sym::Context& ctx, const sym::Budget& budget) {
  Classification out;
  sym::Expr expanded = sym::expandWithin(offset, budget).value_or(offset);
  if (!loops.empty()) out.invariantInInnermostLoop = !variesIn(expanded, loops.back());
  out.indirectVia = sym::containersIn(expanded);
  bool hasUnknown = sym::containsUnknown(expanded, ctx);
  if (!out.indirectVia.empty() || hasUnknown) {
    out.kind = AccessClass::Indirect;
    out.approximate = hasUnknown;
    return out;
  }
  for (auto loop = loops.rbegin(); loop != loops.rend(); ++loop) {
    if (!loop->iterator || !expanded.has(*loop->iterator)) continue;
    const sym::Symbol& it = *loop->iterator;
    out.strideIterator = it.get_name();
    if (auto stride = contiguousStride(expanded, it, loop->step, bytes)) {
      out.kind = AccessClass::Stride1;
      out.strideBytes = *stride;
      return out;
    }
    out.kind = AccessClass::StrideK;
    GiNaC::exmap next{{it, it + loop->step}};
    out.strideBytes = sym::expandWithin(expanded.subs(next) - expanded, budget).value_or(expanded.subs(next) - expanded);
    return out;
  }
  out.kind = AccessClass::Constant;
  return out;
}

}  // namespace cats::trace
