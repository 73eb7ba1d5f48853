// Expressions: rvalues to symbolic values, lvalues to memory locations, accesses in C
// evaluation order (operands left to right, the right-hand side of an assignment before
// the address of its target, the write last).
#include "clang_compat.hpp"  // first: see the header
#include "function_builder.hpp"


namespace cats::frontend {

using clang::BinaryOperatorKind;
using clang::CastKind;
using clang::dyn_cast;
using clang::isa;

bool Value::sameAs(const Value& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case Kind::Scalar: return scalar.is_equal(o.scalar);
    case Kind::Pointer: return pointer.container == o.pointer.container && pointer.offset.is_equal(o.pointer.offset);
    case Kind::Unknown: return false;
  }
  return false;
}

sym::Expr FunctionBuilder::freshUnknown(const std::string& base, const std::string& why) {
  return state_.ctx.freshSymbol("unknown_" + base, sym::SymbolKind::Unknown, why);
}

sym::Expr FunctionBuilder::scalarOrUnknown(const Value& v, const std::string& what) {
  if (v.kind == Value::Kind::Scalar) return v.scalar;
  return freshUnknown(what, "value of " + what + " is not an integer the analysis can follow");
}

/* The local variable kept in a register that "e" names, if any. */
const clang::VarDecl* FunctionBuilder::registerVariable(const clang::Expr* e) const {
  const auto* ref = dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
  if (!ref) return nullptr;
  const auto* var = dyn_cast<clang::VarDecl>(ref->getDecl());
  if (!var || var->hasGlobalStorage() || var->getType()->isArrayType() || var->getType()->isRecordType()) return nullptr;
  return arrays_.count(var) ? nullptr : var;
}

Value FunctionBuilder::eval(const clang::Expr* e, const std::string& nameHint) {
  e = e->IgnoreParens();
  if (e->getType()->isIntegralOrEnumerationType() && !e->HasSideEffects(ast_) && !e->isValueDependent()) {
    clang::Expr::EvalResult result;
    if (e->EvaluateAsInt(result, ast_, clang::Expr::SE_NoSideEffects))
      return Value::ofScalar(static_cast<long>(result.Val.getInt().getExtValue()));
  }
  if (const auto* ref = dyn_cast<clang::DeclRefExpr>(e)) return evalDeclRef(ref);
  if (const auto* literal = dyn_cast<clang::IntegerLiteral>(e))
    return Value::ofScalar(static_cast<long>(literal->getValue().getSExtValue()));
  if (const auto* literal = dyn_cast<clang::CharacterLiteral>(e)) return Value::ofScalar(static_cast<long>(literal->getValue()));
  if (isa<clang::FloatingLiteral>(e) || isa<clang::StringLiteral>(e)) return Value::unknown();
  if (const auto* cast = dyn_cast<clang::CastExpr>(e)) return evalCast(cast, nameHint);
  if (const auto* op = dyn_cast<clang::BinaryOperator>(e)) return evalBinary(op);
  if (const auto* op = dyn_cast<clang::UnaryOperator>(e)) return evalUnary(op);
  if (const auto* op = dyn_cast<clang::AbstractConditionalOperator>(e)) return evalConditional(op);
  if (const auto* c = dyn_cast<clang::CallExpr>(e)) return call(c, nameHint);
  if (const auto* trait = dyn_cast<clang::UnaryExprOrTypeTraitExpr>(e)) {
    if (trait->getKind() == clang::UETT_SizeOf) return Value::ofScalar(typeBytes(trait->getTypeOfArgument()));
    return Value::unknown();
  }
  if (isa<clang::ArraySubscriptExpr>(e) || isa<clang::MemberExpr>(e)) {
    if (auto l = lvalue(e)) return read(*l, e);
    return Value::unknown();
  }
  if (const auto* init = dyn_cast<clang::InitListExpr>(e)) {
    for (const clang::Expr* part : init->inits()) eval(part);
    return Value::unknown();
  }
  for (const clang::Stmt* child : e->children())
    if (const auto* sub = dyn_cast_or_null<clang::Expr>(child)) eval(sub);
  return Value::unknown();
}

Value FunctionBuilder::evalDeclRef(const clang::DeclRefExpr* ref) {
  if (const auto* constant = dyn_cast<clang::EnumConstantDecl>(ref->getDecl()))
    return Value::ofScalar(static_cast<long>(constant->getInitVal().getExtValue()));
  const auto* var = dyn_cast<clang::VarDecl>(ref->getDecl());
  if (!var) return Value::unknown();
  if (auto it = env_.find(var); it != env_.end()) {
    noteLocalScalar(var, ir::AccessMode::Read, ref);
    return it->second;
  }
  if (var->hasGlobalStorage()) {
    if (auto value = state_.constantValue(var)) return Value::ofScalar(static_cast<long>(*value));
    if (var->getType()->isPointerType()) {
      auto ref = state_.global(var);
      return Value::ofPointer(PointerValue{*ref, 0, var->getNameAsString()});
    }
    if (var->getType()->isIntegralOrEnumerationType())
      return Value::ofScalar(state_.ctx.symbol(var->getNameAsString(), sym::SymbolKind::Parameter, "global variable"));
    return Value::unknown();
  }
  return Value::ofScalar(freshUnknown(var->getNameAsString(), "uninitialised local " + var->getNameAsString()));
}

Value FunctionBuilder::evalCast(const clang::CastExpr* cast, const std::string& nameHint) {
  const clang::Expr* sub = cast->getSubExpr();
  switch (cast->getCastKind()) {
    case CastKind::CK_LValueToRValue: {
      if (registerVariable(sub)) return eval(sub, nameHint);
      if (auto l = lvalue(sub)) return read(*l, sub);
      return eval(sub, nameHint);
    }
    case CastKind::CK_ArrayToPointerDecay: {
      if (auto l = lvalue(sub)) {
        PointerValue p = l->where;
        p.field = l->field;
        if (p.subscripts) p.subscripts->push_back(0);
        return Value::ofPointer(p);
      }
      return Value::unknown();
    }
    case CastKind::CK_IntegralToPointer:
    case CastKind::CK_NullToPointer:
    case CastKind::CK_FunctionToPointerDecay:
      eval(sub);
      return Value::unknown();
    case CastKind::CK_BitCast: {
      Value v = eval(sub, nameHint);
      if (v.kind == Value::Kind::Pointer) v.pointer.subscripts.reset();
      return v;
    }
    case CastKind::CK_FloatingToIntegral:
    case CastKind::CK_IntegralToFloating:
    case CastKind::CK_FloatingCast: {
      Value v = eval(sub, nameHint);
      return cast->getType()->isIntegralOrEnumerationType() && v.kind == Value::Kind::Scalar ? v : Value::unknown();
    }
    default: return eval(sub, nameHint);
  }
}

Value FunctionBuilder::arithmetic(BinaryOperatorKind kind, const Value& lhs, const Value& rhs, clang::QualType lhsType,
                                  clang::QualType rhsType) {
  using K = BinaryOperatorKind;
  bool lp = lhs.kind == Value::Kind::Pointer, rp = rhs.kind == Value::Kind::Pointer;
  if ((kind == K::BO_Add || kind == K::BO_Sub) && lp && !rp) {
    Value out = lhs;
    sym::Expr index = scalarOrUnknown(rhs, "index");
    sym::Expr unit = pointeeBytes(lhsType);
    sym::Expr delta = index * unit;
    out.pointer.offset = kind == K::BO_Add ? lhs.pointer.offset + delta : lhs.pointer.offset - delta;
    out.pointer.subscripts = movedPosition(lhs.pointer, unit, kind == K::BO_Add ? index : -index);
    return out;
  }
  if (kind == K::BO_Add && rp && !lp) return arithmetic(kind, rhs, lhs, rhsType, lhsType);
  if (kind == K::BO_Sub && lp && rp && lhs.pointer.container == rhs.pointer.container)
    return Value::ofScalar(sym::idiv(lhs.pointer.offset - rhs.pointer.offset, pointeeBytes(lhsType)));
  if (lhs.kind != Value::Kind::Scalar || rhs.kind != Value::Kind::Scalar) return Value::unknown();
  const sym::Expr& a = lhs.scalar;
  const sym::Expr& b = rhs.scalar;
  switch (kind) {
    case K::BO_Add: return Value::ofScalar(a + b);
    case K::BO_Sub: return Value::ofScalar(a - b);
    case K::BO_Mul: return Value::ofScalar(a * b);
    case K::BO_Div: return Value::ofScalar(sym::idiv(a, b));
    case K::BO_Rem: return Value::ofScalar(sym::imod(a, b));
    case K::BO_Shl:
      if (auto shift = sym::toInteger(b); shift && *shift >= 0 && *shift < 63) return Value::ofScalar(a * sym::Expr(1L << *shift));
      return Value::unknown();
    case K::BO_Shr:
      if (auto shift = sym::toInteger(b); shift && *shift >= 0 && *shift < 63) return Value::ofScalar(sym::idiv(a, sym::Expr(1L << *shift)));
      return Value::unknown();
    default: return Value::unknown();
  }
}

Value FunctionBuilder::evalBinary(const clang::BinaryOperator* op) {
  if (op->isAssignmentOp()) return evalAssignment(op);
  if (op->isLogicalOp()) {
    condition(op);
    return Value::unknown();
  }
  if (op->getOpcode() == BinaryOperatorKind::BO_Comma) {
    eval(op->getLHS());
    return eval(op->getRHS());
  }
  Value lhs = eval(op->getLHS());
  Value rhs = eval(op->getRHS());
  if (op->isComparisonOp() || op->isLogicalOp()) return Value::unknown();
  return arithmetic(op->getOpcode(), lhs, rhs, op->getLHS()->getType(), op->getRHS()->getType());
}

/* The arithmetic opcode of compound assignment "kind" (+= gives +). */
static BinaryOperatorKind arithmeticOf(BinaryOperatorKind kind) {
  return kind == BinaryOperatorKind::BO_Assign ? kind : clang::BinaryOperator::getOpForCompoundAssignment(kind);
}

Value FunctionBuilder::evalAssignment(const clang::BinaryOperator* op) {
  bool compound = op->getOpcode() != BinaryOperatorKind::BO_Assign;
  if (const clang::VarDecl* var = registerVariable(op->getLHS())) {
    std::string hint = var->getNameAsString();
    Value rhs = eval(op->getRHS(), hint);
    Value result = compound ? arithmetic(arithmeticOf(op->getOpcode()), eval(op->getLHS()), rhs, op->getLHS()->getType(),
                                         op->getRHS()->getType())
                            : rhs;
    if (result.kind == Value::Kind::Unknown && var->getType()->isIntegralOrEnumerationType())
      result = Value::ofScalar(freshUnknown(hint, "value assigned to " + hint + " at " + loc(op->getExprLoc()).str()));
    env_[var] = result;
    if (compound) noteSlotUpdate(var, op->getLHS());
    else noteLocalScalar(var, ir::AccessMode::Write, op->getLHS());
    return result;
  }
  std::string hint;
  if (const auto* ref = dyn_cast<clang::DeclRefExpr>(op->getLHS()->IgnoreParenImpCasts())) hint = ref->getDecl()->getNameAsString();
  else if (const auto* member = dyn_cast<clang::MemberExpr>(op->getLHS()->IgnoreParenImpCasts())) hint = member->getMemberDecl()->getNameAsString();
  Value rhs = eval(op->getRHS(), hint);
  std::size_t afterValue = current_->size();
  if (const clang::VarDecl* pointer = globalPointer(op->getLHS())) {
    if (!compound) bindAllocationToGlobal(rhs, pointer);
    if (!state_.options.traceScalars) return rhs;
  }
  auto target = lvalue(op->getLHS());
  if (!target) return Value::unknown();
  if (!compound && target->where.container.scope == ir::ContainerRef::Scope::Parameter && target->where.offset.is_zero() &&
      isPointerSlotParameter(target->where.container.index) && target->field.empty() &&
      rhs.kind == Value::Kind::Pointer && rhs.pointer.container.scope == ir::ContainerRef::Scope::Local && rhs.pointer.offset.is_zero())
    function_.storedThrough.emplace_back(target->where.container.index, rhs.pointer.container);
  Value result = rhs;
  if (compound && state_.options.gccStackCode && state_.options.stackSlots && !op->getLHS()->HasSideEffects(ast_))
    lvalue(op->getLHS());  // GCC -O0 computes the address again for the store
  if (compound) {
    Value old = read(*target, op->getLHS());
    result = arithmetic(arithmeticOf(op->getOpcode()), old, rhs, op->getLHS()->getType(), op->getRHS()->getType());
  }
  std::size_t beforeWrite = current_->size();
  emitAccess(*target, ir::AccessMode::Write, op->getLHS());
  if (current_->size() == beforeWrite + 1) {
    if (!compound) noteStoredValue(op, beforeWrite == afterValue);
    noteStoredFormula(op->getLHS()->getType(), result);
  }
  return result;
}

/* Records on the write just emitted what assignment "op" stores; a copy only when the load of
   the value is the access just before the write ("adjacent": the address took no loads). */
void FunctionBuilder::noteStoredValue(const clang::BinaryOperator* op, bool adjacent) {
  ir::StoredValue stored = storedValueOf(op->getRHS(), op->getLHS()->getType(), ast_);
  if (stored.kind == ir::StoredValue::Kind::Copy) {
    std::size_t n = current_->size();
    const auto* load = n >= 2 ? std::get_if<ir::Access>(&(*current_)[n - 2].value) : nullptr;
    if (!adjacent || !load || load->mode != ir::AccessMode::Read) stored = {};
  }
  std::get<ir::Access>(current_->back().value).stored = stored;
}

/* Records on the write just emitted the integer it stores, when the analysis follows it: no value
   it lost (an unknown) in it. Loads are kept: simulate reads them from the values it kept. */
void FunctionBuilder::noteStoredFormula(clang::QualType type, const Value& value) {
  if (!type->isIntegralOrEnumerationType() || type->isBooleanType() || value.kind != Value::Kind::Scalar) return;
  if (sym::containsUnknown(value.scalar, state_.ctx)) return;
  std::get<ir::Access>(current_->back().value).storedFormula = value.scalar;
}

/* The global pointer variable "e" names, if any. */
const clang::VarDecl* FunctionBuilder::globalPointer(const clang::Expr* e) const {
  const auto* ref = dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
  const auto* var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var && var->hasGlobalStorage() && var->getType()->isPointerType() ? var : nullptr;
}

/* A global pointer is its own container: an allocation just stored into it allocates that
   container rather than a fresh one. */
void FunctionBuilder::bindAllocationToGlobal(const Value& rhs, const clang::VarDecl* pointer) {
  if (rhs.kind != Value::Kind::Pointer || current_->empty()) return;
  auto* alloc = std::get_if<ir::Alloc>(&current_->back().value);
  if (!alloc || !(alloc->container == rhs.pointer.container)) return;
  if (auto global = state_.global(pointer)) alloc->container = *global;
}

Value FunctionBuilder::evalUnary(const clang::UnaryOperator* op) {
  using K = clang::UnaryOperatorKind;
  const clang::Expr* sub = op->getSubExpr();
  switch (op->getOpcode()) {
    case K::UO_PostInc:
    case K::UO_PreInc:
    case K::UO_PostDec:
    case K::UO_PreDec: {
      bool increment = op->isIncrementOp();
      Value one = Value::ofScalar(1);
      auto kind = increment ? BinaryOperatorKind::BO_Add : BinaryOperatorKind::BO_Sub;
      if (const clang::VarDecl* var = registerVariable(sub)) {
        Value old = eval(sub);
        Value updated = arithmetic(kind, old, one, sub->getType(), ast_.IntTy);
        env_[var] = updated;
        noteSlotUpdate(var, sub);
        return op->isPrefix() ? updated : old;
      }
      auto target = lvalue(sub);
      if (!target) return Value::unknown();
      Value old = read(*target, sub);
      emitAccess(*target, ir::AccessMode::Write, sub);
      Value updated = arithmetic(kind, old, one, sub->getType(), ast_.IntTy);
      return op->isPrefix() ? updated : old;
    }
    case K::UO_AddrOf: {
      if (auto l = lvalue(sub)) return Value::ofPointer(l->where);
      return Value::unknown();
    }
    case K::UO_Deref: {
      if (auto l = lvalue(op)) return read(*l, op);
      return Value::unknown();
    }
    case K::UO_Minus: {
      Value v = eval(sub);
      return v.kind == Value::Kind::Scalar ? Value::ofScalar(-v.scalar) : Value::unknown();
    }
    case K::UO_Plus: return eval(sub);
    default: eval(sub); return Value::unknown();
  }
}

Value FunctionBuilder::evalConditional(const clang::AbstractConditionalOperator* op) {
  ir::Branch branch;
  branch.isConditionalExpression = true;
  branch.loc = loc(op->getBeginLoc());
  sym::Condition cond = condition(op->getCond());
  Value values[2];
  const clang::Expr* arms[2] = {op->getTrueExpr(), op->getFalseExpr()};
  const char* labels[2] = {"then", "else"};
  ir::Block* saved = current_;
  for (int i = 0; i < 2; ++i) {
    ir::Arm arm{labels[i], i == 0 ? cond : sym::Condition::negation(cond), {}};
    current_ = &arm.body;
    values[i] = eval(arms[i]);
    branch.arms.push_back(std::move(arm));
  }
  current_ = saved;
  bool anyAccess = !branch.arms[0].body.empty() || !branch.arms[1].body.empty();
  const std::string where = branch.loc.str();  // the branch may be moved into the IR next
  if (anyAccess) append(ir::Node{std::move(branch)});
  if (values[0].sameAs(values[1])) return values[0];
  if (values[0].kind == Value::Kind::Scalar && values[1].kind == Value::Kind::Scalar &&
      (cond.op == sym::ConditionOp::Less || cond.op == sym::ConditionOp::LessEqual)) {
    if (cond.lhs.is_equal(values[0].scalar) && cond.rhs.is_equal(values[1].scalar)) return Value::ofScalar(sym::minOf(cond.lhs, cond.rhs));
    if (cond.lhs.is_equal(values[1].scalar) && cond.rhs.is_equal(values[0].scalar)) return Value::ofScalar(sym::maxOf(cond.lhs, cond.rhs));
  }
  if (values[0].kind == Value::Kind::Scalar && values[1].kind == Value::Kind::Scalar &&
      (cond.op == sym::ConditionOp::Greater || cond.op == sym::ConditionOp::GreaterEqual)) {
    if (cond.lhs.is_equal(values[0].scalar) && cond.rhs.is_equal(values[1].scalar)) return Value::ofScalar(sym::maxOf(cond.lhs, cond.rhs));
    if (cond.lhs.is_equal(values[1].scalar) && cond.rhs.is_equal(values[0].scalar)) return Value::ofScalar(sym::minOf(cond.lhs, cond.rhs));
  }
  if (op->getType()->isIntegralOrEnumerationType())
    return Value::ofScalar(freshUnknown("select", "value of " + sourceText(op) + " at " + where + " (the arms differ and are not a min/max)"));
  return Value::unknown();
}

/* a && b, a || b: the right operand is evaluated only when the left one allows, so its
   accesses go into a branch arm under that condition. */
sym::Condition FunctionBuilder::shortCircuit(const clang::BinaryOperator* op) {
  bool isAnd = op->getOpcode() == BinaryOperatorKind::BO_LAnd;
  sym::Condition a = condition(op->getLHS());
  ir::Branch branch;
  branch.loc = loc(op->getOperatorLoc());
  ir::Arm arm{isAnd ? "then" : "else", isAnd ? a : sym::Condition::negation(a), {}};
  auto before = env_;
  ir::Block* saved = current_;
  current_ = &arm.body;
  sym::Condition b = condition(op->getRHS());
  current_ = saved;
  mergeEnvironments(before, {env_, before}, branch.loc);
  if (!arm.body.empty()) {
    branch.arms.push_back(std::move(arm));
    append(ir::Node{std::move(branch)});
  }
  return sym::Condition::conjunction(isAnd ? sym::ConditionOp::And : sym::ConditionOp::Or, a, b);
}

sym::Condition FunctionBuilder::condition(const clang::Expr* e) {
  e = e->IgnoreParenImpCasts();
  using K = BinaryOperatorKind;
  if (const auto* op = dyn_cast<clang::BinaryOperator>(e)) {
    if (op->getOpcode() == K::BO_LAnd || op->getOpcode() == K::BO_LOr) return shortCircuit(op);
    if (op->isComparisonOp()) {
      Value lhs = eval(op->getLHS());
      Value rhs = eval(op->getRHS());
      if (lhs.kind != Value::Kind::Scalar || rhs.kind != Value::Kind::Scalar) return sym::Condition::opaque(sourceText(e));
      static const std::map<K, sym::ConditionOp> relations = {
          {K::BO_LT, sym::ConditionOp::Less},         {K::BO_LE, sym::ConditionOp::LessEqual},
          {K::BO_GT, sym::ConditionOp::Greater},      {K::BO_GE, sym::ConditionOp::GreaterEqual},
          {K::BO_EQ, sym::ConditionOp::Equal},        {K::BO_NE, sym::ConditionOp::NotEqual}};
      return sym::Condition::relation(relations.at(op->getOpcode()), lhs.scalar, rhs.scalar);
    }
  }
  if (const auto* op = dyn_cast<clang::UnaryOperator>(e); op && op->getOpcode() == clang::UO_LNot)
    return sym::Condition::negation(condition(op->getSubExpr()));
  Value v = eval(e);
  if (v.kind == Value::Kind::Scalar) return sym::Condition::relation(sym::ConditionOp::NotEqual, v.scalar, 0);
  return sym::Condition::opaque(sourceText(e));
}

std::optional<Location> FunctionBuilder::lvalue(const clang::Expr* e) {
  e = e->IgnoreParens();
  if (const auto* cast = dyn_cast<clang::ImplicitCastExpr>(e); cast && cast->getCastKind() == CastKind::CK_NoOp)
    return lvalue(cast->getSubExpr());
  if (const auto* ref = dyn_cast<clang::DeclRefExpr>(e)) {
    const auto* var = dyn_cast<clang::VarDecl>(ref->getDecl());
    if (!var) return std::nullopt;
    std::string name = var->getNameAsString();
    std::vector<sym::Expr> whole;
    if (auto it = arrays_.find(var); it != arrays_.end()) return Location{PointerValue{it->second, 0, name, {}, whole}, var->getType(), {}};
    if (auto it = slots_.find(var); it != slots_.end()) return Location{PointerValue{it->second, 0, name, {}, whole}, var->getType(), {}};
    if (var->hasGlobalStorage() && (var->getType()->isArrayType() || var->getType()->isRecordType() || state_.options.traceScalars)) {
      if (auto ref = state_.global(var)) return Location{PointerValue{*ref, 0, name, {}, whole}, var->getType(), {}};
    }
    return std::nullopt;
  }
  if (const auto* sub = dyn_cast<clang::ArraySubscriptExpr>(e)) {
    Value base = eval(sub->getBase());
    Value index = eval(sub->getIdx());
    if (base.kind != Value::Kind::Pointer) {
      untracedThrough(sub->getBase(), e);
      return std::nullopt;
    }
    Location l{base.pointer, sub->getType(), base.pointer.field};
    sym::Expr i = scalarOrUnknown(index, "index");
    sym::Expr unit = typeBytes(sub->getType());
    l.where.offset = base.pointer.offset + i * unit;
    l.where.subscripts = movedPosition(base.pointer, unit, i);
    return l;
  }
  if (const auto* op = dyn_cast<clang::UnaryOperator>(e); op && op->getOpcode() == clang::UO_Deref) {
    Value base = eval(op->getSubExpr());
    if (base.kind != Value::Kind::Pointer) {
      untracedThrough(op->getSubExpr(), e);
      return std::nullopt;
    }
    Location l{base.pointer, op->getType(), base.pointer.field};
    l.where.subscripts = positionAt(base.pointer, op->getType());
    return l;
  }
  if (const auto* member = dyn_cast<clang::MemberExpr>(e)) {
    const auto* field = dyn_cast<clang::FieldDecl>(member->getMemberDecl());
    if (!field) return std::nullopt;
    std::optional<Location> base;
    if (member->isArrow()) {
      Value pointer = eval(member->getBase());
      if (pointer.kind == Value::Kind::Pointer) {
        clang::QualType record = member->getBase()->getType()->getPointeeType();
        base = Location{pointer.pointer, record, pointer.pointer.field};
        base->where.subscripts = positionAt(pointer.pointer, record);
      }
      else
        untracedThrough(member->getBase(), e);
    } else {
      base = lvalue(member->getBase());
    }
    if (!base) return std::nullopt;
    const auto& layout = ast_.getASTRecordLayout(field->getParent());
    base->where.offset += static_cast<long>(layout.getFieldOffset(field->getFieldIndex()) / 8);
    base->field = base->field.empty() ? field->getNameAsString() : base->field + "." + field->getNameAsString();
    base->type = member->getType();
    return base;
  }
  if (const auto* literal = dyn_cast<clang::CompoundLiteralExpr>(e)) {
    eval(literal->getInitializer());
    return std::nullopt;
  }
  eval(e);
  return std::nullopt;
}

void FunctionBuilder::emitAccess(const Location& l, ir::AccessMode mode, const clang::Expr* at) {
  if (l.type->isArrayType()) return;
  ir::Access a;
  a.container = l.where.container;
  a.mode = mode;
  a.offset = l.where.offset.expand();
  if (l.where.subscripts)
    for (const sym::Expr& s : *l.where.subscripts) a.subscripts.push_back(s.expand());
  a.bytes = l.type->isIncompleteType() ? 1 : ast_.getTypeSizeInChars(l.type).getQuantity();
  a.name = l.where.name.empty() ? containerName(l.where.container) : l.where.name;
  a.field = l.field;
  a.text = sourceText(at);
  a.loc = loc(at->getBeginLoc());
  explainUnknowns(a.offset, a.text, at);
  append(ir::Node{std::move(a)});
}

/* The subscripts of "p" moved by "delta" elements of "unitBytes" along its last dimension; a
   pointer whose subscripts are not followed starts from its byte offset in such elements. */
std::vector<sym::Expr> FunctionBuilder::movedPosition(const PointerValue& p, const sym::Expr& unitBytes, const sym::Expr& delta) {
  std::vector<sym::Expr> at = p.subscripts.value_or(std::vector<sym::Expr>{});
  if (!p.subscripts) at.push_back(unitBytes.is_zero() ? sym::Expr(0) : (p.offset / unitBytes).expand());
  if (at.empty()) at.push_back(0);
  at.back() = (at.back() + delta).expand();
  return at;
}

/* The subscripts of the object of "type" that "p" points to. Sizes are only asked for (and
   VLA extents only evaluated) when the subscripts are derived from a non-zero offset. */
std::vector<sym::Expr> FunctionBuilder::positionAt(const PointerValue& p, clang::QualType type) {
  if (p.subscripts || p.offset.is_zero()) return movedPosition(p, 1, 0);
  bool sized = !type->isIncompleteType() && !type->isFunctionType() && !type->isVoidType();
  return movedPosition(p, sized ? typeBytes(type) : sym::Expr(1), 0);
}

/* Says which values the offset of access "text" depends on that the analysis cannot follow. */
void FunctionBuilder::explainUnknowns(const sym::Expr& offset, const std::string& text, const clang::Expr* at) {
  std::string reasons;
  for (const sym::Symbol& s : sym::symbolsOfKind(offset, state_.ctx, sym::SymbolKind::Unknown)) {
    const sym::SymbolInfo* info = state_.ctx.info(s.get_name());
    reasons += (reasons.empty() ? "" : "; ") + s.get_name() + ": " + (info && !info->note.empty() ? info->note : "not followed");
  }
  if (!reasons.empty())
    warn(at->getBeginLoc(), "'" + text + "' is indirect and approximate: its offset depends on values the analysis cannot follow (" + reasons + ")");
}

/* An lvalue through a pointer whose value is not followed makes no access: say so. */
void FunctionBuilder::untracedThrough(const clang::Expr* pointer, const clang::Expr* at) {
  if (!pointer->getType()->isPointerType() && !pointer->getType()->isArrayType()) return;
  if (pointer->getType()->getPointeeOrArrayElementType()->isFunctionType()) return;
  warn(at->getBeginLoc(), "memory reached through '" + sourceText(pointer) + "' is not traced: the pointer's value is not followed; the result is approximate");
}

Value FunctionBuilder::read(const Location& l, const clang::Expr* at) {
  emitAccess(l, ir::AccessMode::Read, at);
  clang::QualType type = l.type.getCanonicalType();
  if (type->isIntegralOrEnumerationType())
    return Value::ofScalar(sym::load(containerSymbol(l.where.container), l.where.offset.expand()));
  if (type->isPointerType()) {
    std::string base = containerName(l.where.container);
    auto key = std::make_pair(base, l.field);
    auto it = pointees_.find(key);
    std::size_t index;
    if (it != pointees_.end()) {
      index = it->second;
    } else {
      std::string name = base + (l.field.empty() ? "" : "_" + l.field) + "_pointee";
      std::replace(name.begin(), name.end(), '.', '_');
      auto noVla = [&](const clang::Expr*) -> sym::Expr { return freshUnknown("extent", "extent behind a loaded pointer"); };
      ir::Container c = describeContainer(name, ir::ContainerKind::Pointee, type->getPointeeType(), ast_, noVla, state_.ctx);
      c.isScalar = false;
      c.sizeBytes = freshUnknown("size_" + name, "memory behind pointers loaded from " + base);
      c.loc = loc(at->getBeginLoc());
      index = addLocal(std::move(c));
      pointees_[key] = index;
    }
    PointerValue p{ir::ContainerRef{ir::ContainerRef::Scope::Local, index},
                   sym::load(containerSymbol(l.where.container), l.where.offset.expand()), l.where.name, {}};
    return Value::ofPointer(p);
  }
  return Value::unknown();
}

}  // namespace cats::frontend
