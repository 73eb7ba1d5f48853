// The GiNaC functions of our expressions: load, idiv, imod, min, max.
#include "symbolic/expr.hpp"

namespace cats::sym {
namespace fn {

DECLARE_FUNCTION_2P(load)
DECLARE_FUNCTION_2P(idiv)
DECLARE_FUNCTION_2P(imod)
DECLARE_FUNCTION_2P(min)
DECLARE_FUNCTION_2P(max)

/* Truncating C division of integer numerics "a" and "b". */
static GiNaC::numeric truncatedQuotient(const GiNaC::numeric& a, const GiNaC::numeric& b) {
  GiNaC::numeric q = GiNaC::iquo(GiNaC::abs(a), GiNaC::abs(b));
  return (a.is_negative() != b.is_negative()) ? -q : q;
}

static bool bothIntegers(const GiNaC::ex& a, const GiNaC::ex& b) {
  return GiNaC::is_a<GiNaC::numeric>(a) && GiNaC::is_a<GiNaC::numeric>(b) &&
         GiNaC::ex_to<GiNaC::numeric>(a).is_integer() && GiNaC::ex_to<GiNaC::numeric>(b).is_integer() &&
         !b.is_zero();
}

static GiNaC::ex idivEval(const GiNaC::ex& a, const GiNaC::ex& b) {
  if (bothIntegers(a, b)) return truncatedQuotient(GiNaC::ex_to<GiNaC::numeric>(a), GiNaC::ex_to<GiNaC::numeric>(b));
  if (b.is_equal(1)) return a;
  if (a.is_zero()) return 0;
  return idiv(a, b).hold();
}

static GiNaC::ex imodEval(const GiNaC::ex& a, const GiNaC::ex& b) {
  if (bothIntegers(a, b)) {
    const auto& na = GiNaC::ex_to<GiNaC::numeric>(a);
    const auto& nb = GiNaC::ex_to<GiNaC::numeric>(b);
    return na - nb * truncatedQuotient(na, nb);
  }
  if (b.is_equal(1) || a.is_zero()) return 0;
  return imod(a, b).hold();
}

static GiNaC::ex minEval(const GiNaC::ex& a, const GiNaC::ex& b) {
  if (a.is_equal(b)) return a;
  if (GiNaC::is_a<GiNaC::numeric>(a) && GiNaC::is_a<GiNaC::numeric>(b))
    return GiNaC::ex_to<GiNaC::numeric>(a) < GiNaC::ex_to<GiNaC::numeric>(b) ? a : b;
  return min(a, b).hold();
}

static GiNaC::ex maxEval(const GiNaC::ex& a, const GiNaC::ex& b) {
  if (a.is_equal(b)) return a;
  if (GiNaC::is_a<GiNaC::numeric>(a) && GiNaC::is_a<GiNaC::numeric>(b))
    return GiNaC::ex_to<GiNaC::numeric>(a) < GiNaC::ex_to<GiNaC::numeric>(b) ? b : a;
  return max(a, b).hold();
}

REGISTER_FUNCTION(load, dummy())
REGISTER_FUNCTION(idiv, eval_func(idivEval))
REGISTER_FUNCTION(imod, eval_func(imodEval))
REGISTER_FUNCTION(min, eval_func(minEval))
REGISTER_FUNCTION(max, eval_func(maxEval))

}  // namespace fn

Expr load(const Symbol& container, const Expr& offset) { return fn::load(container, offset); }
Expr idiv(const Expr& dividend, const Expr& divisor) { return fn::idiv(dividend, divisor); }
Expr imod(const Expr& dividend, const Expr& divisor) { return fn::imod(dividend, divisor); }
Expr minOf(const Expr& a, const Expr& b) { return fn::min(a, b); }
Expr maxOf(const Expr& a, const Expr& b) { return fn::max(a, b); }

bool isLoad(const Expr& e) { return GiNaC::is_the_function<fn::load_SERIAL>(e); }
bool isIdiv(const Expr& e) { return GiNaC::is_the_function<fn::idiv_SERIAL>(e); }

std::pair<Symbol, Expr> loadParts(const Expr& e) {
  return {GiNaC::ex_to<GiNaC::symbol>(e.op(0)), e.op(1)};
}

}  // namespace cats::sym
