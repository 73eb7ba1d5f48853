// Evaluation and printing of piecewise counts. idiv/imod in counts are floor division and the
// non-negative remainder (isl's floor and mod), which C truncation only matches for a
// non-negative dividend: values are therefore computed here, never by GiNaC's subs.
#include "symbolic/polyhedral.hpp"

#include <algorithm>

namespace cats::sym {

namespace {

struct UnboundSymbol {};

GiNaC::numeric floorQuotient(const GiNaC::numeric& a, const GiNaC::numeric& b) {
  GiNaC::numeric r = GiNaC::mod(a, GiNaC::abs(b));
  return (a - r) / b;
}

/* "e" at "values" with floor semantics for idiv/imod. Throws UnboundSymbol. */
GiNaC::numeric valueAt(const Expr& e, const ParamValues& values) {
  if (GiNaC::is_a<GiNaC::numeric>(e)) return GiNaC::ex_to<GiNaC::numeric>(e);
  if (GiNaC::is_a<GiNaC::symbol>(e)) {
    auto it = values.find(GiNaC::ex_to<GiNaC::symbol>(e).get_name());
    if (it == values.end()) throw UnboundSymbol{};
    return GiNaC::numeric(it->second);
  }
  if (GiNaC::is_a<GiNaC::add>(e)) {
    GiNaC::numeric sum = 0;
    for (std::size_t k = 0; k < e.nops(); ++k) sum += valueAt(e.op(k), values);
    return sum;
  }
  if (GiNaC::is_a<GiNaC::mul>(e)) {
    GiNaC::numeric product = 1;
    for (std::size_t k = 0; k < e.nops(); ++k) product *= valueAt(e.op(k), values);
    return product;
  }
  if (GiNaC::is_a<GiNaC::power>(e)) return GiNaC::pow(valueAt(e.op(0), values), valueAt(e.op(1), values));
  if (GiNaC::is_a<GiNaC::function>(e)) {
    std::string name = GiNaC::ex_to<GiNaC::function>(e).get_name();
    GiNaC::numeric a = valueAt(e.op(0), values);
    GiNaC::numeric b = valueAt(e.op(1), values);
    if (name == "idiv" && !b.is_zero()) return floorQuotient(a, b);
    if (name == "imod" && !b.is_zero()) return a - b * floorQuotient(a, b);
    if (name == "min") return a < b ? a : b;
    if (name == "max") return a < b ? b : a;
  }
  throw UnboundSymbol{};
}

bool satisfied(const Constraint& c, const ParamValues& values) {
  GiNaC::numeric v = valueAt(c.expr, values);
  return c.equality ? v.is_zero() : !v.is_negative();
}

/* Whether every term of "e" has a negative numeric factor (so "-e <= c" reads better). */
bool allNegative(const Expr& e) {
  auto negative = [](const Expr& term) {
    if (!GiNaC::is_a<GiNaC::mul>(term)) return false;
    for (std::size_t k = 0; k < term.nops(); ++k)
      if (GiNaC::is_a<GiNaC::numeric>(term.op(k))) return GiNaC::ex_to<GiNaC::numeric>(term.op(k)).is_negative();
    return false;
  };
  if (!GiNaC::is_a<GiNaC::add>(e)) return negative(e);
  for (std::size_t k = 0; k < e.nops(); ++k)
    if (!negative(e.op(k))) return false;
  return true;
}

/* "N >= 1" for N - 1 >= 0: the constant moves to the right. */
std::string constraintString(const Constraint& c) {
  Expr e = GiNaC::expand(c.expr);
  Expr constant = 0;
  if (GiNaC::is_a<GiNaC::add>(e)) {
    for (std::size_t k = 0; k < e.nops(); ++k)
      if (GiNaC::is_a<GiNaC::numeric>(e.op(k))) constant += e.op(k);
  } else if (GiNaC::is_a<GiNaC::numeric>(e)) {
    constant = e;
  }
  Expr lhs = e - constant;
  if (lhs.is_zero()) return print(e) + (c.equality ? " == 0" : " >= 0");
  if (allNegative(lhs)) return print(-lhs) + (c.equality ? " == " : " <= ") + print(constant);
  return print(lhs) + (c.equality ? " == " : " >= ") + print(-constant);
}

}  // namespace

std::optional<std::int64_t> PiecewiseCount::evaluate(const ParamValues& values) const {
  try {
    for (const auto& piece : pieces) {
      if (!std::all_of(piece.domain.begin(), piece.domain.end(),
                       [&](const Constraint& c) { return satisfied(c, values); }))
        continue;
      GiNaC::numeric v = valueAt(piece.value, values);
      if (!v.is_integer()) return std::nullopt;
      return v.to_long();
    }
    for (const auto& p : params)
      if (values.count(p.get_name()) == 0) return std::nullopt;
    return 0;
  } catch (const UnboundSymbol&) {
    return std::nullopt;
  }
}

std::string PiecewiseCount::str() const {
  if (method.empty()) return "no formula: " + reason + "\n";
  std::vector<std::string> lines;
  for (const auto& piece : pieces) {
    std::vector<std::string> conditions;
    for (const auto& c : piece.domain) conditions.push_back(constraintString(c));
    std::sort(conditions.begin(), conditions.end());
    std::string line;
    for (const auto& c : conditions) line += (line.empty() ? "" : " and ") + c;
    lines.push_back((line.empty() ? "true" : line) + ": " + print(piece.value));
  }
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  if (lines.empty()) out = "true: 0\n";
  if (!exact && !reason.empty()) out += "(approximate: " + reason + ")\n";
  return out;
}

}  // namespace cats::sym
