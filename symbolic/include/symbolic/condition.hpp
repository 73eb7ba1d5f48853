// Branch conditions as symbolic predicates: relations, and/or/not, or opaque text.
#pragma once

#include "symbolic/expr.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cats::sym {

enum class ConditionOp { True, Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual, And, Or, Not, Opaque };

/// A value type: relations hold lhs/rhs, And/Or/Not hold operands, Opaque holds source text.
struct Condition {
  ConditionOp op = ConditionOp::True;
  Expr lhs = 0;
  Expr rhs = 0;
  std::vector<Condition> operands;
  std::string text;

  static Condition relation(ConditionOp op, Expr lhs, Expr rhs);
  static Condition opaque(std::string sourceText);
  static Condition negation(Condition c);
  static Condition conjunction(ConditionOp andOr, Condition a, Condition b);

  bool isOpaque() const;  // true if any part is opaque
  /// True/false when decidable with the symbols' current values in "e" (after substitution).
  std::optional<bool> evaluate() const;
  Condition substitute(const GiNaC::exmap& map) const;
  /// Calls "visit" on the sides of every relation.
  void forEachSide(const std::function<void(const Expr&)>& visit) const;
  /// The condition with "f" applied to the sides of every relation.
  Condition mapSides(const std::function<Expr(const Expr&)>& f) const;
};

std::string print(const Condition& c);

}  // namespace cats::sym
