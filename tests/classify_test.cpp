#include "tracer/classify.hpp"

#include <catch2/catch.hpp>

using namespace cats;
using trace::AccessClass;

namespace {

struct Fixture {
  sym::Context ctx;
  sym::Symbol i = ctx.symbol("i", sym::SymbolKind::Iterator);
  sym::Symbol j = ctx.symbol("j", sym::SymbolKind::Iterator);
  sym::Symbol k = ctx.symbol("k", sym::SymbolKind::Iterator);
  sym::Symbol n = ctx.symbol("n", sym::SymbolKind::Parameter);
  sym::Symbol col = ctx.symbol("col", sym::SymbolKind::Container);

  std::vector<trace::EnclosingLoop> nest(std::vector<std::pair<sym::Symbol, sym::Expr>> loops) {
    std::vector<trace::EnclosingLoop> out;
    for (auto& [it, step] : loops) out.push_back(trace::EnclosingLoop{it, step, {it}});
    return out;
  }
};

}  // namespace

TEST_CASE_METHOD(Fixture, "the four access classes of DESIGN.md", "[classify]") {
  auto ijk = nest({{i, 1}, {j, 1}, {k, 1}});
  SECTION("constant: no iterator, parameters allowed") {
    auto c = trace::classify(8 * n + 16, 8, ijk, ctx);
    CHECK(c.kind == AccessClass::Constant);
    CHECK(!c.strideBytes);
  }
  SECTION("stride-1: innermost appearing iterator, coefficient = element size") {
    auto c = trace::classify(8 * i * n + 8 * k, 8, ijk, ctx);
    CHECK(c.kind == AccessClass::Stride1);
    CHECK(c.strideBytes->is_equal(8));
    CHECK(c.strideIterator == "k");
    CHECK(!c.invariantInInnermostLoop);
  }
  SECTION("stride-k: B[k][j] in the k loop, stride 8*n") {
    auto c = trace::classify(8 * k * n + 8 * j, 8, ijk, ctx);
    CHECK(c.kind == AccessClass::StrideK);
    CHECK((*c.strideBytes - 8 * n).expand().is_zero());
  }
  SECTION("C[i][j] in the k loop: stride-1 over j and invariant in k") {
    auto c = trace::classify(8 * i * n + 8 * j, 8, ijk, ctx);
    CHECK(c.kind == AccessClass::Stride1);
    CHECK(c.strideIterator == "j");
    CHECK(c.invariantInInnermostLoop);
  }
  SECTION("a backwards walk is contiguous too") {
    auto c = trace::classify(8 * n - 8 * k, 8, nest({{k, 1}}), ctx);
    CHECK(c.kind == AccessClass::Stride1);
    CHECK(c.strideBytes->is_equal(-8));
    auto down = trace::classify(8 * k, 8, nest({{k, -1}}), ctx);
    CHECK(down.kind == AccessClass::Stride1);
    CHECK(down.strideBytes->is_equal(-8));
  }
  SECTION("a loop stepping by 2 is stride-k even with coefficient 8") {
    auto c = trace::classify(8 * k, 8, nest({{k, 2}}), ctx);
    CHECK(c.kind == AccessClass::StrideK);
    CHECK(c.strideBytes->is_equal(16));
  }
  SECTION("a struct field: coefficient is the record size, not the field size") {
    auto c = trace::classify(64 * k + 24, 8, ijk, ctx);
    CHECK(c.kind == AccessClass::StrideK);
    CHECK(c.strideBytes->is_equal(64));
  }
  SECTION("non-affine offsets are stride-k with a symbolic stride") {
    auto c = trace::classify(8 * k * k, 8, ijk, ctx);
    CHECK(c.kind == AccessClass::StrideK);
    CHECK((*c.strideBytes - (16 * k + 8)).expand().is_zero());
  }
  SECTION("indirect: another container's value in the offset") {
    auto c = trace::classify(8 * sym::load(col, 4 * k), 8, ijk, ctx);
    CHECK(c.kind == AccessClass::Indirect);
    CHECK(c.indirectVia == std::vector<std::string>{"col"});
    CHECK(!c.approximate);
    CHECK(!c.invariantInInnermostLoop);
  }
  SECTION("an unknown value makes the access indirect and approximate") {
    sym::Symbol u = ctx.freshSymbol("unknown_idx", sym::SymbolKind::Unknown);
    auto c = trace::classify(8 * u, 8, ijk, ctx);
    CHECK(c.kind == AccessClass::Indirect);
    CHECK(c.approximate);
    CHECK(c.indirectVia.empty());
  }
  SECTION("outside any loop nothing is invariant") {
    auto c = trace::classify(sym::Expr(0), 8, {}, ctx);
    CHECK(c.kind == AccessClass::Constant);
    CHECK(!c.invariantInInnermostLoop);
  }
}
