// Local scalars as memory (Options::traceLocalScalars, for the dependence analysis): a local
// scalar declared outside every loop keeps its symbolic value as before, and additionally gets a
// Stack container of its own whose reads and writes inside loops become accesses, so that
// `sum += a[i]` shows the reduction on `sum`. Loop-control variables (assigned in a for's init or
// increment) and values that follow an iterator (induction variables) make no accesses: their
// dependences are the loops' own order, not data flow.
#include "clang_compat.hpp"  // first: see the header
#include "function_builder.hpp"

namespace cats::frontend {

using clang::dyn_cast;

namespace {

/// Locals assigned by the init or increment of some for loop.
class LoopControl : public clang::RecursiveASTVisitor<LoopControl> {
 public:
  std::set<const clang::VarDecl*> found;

  bool VisitForStmt(clang::ForStmt* s) {
    if (s->getInit()) collect(s->getInit());
    if (s->getInc()) collect(s->getInc());
    return true;
  }

 private:
  void collect(const clang::Stmt* s) {
    if (const auto* declared = dyn_cast<clang::DeclStmt>(s)) {
      for (const clang::Decl* d : declared->decls())
        if (const auto* var = dyn_cast<clang::VarDecl>(d)) found.insert(var);
      return;
    }
    if (const auto* ref = dyn_cast<clang::DeclRefExpr>(s))
      if (const auto* var = dyn_cast<clang::VarDecl>(ref->getDecl())) found.insert(var);
    for (const clang::Stmt* child : s->children())
      if (child) collect(child);
  }
};

}  // namespace

std::set<const clang::VarDecl*> loopControlVariables(const clang::Stmt* body) {
  LoopControl visitor;
  if (body) visitor.TraverseStmt(const_cast<clang::Stmt*>(body));
  return visitor.found;
}

/* Gives local "var" (a register scalar declared outside loops) its shadow container. */
void FunctionBuilder::shadowLocalScalar(const clang::VarDecl* var) {
  if (!state_.options.traceLocalScalars || loopDepth_ > 0 || loopControl_.count(var)) return;
  clang::QualType type = var->getType();
  if (!(type->isIntegralOrEnumerationType() || type->isRealFloatingType())) return;
  auto none = [&](const clang::Expr*) -> sym::Expr { return 0; };
  allocateOnStack(var, describeContainer(var->getNameAsString(), ir::ContainerKind::Stack, type, ast_, none, state_.ctx));
  shadows_[var] = arrays_[var];
  arrays_.erase(var);
}

/* A read or write of shadowed "var" inside a loop, unless its value (after a write, before a
   read) follows an iterator. */
void FunctionBuilder::noteLocalScalar(const clang::VarDecl* var, ir::AccessMode mode, const clang::Expr* at) {
  auto shadow = shadows_.find(var);
  if (shadow == shadows_.end() || loopDepth_ == 0) return;
  if (auto value = env_.find(var); value != env_.end() && value->second.kind == Value::Kind::Scalar &&
                                   !sym::symbolsOfKind(value->second.scalar, state_.ctx, sym::SymbolKind::Iterator).empty())
    return;
  emitAccess(Location{PointerValue{shadow->second, 0, var->getNameAsString()}, var->getType(), {}}, mode, at);
}

}  // namespace cats::frontend
