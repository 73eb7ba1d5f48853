// Construction, evaluation and printing of branch conditions.
#include "symbolic/condition.hpp"

namespace cats::sym {

Condition Condition::relation(ConditionOp op, Expr lhs, Expr rhs) {
  Condition c;
  c.op = op;
  c.lhs = std::move(lhs);
  c.rhs = std::move(rhs);
  return c;
}

Condition Condition::opaque(std::string sourceText) {
  Condition c;
  c.op = ConditionOp::Opaque;
  c.text = std::move(sourceText);
  return c;
}

Condition Condition::negation(Condition inner) {
  Condition c;
  c.op = ConditionOp::Not;
  c.operands.push_back(std::move(inner));
  return c;
}

Condition Condition::conjunction(ConditionOp andOr, Condition a, Condition b) {
  Condition c;
  c.op = andOr;
  c.operands.push_back(std::move(a));
  c.operands.push_back(std::move(b));
  return c;
}

bool Condition::isOpaque() const {
  if (op == ConditionOp::Opaque) return true;
  for (const auto& o : operands)
    if (o.isOpaque()) return true;
  return false;
}

/* Sign of "difference" when it is a number. */
static std::optional<int> signOf(const Expr& difference) {
  Expr d = difference.expand();
  if (!GiNaC::is_a<GiNaC::numeric>(d)) return std::nullopt;
  const auto& n = GiNaC::ex_to<GiNaC::numeric>(d);
  if (!n.is_real()) return std::nullopt;
  return n.is_zero() ? 0 : (n.is_positive() ? 1 : -1);
}

std::optional<bool> Condition::evaluate() const {
  switch (op) {
    case ConditionOp::True: return true;
    case ConditionOp::Opaque: return std::nullopt;
    case ConditionOp::Not: {
      auto v = operands.at(0).evaluate();
      return v ? std::optional<bool>(!*v) : std::nullopt;
    }
    case ConditionOp::And:
    case ConditionOp::Or: {
      auto a = operands.at(0).evaluate();
      auto b = operands.at(1).evaluate();
      bool isAnd = op == ConditionOp::And;
      if ((a && *a != isAnd) || (b && *b != isAnd)) return !isAnd;
      if (a && b) return isAnd;
      return std::nullopt;
    }
    case ConditionOp::Less:
    case ConditionOp::LessEqual:
    case ConditionOp::Greater:
    case ConditionOp::GreaterEqual:
    case ConditionOp::Equal:
    case ConditionOp::NotEqual: {
      auto s = signOf(lhs - rhs);
      if (!s) return std::nullopt;
      switch (op) {
        case ConditionOp::Less: return *s < 0;
        case ConditionOp::LessEqual: return *s <= 0;
        case ConditionOp::Greater: return *s > 0;
        case ConditionOp::GreaterEqual: return *s >= 0;
        case ConditionOp::Equal: return *s == 0;
        default: return *s != 0;
      }
    }
  }
  return std::nullopt;
}

Condition Condition::substitute(const GiNaC::exmap& map) const {
  Condition c = *this;
  c.lhs = lhs.subs(map);
  c.rhs = rhs.subs(map);
  for (auto& o : c.operands) o = o.substitute(map);
  return c;
}

void Condition::forEachSide(const std::function<void(const Expr&)>& visit) const {
  if (op != ConditionOp::True && op != ConditionOp::Opaque && operands.empty()) {
    visit(lhs);
    visit(rhs);
  }
  for (const auto& o : operands) o.forEachSide(visit);
}

Condition Condition::mapSides(const std::function<Expr(const Expr&)>& f) const {
  Condition c = *this;
  if (op != ConditionOp::True && op != ConditionOp::Opaque && operands.empty()) {
    c.lhs = f(lhs);
    c.rhs = f(rhs);
  }
  for (auto& o : c.operands) o = o.mapSides(f);
  return c;
}

static std::string_view relationText(ConditionOp op) {
  switch (op) {
    case ConditionOp::Less: return "<";
    case ConditionOp::LessEqual: return "<=";
    case ConditionOp::Greater: return ">";
    case ConditionOp::GreaterEqual: return ">=";
    case ConditionOp::Equal: return "==";
    case ConditionOp::NotEqual: return "!=";
    default: return "?";
  }
}

std::string print(const Condition& c) {
  switch (c.op) {
    case ConditionOp::True: return "true";
    case ConditionOp::Opaque: return "opaque(" + c.text + ")";
    case ConditionOp::Not: return "!(" + print(c.operands.at(0)) + ")";
    case ConditionOp::And: return "(" + print(c.operands.at(0)) + ") && (" + print(c.operands.at(1)) + ")";
    case ConditionOp::Or: return "(" + print(c.operands.at(0)) + ") || (" + print(c.operands.at(1)) + ")";
    default: return print(c.lhs) + " " + std::string(relationText(c.op)) + " " + print(c.rhs);
  }
}

}  // namespace cats::sym
