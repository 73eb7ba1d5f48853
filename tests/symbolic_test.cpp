#include "symbolic/budget.hpp"
#include "symbolic/condition.hpp"
#include "symbolic/expr.hpp"

#include <catch2/catch.hpp>

using namespace cats::sym;

TEST_CASE("a name maps to one symbol per kind", "[symbolic]") {
  Context ctx;
  Symbol n1 = ctx.symbol("n", SymbolKind::Parameter);
  Symbol n2 = ctx.symbol("n", SymbolKind::Parameter);
  CHECK(n1.is_equal(n2));
  Symbol iterator = ctx.symbol("n", SymbolKind::Iterator);
  CHECK(iterator.get_name() == "n_2");
  CHECK(ctx.kindOf(iterator) == SymbolKind::Iterator);
  CHECK(ctx.freshSymbol("n", SymbolKind::Unknown).get_name() == "n_3");
  CHECK(ctx.symbol("I", SymbolKind::Parameter).get_name() == "I_2");  // GiNaC reads I as the imaginary unit
}

TEST_CASE("print and parse round-trip", "[symbolic]") {
  Context ctx;
  Symbol i = ctx.symbol("i", SymbolKind::Iterator);
  Symbol n = ctx.symbol("n", SymbolKind::Parameter);
  Symbol col = ctx.symbol("col", SymbolKind::Container);
  const std::vector<Expr> cases = {8 * i * n + 8 * i, Expr(0), -8 * i + 4, load(col, 4 * i) * 8,
                                   idiv(n, 3) + imod(i, 4), minOf(n, i + 32), maxOf(Expr(0), n - 1), pow(i, 2) - n};
  for (const auto& e : cases) {
    std::string text = print(e);
    INFO(text);
    CHECK((ctx.parse(text) - e).expand().is_zero());
    CHECK(print(ctx.parse(text)) == text);
  }
  CHECK_THROWS_AS(ctx.parse("x + 1"), ParseError);
}

TEST_CASE("sums print in a fixed order, constants last", "[symbolic]") {
  Context ctx;
  Symbol j = ctx.symbol("j", SymbolKind::Iterator);
  Symbol i = ctx.symbol("i", SymbolKind::Iterator);
  CHECK(print(8 * j + 1600 * i - 8) == "1600*i + 8*j - 8");
}

TEST_CASE("C integer division and remainder fold on numbers", "[symbolic]") {
  CHECK(idiv(7, 2).is_equal(3));
  CHECK(idiv(-7, 2).is_equal(-3));  // C truncates toward zero
  CHECK(imod(-7, 2).is_equal(-1));
  CHECK(imod(7, 1).is_equal(0));
  Context ctx;
  Symbol n = ctx.symbol("n", SymbolKind::Parameter);
  CHECK(idiv(n, 1).is_equal(n));
  CHECK(!GiNaC::is_a<GiNaC::numeric>(idiv(n, 2)));
  CHECK(idiv(n, 2).subs(GiNaC::lst{n == 9}).is_equal(4));
}

TEST_CASE("queries over expressions", "[symbolic]") {
  Context ctx;
  Symbol j = ctx.symbol("j", SymbolKind::Iterator);
  Symbol col = ctx.symbol("col", SymbolKind::Container);
  Symbol u = ctx.freshSymbol("unknown_k", SymbolKind::Unknown);
  Expr e = 8 * load(col, 4 * j) + u;
  CHECK(containersIn(e) == std::vector<std::string>{"col"});
  CHECK(containsUnknown(e, ctx));
  CHECK(isLoad(load(col, j)));
  CHECK(symbolsOfKind(e, ctx, SymbolKind::Iterator).size() == 1);
  CHECK(toInteger(Expr(42)) == 42);
  CHECK(!toInteger(Expr(1) / 2));
}

TEST_CASE("budgets turn runaway expansion into 'unknown'", "[symbolic]") {
  Context ctx;
  Symbol a = ctx.symbol("a", SymbolKind::Parameter);
  Symbol b = ctx.symbol("b", SymbolKind::Parameter);
  Budget budget;
  CHECK(expandWithin(pow(a + b, 3), budget).has_value());
  CHECK(!expandWithin(pow(a + b, 40), budget).has_value());
  budget.maxTerms = 3;
  CHECK(!expandWithin(pow(a + b, 3), budget).has_value());  // 4 terms
}

TEST_CASE("conditions evaluate when the parameters decide them", "[symbolic]") {
  Context ctx;
  Symbol n = ctx.symbol("n", SymbolKind::Parameter);
  Condition c = Condition::relation(ConditionOp::Less, n, 100);
  CHECK(!c.evaluate().has_value());
  CHECK(c.substitute({{n, 50}}).evaluate() == true);
  CHECK(c.substitute({{n, 100}}).evaluate() == false);
  Condition both = Condition::conjunction(ConditionOp::And, c, Condition::opaque("flag"));
  CHECK(both.substitute({{n, 200}}).evaluate() == false);  // false && anything
  CHECK(!both.substitute({{n, 50}}).evaluate().has_value());
  CHECK(Condition::negation(c).substitute({{n, 1}}).evaluate() == false);
  CHECK(print(c) == "n < 100");
  CHECK(both.isOpaque());
}
