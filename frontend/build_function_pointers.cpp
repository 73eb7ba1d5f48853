// Calls through function pointers whose targets the code shows: a local or file-scope pointer
// every assignment of which names a function (`f = square; f(x)`), and a constant table of
// functions (`static int (*const ops[])(int) = {...}; ops[1](x)`). Anything else (a pointer
// parameter, a pointer loaded from a struct, an address taken) has no known target.
#include "clang_compat.hpp"  // first: see the header
#include "function_builder.hpp"

namespace cats::frontend {

using clang::dyn_cast;

namespace {

/* The function "e" names (`square`, `&square`, casts allowed), if any. */
const clang::FunctionDecl* namedFunction(const clang::Expr* e) {
  e = e->IgnoreParenCasts();
  if (const auto* addr = dyn_cast<clang::UnaryOperator>(e); addr && addr->getOpcode() == clang::UO_AddrOf)
    e = addr->getSubExpr()->IgnoreParenCasts();
  const auto* ref = dyn_cast<clang::DeclRefExpr>(e);
  return ref ? dyn_cast<clang::FunctionDecl>(ref->getDecl()) : nullptr;
}

/* The variable at the root of "e" (`ops` in `ops[i]`, `f` in `f`), if any. */
const clang::VarDecl* rootVariable(const clang::Expr* e) {
  e = e->IgnoreParenImpCasts();
  while (const auto* sub = dyn_cast<clang::ArraySubscriptExpr>(e)) e = sub->getBase()->IgnoreParenImpCasts();
  const auto* ref = dyn_cast<clang::DeclRefExpr>(e);
  return ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

/// Every value stored into one variable in a body of code, and whether its address escapes.
class StoresInto : public clang::RecursiveASTVisitor<StoresInto> {
 public:
  explicit StoresInto(const clang::VarDecl* var) : var_(var) {}
  std::vector<const clang::Expr*> values;
  bool escapes = false;

  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->isAssignmentOp() && rootVariable(op->getLHS()) == var_) values.push_back(op->getRHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->getOpcode() == clang::UO_AddrOf && rootVariable(op->getSubExpr()) == var_) escapes = true;
    return true;
  }

 private:
  const clang::VarDecl* var_;
};

/* Functions an initialiser names: one for a pointer, every element for a table. */
bool collectInitialiser(const clang::Expr* init, std::vector<const clang::FunctionDecl*>& out) {
  if (const auto* list = dyn_cast<clang::InitListExpr>(init->IgnoreParenImpCasts())) {
    for (const clang::Expr* element : list->inits())
      if (!collectInitialiser(element, out)) return false;
    return true;
  }
  if (const auto* literal = dyn_cast<clang::IntegerLiteral>(init->IgnoreParenCasts()); literal && literal->getValue() == 0)
    return true;  // a null entry of a table: calling it is not a target
  const clang::FunctionDecl* f = namedFunction(init);
  if (f) out.push_back(f);
  return f != nullptr;
}

}  // namespace

/* What the pointer variable "var" may hold: every function stored into it, or nothing when some store is not a function. */
std::vector<const clang::FunctionDecl*> FunctionBuilder::storedFunctions(const clang::VarDecl* var) {
  if (auto it = functionTargets_.find(var); it != functionTargets_.end()) return it->second;
  std::vector<const clang::FunctionDecl*> targets;
  bool known = !clang::isa<clang::ParmVarDecl>(var) && (!var->hasGlobalStorage() || var->getType().isConstQualified() ||
                                                        var->getType()->isArrayType() || !var->isExternallyVisible());
  if (var->hasGlobalStorage() && var->getType()->isArrayType())
    known &= ast_.getAsArrayType(var->getType())->getElementType().isConstQualified() || !var->isExternallyVisible();
  if (known) {
    StoresInto stores(var);
    if (var->hasGlobalStorage()) stores.TraverseDecl(ast_.getTranslationUnitDecl());
    else stores.TraverseStmt(const_cast<clang::Stmt*>(decl_.getBody()));
    known = !stores.escapes;
    const clang::VarDecl* definition = var->getDefinition() ? var->getDefinition() : var;
    if (known && definition->getInit()) known = collectInitialiser(definition->getInit(), targets);
    for (const clang::Expr* value : stores.values) {
      if (!known) break;
      known = collectInitialiser(value, targets);
    }
  }
  std::vector<const clang::FunctionDecl*> unique;
  for (const clang::FunctionDecl* f : known ? targets : std::vector<const clang::FunctionDecl*>{})
    if (std::find(unique.begin(), unique.end(), f->getCanonicalDecl()) == unique.end()) unique.push_back(f->getCanonicalDecl());
  functionTargets_[var] = unique;
  return unique;
}

std::vector<const clang::FunctionDecl*> FunctionBuilder::callTargets(const clang::CallExpr* c) {
  const clang::Expr* callee = c->getCallee()->IgnoreParenImpCasts();
  if (const auto* deref = dyn_cast<clang::UnaryOperator>(callee); deref && deref->getOpcode() == clang::UO_Deref)
    callee = deref->getSubExpr()->IgnoreParenImpCasts();
  const clang::VarDecl* var = rootVariable(callee);
  if (!var) return {};
  std::vector<const clang::FunctionDecl*> all = storedFunctions(var);
  const auto* subscript = dyn_cast<clang::ArraySubscriptExpr>(callee);
  if (!subscript || all.empty()) return all;
  if (dyn_cast<clang::ArraySubscriptExpr>(subscript->getBase()->IgnoreParenImpCasts())) return all;
  const clang::VarDecl* definition = var->getDefinition() ? var->getDefinition() : var;
  const auto* list = definition->getInit() ? dyn_cast<clang::InitListExpr>(definition->getInit()->IgnoreParenImpCasts()) : nullptr;
  Value index = eval(subscript->getIdx());
  auto constant = index.kind == Value::Kind::Scalar ? sym::toInteger(index.scalar) : std::nullopt;
  if (!list || !constant || !var->getType().isConstant(ast_)) return all;
  if (*constant < 0 || *constant >= static_cast<std::int64_t>(list->getNumInits())) return {};
  const clang::FunctionDecl* f = namedFunction(list->getInit(static_cast<unsigned>(*constant)));
  return f ? std::vector<const clang::FunctionDecl*>{f} : std::vector<const clang::FunctionDecl*>{};
}

/* The index of the pointer parameter of this function that "c" calls through, if it does. */
std::optional<std::size_t> FunctionBuilder::calledParameter(const clang::CallExpr* c) const {
  const clang::Expr* callee = c->getCallee()->IgnoreParenImpCasts();
  if (const auto* deref = dyn_cast<clang::UnaryOperator>(callee); deref && deref->getOpcode() == clang::UO_Deref)
    callee = deref->getSubExpr()->IgnoreParenImpCasts();
  const auto* ref = dyn_cast<clang::DeclRefExpr>(callee);
  const auto* param = ref ? dyn_cast<clang::ParmVarDecl>(ref->getDecl()) : nullptr;
  if (!param || param->getDeclContext() != &decl_) return std::nullopt;
  for (std::size_t i = 0; i < decl_.getNumParams(); ++i)
    if (decl_.getParamDecl(static_cast<unsigned>(i)) == param) return i;
  return std::nullopt;
}

/* The function argument "arg" passes (by name, or a pointer variable with one known target), if any. */
std::string FunctionBuilder::passedFunction(const clang::Expr* arg) {
  if (!arg->getType()->isFunctionPointerType()) return {};
  if (const clang::FunctionDecl* f = namedFunction(arg)) return f->getNameAsString();
  const auto* ref = dyn_cast<clang::DeclRefExpr>(arg->IgnoreParenCasts());
  const auto* var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!var) return {};
  std::vector<const clang::FunctionDecl*> targets = storedFunctions(var);
  return targets.size() == 1 ? targets[0]->getNameAsString() : std::string{};
}

}  // namespace cats::frontend
