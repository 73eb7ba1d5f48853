// Local scalars as memory (Options::traceLocalScalars, for the dependence analysis): a local
// scalar declared outside every loop keeps its symbolic value as before, and additionally gets a
// Stack container of its own whose reads and writes inside loops become accesses, so that
// `sum += a[i]` shows the reduction on `sum`. Loop-control variables (assigned in a for's init or
// increment) and values that follow an iterator (induction variables) make no accesses: their
// dependences are the loops' own order, not data flow.
//
// Stack slots (Options::stackSlots, simulate at -O0): GCC and Clang at -O0 keep every local
// scalar, pointer variable and parameter in a frame slot and load or store it at each source
// use, so every such variable gets a slot container and every use an access, at any depth.
#include "clang_compat.hpp"  // first: see the header
#include "function_builder.hpp"

namespace cats::frontend {

using clang::dyn_cast;

namespace {

/// Locals assigned by the init or increment of some for loop.
class LoopControl : public clang::RecursiveASTVisitor<LoopControl> {
 public:
  VarSet found;

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

VarSet loopControlVariables(const clang::Stmt* body) {
  LoopControl visitor;
  if (body) visitor.TraverseStmt(const_cast<clang::Stmt*>(body));
  return visitor.found;
}

/* Gives local "var" (a register scalar declared outside loops) its shadow container. */
void FunctionBuilder::shadowLocalScalar(const clang::VarDecl* var) {
  if (state_.options.stackSlots) return stackSlot(var, localSlots_);
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
  if (shadow == shadows_.end()) return;
  if (state_.options.stackSlots)
    return emitAccess(Location{PointerValue{shadow->second, 0, var->getNameAsString()}, var->getType(), {}}, mode, at);
  if (loopDepth_ == 0) return;
  if (auto value = env_.find(var); value != env_.end() && value->second.kind == Value::Kind::Scalar &&
                                   !sym::symbolsOfKind(value->second.scalar, state_.ctx, sym::SymbolKind::Iterator).empty())
    return;
  emitAccess(Location{PointerValue{shadow->second, 0, var->getNameAsString()}, var->getType(), {}}, mode, at);
}

/* Whether "type" is a value -O0 code keeps in a stack slot: integers, floating point, pointers. */
static bool slotType(clang::QualType type) {
  return type->isIntegralOrEnumerationType() || type->isRealFloatingType() || type->isPointerType();
}

/* Stack slot of "var" (a local or parameter), its allocation added to "allocations". A slot is
   named after its variable; pointers and parameters get "_slot", as their own name already
   names the memory they point to or the parameter's value. */
void FunctionBuilder::stackSlot(const clang::VarDecl* var, ir::Block& allocations) {
  if (!slotType(var->getType()) || shadows_.count(var)) return;
  bool suffixed = var->getType()->isPointerType() || clang::isa<clang::ParmVarDecl>(var);
  std::string name = var->getNameAsString() + (suffixed ? "_slot" : "");
  auto none = [&](const clang::Expr*) -> sym::Expr { return 0; };
  ir::Container c = describeContainer(name, ir::ContainerKind::Stack, var->getType(), ast_, none, state_.ctx);
  c.isScalar = true;
  ir::Block* saved = std::exchange(current_, &allocations);
  allocateOnStack(var, std::move(c));
  current_ = saved;
  shadows_[var] = arrays_[var];
  arrays_.erase(var);
}

/* -O0 stores each parameter into its slot at entry. */
void FunctionBuilder::parameterSlot(const clang::ParmVarDecl* p) {
  if (!state_.options.stackSlots || p->getName().empty()) return;
  stackSlot(p, parameterSlots_);
  auto shadow = shadows_.find(p);
  if (shadow == shadows_.end()) return;
  ir::Access a;
  a.container = shadow->second;
  a.mode = ir::AccessMode::Write;
  a.bytes = ast_.getTypeSizeInChars(p->getType()).getQuantity();
  a.name = p->getNameAsString();
  a.text = a.name;
  a.loc = loc(p->getLocation());
  append(ir::Node{std::move(a)});
}

/* "var" (a slot) after `var++` or `var op= x`: GCC updates an integer or pointer slot in place,
   one instruction that Cachegrind counts as a read only (the read was noted by the caller). */
void FunctionBuilder::noteSlotUpdate(const clang::VarDecl* var, const clang::Expr* at) {
  bool inPlace = state_.options.stackSlots && state_.options.gccStackCode &&
                 (var->getType()->isIntegralOrEnumerationType() || var->getType()->isPointerType());
  if (!inPlace) noteLocalScalar(var, ir::AccessMode::Write, at);
}

/* The slots' allocations at the function's entry: locals in declaration order, then parameters
   (GCC's -O0 frame order, docs/register-model.md). */
void FunctionBuilder::hoistStackSlots() {
  if (localSlots_.empty() && parameterSlots_.empty()) return;
  ir::Block entry = std::move(localSlots_);
  for (ir::Node& n : parameterSlots_) entry.push_back(std::move(n));
  function_.body.insert(function_.body.begin(), std::make_move_iterator(entry.begin()), std::make_move_iterator(entry.end()));
  localSlots_.clear();
  parameterSlots_.clear();
}

}  // namespace cats::frontend
