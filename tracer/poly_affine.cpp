// Affinity of expressions for the polyhedral model (see poly_affine.hpp).
#include "poly_affine.hpp"

namespace cats::trace {

namespace {

/* The reason "e" (expanded) is not affine; "dims" and "ctx" as in nonAffineReason. */
std::optional<std::string> reasonOf(const sym::Expr& e, const std::set<std::string>& dims, const sym::Context& ctx);

std::optional<std::string> symbolReason(const sym::Symbol& s, const std::set<std::string>& dims, const sym::Context& ctx) {
  auto kind = ctx.kindOf(s);
  if (!kind) return dims.count(s.get_name()) ? std::nullopt : std::optional<std::string>("unknown symbol " + s.get_name());
  switch (*kind) {
    case sym::SymbolKind::Parameter: return std::nullopt;
    case sym::SymbolKind::Iterator:
      if (dims.count(s.get_name())) return std::nullopt;
      return "iterator " + s.get_name() + " of a loop that does not enclose it";
    case sym::SymbolKind::Container: return "address of container " + s.get_name();
    case sym::SymbolKind::Unknown: {
      const sym::SymbolInfo* info = ctx.info(s.get_name());
      return "unknown value " + s.get_name() + (info && !info->note.empty() ? " (" + info->note + ")" : "");
    }
  }
  return "unknown symbol " + s.get_name();
}

/* A load or a function of ours: loads are indirect, idiv/imod need a constant divisor. */
std::optional<std::string> functionReason(const sym::Expr& e, const std::set<std::string>& dims, const sym::Context& ctx) {
  if (sym::isLoad(e)) {
    std::string via;
    for (const auto& c : sym::containersIn(e)) via += (via.empty() ? "" : ", ") + c;
    return "indirect via " + via;
  }
  std::string name = GiNaC::ex_to<GiNaC::function>(e).get_name();
  if (name == "idiv" || name == "imod") {
    auto divisor = sym::toInteger(e.op(1));
    if (!divisor || *divisor <= 0) return "division by a non-constant in " + sym::print(e);
    return reasonOf(e.op(0).expand(), dims, ctx);
  }
  if (name == "min" || name == "max") {
    if (auto r = reasonOf(e.op(0).expand(), dims, ctx)) return r;
    return reasonOf(e.op(1).expand(), dims, ctx);
  }
  return "unsupported function in " + sym::print(e);
}

std::optional<std::string> reasonOf(const sym::Expr& e, const std::set<std::string>& dims, const sym::Context& ctx) {
  if (GiNaC::is_a<GiNaC::numeric>(e)) {
    if (GiNaC::ex_to<GiNaC::numeric>(e).is_rational()) return std::nullopt;
    return "non-rational number " + sym::print(e);
  }
  if (GiNaC::is_a<GiNaC::symbol>(e)) return symbolReason(GiNaC::ex_to<GiNaC::symbol>(e), dims, ctx);
  if (GiNaC::is_a<GiNaC::add>(e)) {
    for (std::size_t k = 0; k < e.nops(); ++k)
      if (auto r = reasonOf(e.op(k), dims, ctx)) return r;
    return std::nullopt;
  }
  if (GiNaC::is_a<GiNaC::mul>(e)) {
    std::size_t factors = 0;
    for (std::size_t k = 0; k < e.nops(); ++k) {
      if (GiNaC::is_a<GiNaC::numeric>(e.op(k))) continue;
      if (auto r = reasonOf(e.op(k), dims, ctx)) return r;
      ++factors;
    }
    if (factors > 1) return "non-affine product " + sym::print(e);
    return std::nullopt;
  }
  if (GiNaC::is_a<GiNaC::function>(e)) return functionReason(e, dims, ctx);
  if (GiNaC::is_a<GiNaC::power>(e)) {
    for (std::size_t k = 0; k < e.nops(); ++k)
      if (auto r = reasonOf(e.op(k), dims, ctx)) return r;
    return "non-affine power " + sym::print(e);
  }
  return "non-affine expression " + sym::print(e);
}

}  // namespace

std::optional<std::string> nonAffineReason(const sym::Expr& e, const std::set<std::string>& dims, const sym::Context& ctx) {
  return reasonOf(e.expand(), dims, ctx);
}

}  // namespace cats::trace
