#include "symbolic/affine.hpp"

#include <catch2/catch.hpp>

using namespace cats::sym;

TEST_CASE("affine decomposition splits iterators, parameters and the rest", "[symbolic][affine]") {
  Context ctx;
  Symbol i = ctx.symbol("i", SymbolKind::Iterator);
  Symbol j = ctx.symbol("j", SymbolKind::Iterator);
  Symbol n = ctx.symbol("n", SymbolKind::Parameter);
  Symbol col = ctx.symbol("col", SymbolKind::Container);

  SECTION("matrix subscript") {
    AffineForm f = decompose(8 * (i * n + j) + 16, {i, j}, ctx);
    CHECK(f.isAffine());
    CHECK((f.coefficientOf(i) - 8 * n).expand().is_zero());
    CHECK(f.coefficientOf(j).is_equal(8));
    CHECK(f.parameterPart.is_equal(16));
  }
  SECTION("products of iterators are not affine") {
    AffineForm f = decompose(8 * i * j + 8 * i, {i, j}, ctx);
    CHECK(!f.isAffine());
    CHECK((f.nonAffinePart - 8 * i * j).expand().is_zero());
    CHECK(f.coefficientOf(i).is_equal(8));
  }
  SECTION("loaded values are the indirect part") {
    AffineForm f = decompose(8 * load(col, 4 * j) + n, {i, j}, ctx);
    CHECK((f.indirectPart - 8 * load(col, 4 * j)).expand().is_zero());
    CHECK(f.parameterPart.is_equal(n));
    CHECK(f.coefficients.empty());
  }
  SECTION("the budget gives up instead of expanding forever") {
    AffineForm f = decompose(pow(i + n, 50), {i}, ctx);
    CHECK(f.exceededBudget);
    CHECK(!f.isAffine());
  }
}
