// What a compiler's inliner looks at, read off the declaration: linkage, inline hints, attributes
// and a size (sim/compiler decides inlining from these, as GCC and Clang do from theirs).
#include "clang_compat.hpp"  // first: see the header
#include "function_builder.hpp"

namespace cats::frontend {

namespace {

/// Counts statements and expressions, implicit casts excluded: a rough stand-in for the
/// compiler's own size estimate (GCC's "insns", Clang's inline cost), which both grow with it.
class SizeCounter : public clang::RecursiveASTVisitor<SizeCounter> {
 public:
  std::size_t count = 0;
  bool VisitStmt(clang::Stmt* s) {
    if (!clang::isa<clang::ImplicitCastExpr, clang::ParenExpr, clang::CompoundStmt, clang::DeclRefExpr>(s)) ++count;
    return true;
  }
};

}  // namespace

ir::FunctionTraits functionTraits(const clang::FunctionDecl& decl) {
  ir::FunctionTraits traits;
  traits.isStatic = decl.getStorageClass() == clang::SC_Static;
  traits.declaredInline = decl.isInlineSpecified();
  traits.alwaysInline = decl.hasAttr<clang::AlwaysInlineAttr>();
  traits.noInline = decl.hasAttr<clang::NoInlineAttr>();
  if (decl.getBody()) {
    SizeCounter counter;
    counter.TraverseStmt(decl.getBody());
    traits.statements = counter.count;
  }
  return traits;
}

}  // namespace cats::frontend
