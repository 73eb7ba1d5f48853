// Loop and branch constraints of the polyhedral model (see poly_domain.hpp). Trip counts
// follow sim/stream.cpp exactly, so that domain sizes equal the accesses `simulate --model O0`
// makes: trips = ceil(distance / stride) when both are positive, else 0.
#include "poly_domain.hpp"

#include "poly_affine.hpp"

namespace cats::trace {

namespace {

using sym::Constraint;

Constraint never() { return Constraint{-1, false}; }

/* Exclusive end in the direction of the loop, as compileLoop in sim/concretize.cpp. */
sym::Expr endOf(const Scope& loop) {
  if (loop.comparison == ir::Comparison::LessEqual) return loop.bound + 1;
  if (loop.comparison == ir::Comparison::GreaterEqual) return loop.bound - 1;
  return loop.bound;
}

/* The first reason one of the loop's start, bound or step is not affine in "outer". */
std::optional<std::string> boundsReason(const Scope& loop, const std::set<std::string>& outer, const sym::Context& ctx) {
  if (auto r = nonAffineReason(loop.start, outer, ctx)) return "loop " + loop.iterator + " starts at a non-affine value: " + *r;
  if (auto r = nonAffineReason(loop.bound, outer, ctx)) return "loop " + loop.iterator + " has a non-affine bound: " + *r;
  if (auto r = nonAffineReason(loop.step, outer, ctx)) return "loop " + loop.iterator + " has a non-affine step: " + *r;
  return std::nullopt;
}

}  // namespace

LoopDomain loopDomain(const Scope& loop, const sym::Symbol& i, const std::set<std::string>& outer, const sym::Context& ctx) {
  LoopDomain d;
  std::string where = loop.loc.str();
  if (loop.iterator.empty()) {
    d.reason = "opaque loop at " + where + (loop.opaqueReason.empty() ? "" : ": " + loop.opaqueReason);
    return d;
  }
  if (loop.earlyExit) {
    d.reason = "loop " + loop.iterator + " at " + where + " has an early exit (its trip count is an upper bound)";
    return d;
  }
  if ((d.reason = boundsReason(loop, outer, ctx))) return d;
  auto step = sym::toInteger(loop.step);
  if (!step || *step == 0) {
    d.reason = "loop " + loop.iterator + " at " + where + " has a step that is not a non-zero constant: " + sym::print(loop.step);
    return d;
  }
  bool increasing = loop.comparison == ir::Comparison::Less || loop.comparison == ir::Comparison::LessEqual ||
                    (loop.comparison == ir::Comparison::NotEqual && *step > 0);
  std::int64_t stride = increasing ? *step : -*step;
  sym::Expr start = loop.start, end = endOf(loop);
  if (stride <= 0) {
    d.body.push_back(never());
    d.header.push_back(Constraint::equal(i, start));
    return d;
  }
  if (stride > 1) {
    sym::Symbol t("__t_" + loop.iterator);
    d.existentials.push_back(t);
    Constraint onGrid = Constraint::equal(i, start + *step * t);
    d.body.push_back(onGrid);
    d.header.push_back(onGrid);
    d.body.push_back(Constraint::atLeast(t, 0));
    d.header.push_back(Constraint::atLeast(t, 0));
  }
  if (increasing) {
    d.body.push_back(Constraint::atLeast(i, start));
    d.body.push_back(Constraint::lessThan(i, end));
    d.header.push_back(Constraint::atLeast(i, start));
    d.header.push_back(Constraint::atLeast(sym::maxOf(start, end + stride - 1), i));
  } else {
    d.body.push_back(Constraint::atLeast(start, i));
    d.body.push_back(Constraint::lessThan(end, i));
    d.header.push_back(Constraint::atLeast(start, i));
    d.header.push_back(Constraint::atLeast(i, sym::minOf(start, end - stride + 1)));
  }
  return d;
}

namespace {

constexpr std::size_t kMaxPieces = 16;  // beyond: over-approximate, the domain is inexact

using Pieces = ConditionPieces;

Pieces always() { return Pieces{{{}}, true, {}}; }
Pieces nowhere() { return Pieces{{}, true, {}}; }
Pieces onData(std::string reason) { return Pieces{{{}}, false, std::move(reason)}; }
Pieces one(Constraint c) { return Pieces{{{std::move(c)}}, true, {}}; }

/* "a op b" over integers: != is two pieces. */
Pieces relation(sym::ConditionOp op, const sym::Expr& a, const sym::Expr& b) {
  switch (op) {
    case sym::ConditionOp::Less: return one(Constraint::lessThan(a, b));
    case sym::ConditionOp::LessEqual: return one(Constraint::atLeast(b, a));
    case sym::ConditionOp::Greater: return one(Constraint::lessThan(b, a));
    case sym::ConditionOp::GreaterEqual: return one(Constraint::atLeast(a, b));
    case sym::ConditionOp::Equal: return one(Constraint::equal(a, b));
    case sym::ConditionOp::NotEqual: return Pieces{{{Constraint::lessThan(a, b)}, {Constraint::lessThan(b, a)}}, true, {}};
    default: return onData("not a relation");
  }
}

sym::ConditionOp negatedRelation(sym::ConditionOp op) {
  switch (op) {
    case sym::ConditionOp::Less: return sym::ConditionOp::GreaterEqual;
    case sym::ConditionOp::LessEqual: return sym::ConditionOp::Greater;
    case sym::ConditionOp::Greater: return sym::ConditionOp::LessEqual;
    case sym::ConditionOp::GreaterEqual: return sym::ConditionOp::Less;
    case sym::ConditionOp::Equal: return sym::ConditionOp::NotEqual;
    case sym::ConditionOp::NotEqual: return sym::ConditionOp::Equal;
    default: return op;
  }
}

/* Where "a" or "b" holds: a's pieces, then b's outside a ("notA": where a does not hold), so
   that the pieces stay disjoint. Inexact when either part is. */
Pieces either(const Pieces& a, const Pieces& notA, const Pieces& b) {
  if (!a.exact || !b.exact) return onData(a.exact ? b.reason : a.reason);
  Pieces out = a;
  for (auto& piece : Pieces::both(notA, b).pieces) out.pieces.push_back(std::move(piece));
  if (out.pieces.size() > kMaxPieces) return onData("more than " + std::to_string(kMaxPieces) + " pieces");
  return out;
}

}  // namespace

ConditionPieces ConditionPieces::both(const ConditionPieces& a, const ConditionPieces& b) {
  ConditionPieces out;
  out.exact = a.exact && b.exact;
  out.reason = !a.exact ? a.reason : b.reason;
  for (const auto& x : a.pieces)
    for (const auto& y : b.pieces) {
      std::vector<Constraint> piece = x;
      piece.insert(piece.end(), y.begin(), y.end());
      out.pieces.push_back(std::move(piece));
    }
  if (out.pieces.size() > kMaxPieces) return onData("more than " + std::to_string(kMaxPieces) + " pieces");
  return out;
}

ConditionPieces conditionPieces(const sym::Condition& c, bool negated, const std::set<std::string>& dims, const sym::Context& ctx) {
  switch (c.op) {
    case sym::ConditionOp::True: return negated ? nowhere() : always();
    case sym::ConditionOp::Opaque: return onData("condition '" + c.text + "' is not followed");
    case sym::ConditionOp::Not: return conditionPieces(c.operands.at(0), !negated, dims, ctx);
    case sym::ConditionOp::And:
    case sym::ConditionOp::Or: {
      const sym::Condition& x = c.operands.at(0);
      const sym::Condition& y = c.operands.at(1);
      Pieces a = conditionPieces(x, negated, dims, ctx);
      Pieces b = conditionPieces(y, negated, dims, ctx);
      bool conjunction = (c.op == sym::ConditionOp::And) != negated;
      return conjunction ? Pieces::both(a, b) : either(a, conditionPieces(x, !negated, dims, ctx), b);
    }
    default: {
      for (const sym::Expr* side : {&c.lhs, &c.rhs})
        if (auto r = nonAffineReason(*side, dims, ctx)) return onData("condition " + sym::print(c) + " depends on data: " + *r);
      return relation(negated ? negatedRelation(c.op) : c.op, c.lhs, c.rhs);
    }
  }
}

}  // namespace cats::trace
