// Statements: blocks, declarations, branches, OpenMP regions and unsupported constructs.
#include "clang_compat.hpp"  // first: see the header
#include "function_builder.hpp"


namespace cats::frontend {

using clang::dyn_cast;
using clang::dyn_cast_or_null;
using clang::isa;

FunctionBuilder::FunctionBuilder(ProgramState& state, clang::ASTContext& ast, const clang::FunctionDecl& decl)
    : state_(state), ast_(ast), decl_(decl) {}

ir::Function FunctionBuilder::build() {
  function_.name = decl_.getNameAsString();
  function_.loc = loc(decl_.getLocation());
  function_.traits = functionTraits(decl_);
  current_ = &function_.body;
  addressTaken_ = addressTakenLocals(decl_.getBody());
  addressPassed_ = addressPassedLocals(decl_.getBody(), [&](clang::SourceLocation l) { return state_.isSystem(l); });
  if (state_.options.traceLocalScalars) loopControl_ = loopControlVariables(decl_.getBody());
  declareParameters();
  statement(decl_.getBody());
  hoistStackSlots();
  if (!returnsOther_) function_.returned = returned_;
  recordReturnSummary();
  return std::move(function_);
}

void FunctionBuilder::declareParameters() {
  auto sizeOf = [&](const clang::Expr* e) { return scalarOrUnknown(eval(e), "extent"); };
  for (const clang::ParmVarDecl* p : decl_.parameters()) {
    ir::Parameter param;
    param.name = p->getNameAsString();
    // An unnamed parameter ("int f(double *a, int)") still needs a symbol name that reads back
    // from the trace file; C reserves names starting with "__", so this one cannot collide.
    if (param.name.empty()) param.name = "__unnamed_param" + std::to_string(function_.params.size() + 1);
    clang::QualType type = p->getType();
    if (type->isPointerType()) {
      param.isPointer = true;
      param.symbol = state_.ctx.symbol(param.name, sym::SymbolKind::Container);
      clang::QualType original = p->getOriginalType();
      ir::Block scratch;
      ir::Block* saved = current_;
      current_ = &scratch;
      ir::Container pointee = original->isArrayType()
                                  ? describeContainer(param.name, ir::ContainerKind::Parameter, original, ast_, sizeOf, state_.ctx)
                                  : describeContainer(param.name, ir::ContainerKind::Parameter, type->getPointeeType(), ast_, sizeOf, state_.ctx);
      current_ = saved;
      if (!original->isArrayType() || original->isIncompleteArrayType()) {
        pointee.sizeBytes = freshUnknown("size_" + param.name, "size of the memory behind pointer parameter " + param.name);
      }
      pointee.isRestrict = type.isRestrictQualified();
      pointee.isScalar = false;
      pointee.symbol = param.symbol;
      pointee.loc = loc(p->getLocation());
      param.container = addLocal(std::move(pointee));
      env_[p] = Value::ofPointer(PointerValue{ir::ContainerRef{ir::ContainerRef::Scope::Parameter, function_.params.size()}, 0, param.name, {}});
    } else {
      param.symbol = state_.ctx.symbol(param.name, sym::SymbolKind::Parameter, "parameter of " + function_.name);
      env_[p] = type->isIntegralOrEnumerationType() ? Value::ofScalar(param.symbol) : Value::unknown();
    }
    function_.params.push_back(std::move(param));
    parameterSlot(p);
  }
}

void FunctionBuilder::warn(clang::SourceLocation l, const std::string& message) {
  state_.diagnose(ir::Severity::Warning, l, message);
}

/* Records an early exit ("break", "return", "goto") of the innermost loop being lowered. */
void FunctionBuilder::earlyExit(const std::string& kind, const clang::Stmt* s) {
  exits_.push_back(exitText(kind, s));
}

void FunctionBuilder::unsupported(const clang::Stmt* s, const std::string& message) {
  warn(s->getBeginLoc(), message + "; the result is approximate");
}

ir::Block FunctionBuilder::inBlock(const clang::Stmt* s) {
  ir::Block block;
  ir::Block* saved = current_;
  current_ = &block;
  statement(s);
  current_ = saved;
  return block;
}

void FunctionBuilder::statement(const clang::Stmt* s) {
  if (!s || s == skip_) return;
  if (const auto* c = dyn_cast<clang::CompoundStmt>(s)) return compound(c);
  if (const auto* d = dyn_cast<clang::DeclStmt>(s)) {
    for (const clang::Decl* decl : d->decls())
      if (const auto* var = dyn_cast<clang::VarDecl>(decl)) declaration(var);
    return;
  }
  if (const auto* f = dyn_cast<clang::ForStmt>(s)) return forLoop(f, false);
  if (const auto* w = dyn_cast<clang::WhileStmt>(s)) {
    if (w->getConditionVariableDeclStmt()) return opaqueLoop(w, w->getCond(), w->getBody(), "while loop declaring a variable");
    return loop(LoopShape{w, w->getCond(), w->getBody(), nullptr, false, false, "while loop"});
  }
  if (const auto* d = dyn_cast<clang::DoStmt>(s)) return loop(LoopShape{d, d->getCond(), d->getBody(), nullptr, true, false, "do-while loop"});
  if (const auto* i = dyn_cast<clang::IfStmt>(s)) return ifStatement(i);
  if (const auto* sw = dyn_cast<clang::SwitchStmt>(s)) return switchStatement(sw);
  if (const auto* r = dyn_cast<clang::ReturnStmt>(s)) {
    if (r->getRetValue()) returnValue(r->getRetValue());
    if (loopDepth_ > 0) earlyExit("return", s);
    return;
  }
  if (isa<clang::BreakStmt>(s)) {
    if (loopDepth_ > 0 && switchDepth_ == 0) earlyExit("break", s);
    return;
  }
  if (isa<clang::ContinueStmt>(s) || isa<clang::NullStmt>(s)) return;
  if (isa<clang::GotoStmt>(s) || isa<clang::IndirectGotoStmt>(s)) {
    unsupported(s, "goto is not supported: control flow is traced as if the jump were not taken");
    if (loopDepth_ > 0) earlyExit("goto", s);
    return;
  }
  if (const auto* label = dyn_cast<clang::LabelStmt>(s)) return statement(label->getSubStmt());
  if (const auto* attributed = dyn_cast<clang::AttributedStmt>(s)) return statement(attributed->getSubStmt());
  if (const auto* caseStmt = dyn_cast<clang::SwitchCase>(s)) return statement(caseStmt->getSubStmt());
  if (isa<clang::OMPExecutableDirective>(s)) return openmp(s);
  if (const auto* e = dyn_cast<clang::Expr>(s)) {
    eval(e);
    return;
  }
  if (isa<clang::AsmStmt>(s)) return unsupported(s, "inline assembly is not analysed");
  for (const clang::Stmt* child : s->children()) statement(child);
}

/* A returned pointer: the function's result container while every return agrees (allocation
   wrappers); a returned integer: the function's value while every return agrees (index helpers). */
void FunctionBuilder::returnValue(const clang::Expr* value) {
  Value v = eval(value);
  if (decl_.getReturnType()->isIntegralOrEnumerationType()) noteReturnedScalar(v);
  if (!decl_.getReturnType()->isPointerType()) return;
  if (value->isNullPointerConstant(ast_, clang::Expr::NPC_ValueDependentIsNotNull)) return;
  bool fresh = v.kind == Value::Kind::Pointer && v.pointer.container.scope == ir::ContainerRef::Scope::Local && v.pointer.offset.is_zero();
  if (fresh && (!returned_ || *returned_ == v.pointer.container)) returned_ = v.pointer.container;
  else returnsOther_ = true;
}

void FunctionBuilder::declaration(const clang::VarDecl* var) {
  std::string name = var->getNameAsString();
  clang::QualType type = var->getType();
  if (var->hasGlobalStorage()) {
    if (type->isArrayType() || type->isRecordType()) {
      if (auto ref = state_.global(var)) arrays_[var] = *ref;
    }
    return;
  }
  if (type->isArrayType() || type->isRecordType()) {
    auto sizeOf = [&](const clang::Expr* e) { return scalarOrUnknown(eval(e), "extent"); };
    ir::Container c = describeContainer(name, ir::ContainerKind::Stack, type, ast_, sizeOf, state_.ctx);
    c.alignment = std::max<std::int64_t>(c.alignment, ast_.getDeclAlign(var).getQuantity());
    allocateOnStack(var, std::move(c));
    if (var->getInit()) eval(var->getInit());
    return;
  }
  if (state_.options.traceScalars && addressTaken_.count(var)) return memoryScalar(var);
  if (addressPassed_.count(var)) addressSlot(var);
  else shadowLocalScalar(var);
  Value value = var->getInit() ? eval(var->getInit(), name) : Value::unknown();
  if (value.kind == Value::Kind::Unknown && type->isIntegralOrEnumerationType())
    value = Value::ofScalar(freshUnknown(name, var->getInit() ? "value of " + name + " is not followed" : "uninitialised " + name));
  env_[var] = value;
  if (var->getInit()) noteLocalScalar(var, ir::AccessMode::Write, var->getInit());
}

/* "c", the memory of local "var", becomes a stack container allocated here. */
void FunctionBuilder::allocateOnStack(const clang::VarDecl* var, ir::Container c) {
  c.symbol = state_.ctx.symbol(c.name, sym::SymbolKind::Container);
  c.name = c.symbol.get_name();
  c.loc = loc(var->getLocation());
  ir::Alloc alloc;
  alloc.function = ir::AllocFunction::StackArray;
  alloc.sizeBytes = c.sizeBytes;
  alloc.alignment = c.alignment;
  alloc.loc = c.loc;
  alloc.container = ir::ContainerRef{ir::ContainerRef::Scope::Local, addLocal(std::move(c))};
  arrays_[var] = alloc.container;
  append(ir::Node{std::move(alloc)});
}

/* A local scalar whose address is taken lives in memory: with --scalars it is a stack container. */
void FunctionBuilder::memoryScalar(const clang::VarDecl* var) {
  auto none = [&](const clang::Expr*) -> sym::Expr { return 0; };
  allocateOnStack(var, describeContainer(var->getNameAsString(), ir::ContainerKind::Stack, var->getType(), ast_, none, state_.ctx));
  if (const clang::Expr* init = var->getInit()) {
    eval(init);
    emitAccess(Location{PointerValue{arrays_[var], 0, var->getNameAsString(), {}}, var->getType(), {}}, ir::AccessMode::Write, init);
  }
}

/* A local whose address an analysed callee receives gets a stack slot for the callee's accesses;
   its own reads and writes stay register values (as without --scalars). */
void FunctionBuilder::addressSlot(const clang::VarDecl* var) {
  auto none = [&](const clang::Expr*) -> sym::Expr { return 0; };
  std::string name = var->getNameAsString() + (var->getType()->isPointerType() ? "_slot" : "");
  ir::Container c = describeContainer(name, ir::ContainerKind::Stack, var->getType(), ast_, none, state_.ctx);
  allocateOnStack(var, std::move(c));
  slots_[var] = arrays_[var];
  arrays_.erase(var);
}

void FunctionBuilder::mergeEnvironments(const VarMap<Value>& before,
                                        const std::vector<VarMap<Value>>& arms,
                                        const ir::SourceLoc& where) {
  VarMap<Value> merged = before;
  VarSet touched;
  for (const auto& arm : arms)
    for (const auto& [var, value] : arm)
      if (!before.count(var) || !before.at(var).sameAs(value)) touched.insert(var);
  for (const clang::VarDecl* var : touched) {
    bool agree = true;
    const Value* first = nullptr;
    for (const auto& arm : arms) {
      auto it = arm.find(var);
      if (it == arm.end()) { agree = false; break; }
      if (!first) first = &it->second;
      else if (!first->sameAs(it->second)) agree = false;
    }
    if (agree && first) merged[var] = *first;
    else if (var->getType()->isIntegralOrEnumerationType())
      merged[var] = Value::ofScalar(freshUnknown(var->getNameAsString(), "value of " + var->getNameAsString() + " after the branch at " + where.str()));
    else if (first && first->kind == Value::Kind::Pointer)
      merged[var] = Value::ofPointer(PointerValue{first->pointer.container, freshUnknown("offset_" + var->getNameAsString(), "pointer differs between branch arms"), var->getNameAsString(), {}});
    else merged[var] = Value::unknown();
  }
  env_ = std::move(merged);
}

void FunctionBuilder::ifStatement(const clang::IfStmt* s) {
  if (s->getInit()) statement(s->getInit());
  if (s->getConditionVariableDeclStmt()) statement(s->getConditionVariableDeclStmt());
  ir::Branch branch;
  branch.loc = loc(s->getBeginLoc());
  sym::Condition cond = condition(s->getCond());
  auto before = env_;
  std::vector<VarMap<Value>> after;
  std::string text = sourceText(s->getCond());
  guards_.push_back(text);
  branch.arms.push_back(ir::Arm{"then", cond, inBlock(s->getThen())});
  guards_.back() = "!(" + text + ")";
  after.push_back(env_);
  env_ = before;
  if (s->getElse()) {
    branch.arms.push_back(ir::Arm{"else", sym::Condition::negation(cond), inBlock(s->getElse())});
  }
  guards_.pop_back();
  after.push_back(env_);
  mergeEnvironments(before, after, branch.loc);
  append(ir::Node{std::move(branch)});
}

/* The statement a directive applies to, without the CapturedStmt layers Sema wraps around it.
   Not getInnermostCapturedStmt(): it casts unchecked, and master, critical, atomic, section and
   masked keep their statement uncaptured, so it read a plain statement as a CapturedStmt. */
static const clang::Stmt* directiveBody(const clang::OMPExecutableDirective& directive) {
  const clang::Stmt* inner = directive.getAssociatedStmt();
  while (const auto* captured = dyn_cast_or_null<clang::CapturedStmt>(inner)) inner = captured->getCapturedStmt();
  return inner;
}

/* The iteration-to-thread rule of a loop directive, as ir::Loop::scheduleChunk encodes it. */
static std::int64_t scheduleChunk(const clang::OMPExecutableDirective& directive, const clang::ASTContext& ast) {
  const auto* clause = directive.getSingleClause<clang::OMPScheduleClause>();
  if (!clause) return 0;
  if (clause->getScheduleKind() != clang::OMPC_SCHEDULE_static) return -1;
  const clang::Expr* chunk = clause->getChunkSize();
  if (!chunk) return 0;
  clang::Expr::EvalResult value;
  if (!chunk->EvaluateAsInt(value, ast) || value.Val.getInt().getSExtValue() <= 0) return -1;
  return value.Val.getInt().getSExtValue();
}

void FunctionBuilder::openmp(const clang::Stmt* s) {
  const auto* directive = dyn_cast<clang::OMPExecutableDirective>(s);
  if (!directive->hasAssociatedStmt()) return;
  const clang::Stmt* inner = directiveBody(*directive);
  bool isLoop = isa<clang::OMPLoopDirective>(directive);
  bool isParallel = clang::isOpenMPParallelDirective(directive->getDirectiveKind());
  if (isLoop) {
    if (const auto* loop = dyn_cast<clang::ForStmt>(inner)) {
      forLoop(loop, isParallel || clang::isOpenMPWorksharingDirective(directive->getDirectiveKind()));
      if (!current_->empty())
        if (auto* built = std::get_if<ir::Loop>(&current_->back().value)) built->scheduleChunk = scheduleChunk(*directive, ast_);
      return;
    }
    return statement(inner);
  }
  if (isParallel) {
    ir::ParallelRegion region;
    region.loc = loc(s->getBeginLoc());
    region.body = inBlock(inner);
    append(ir::Node{std::move(region)});
    return;
  }
  statement(inner);
}

sym::Expr FunctionBuilder::typeBytes(clang::QualType t) {
  auto sizeOf = [&](const clang::Expr* e) { return scalarOrUnknown(eval(e), "extent"); };
  ir::Block scratch;
  ir::Block* saved = current_;
  current_ = &scratch;
  sym::Expr bytes = frontend::typeBytes(t, ast_, sizeOf, state_.ctx);
  current_ = saved;
  return bytes;
}

sym::Expr FunctionBuilder::pointeeBytes(clang::QualType pointerType) {
  if (const auto* pointer = pointerType->getAs<clang::PointerType>()) return typeBytes(pointer->getPointeeType());
  if (pointerType->isArrayType()) return typeBytes(ast_.getAsArrayType(pointerType)->getElementType());
  return 1;
}

std::size_t FunctionBuilder::addLocal(ir::Container c) {
  if (!state_.ctx.kindOf(c.symbol)) c.symbol = state_.ctx.symbol(c.name, sym::SymbolKind::Container);
  function_.locals.push_back(std::move(c));
  return function_.locals.size() - 1;
}

sym::Symbol FunctionBuilder::containerSymbol(const ir::ContainerRef& ref) const {
  switch (ref.scope) {
    case ir::ContainerRef::Scope::Global: return state_.program.globals.at(ref.index).symbol;
    case ir::ContainerRef::Scope::Local: return function_.locals.at(ref.index).symbol;
    case ir::ContainerRef::Scope::Parameter: return function_.params.at(ref.index).symbol;
  }
  return {};
}

std::string FunctionBuilder::containerName(const ir::ContainerRef& ref) const {
  switch (ref.scope) {
    case ir::ContainerRef::Scope::Global: return state_.program.globals.at(ref.index).name;
    case ir::ContainerRef::Scope::Local: return function_.locals.at(ref.index).name;
    case ir::ContainerRef::Scope::Parameter: return function_.params.at(ref.index).name;
  }
  return {};
}

}  // namespace cats::frontend
