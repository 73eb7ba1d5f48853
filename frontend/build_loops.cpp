// Loops: for loops that fit "for (i = start; i <cmp> bound; i += step)" get an iterator;
// everything else becomes an opaque loop whose body is still traced.
#include "clang_compat.hpp"  // first: see the header
#include "function_builder.hpp"


namespace cats::frontend {

using clang::dyn_cast;

namespace {

/// The register variables a statement assigns (=, op=, ++, --) or takes the address of.
class AssignedVariables : public clang::RecursiveASTVisitor<AssignedVariables> {
 public:
  std::vector<const clang::VarDecl*> found;

  void add(const clang::Expr* e) {
    if (const auto* ref = dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts()))
      if (const auto* var = dyn_cast<clang::VarDecl>(ref->getDecl()); var && !var->hasGlobalStorage())
        if (std::find(found.begin(), found.end(), var) == found.end()) found.push_back(var);
  }
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->isAssignmentOp()) add(op->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->isIncrementDecrementOp() || op->getOpcode() == clang::UO_AddrOf) add(op->getSubExpr());
    return true;
  }
};

struct ForPattern {
  const clang::VarDecl* iterator = nullptr;
  const clang::Expr* start = nullptr;
  const clang::Expr* bound = nullptr;
  ir::Comparison comparison = ir::Comparison::Less;
  const clang::Expr* step = nullptr;  // nullptr: step is stepSign * 1
  int stepSign = 1;
};

const clang::VarDecl* variableOf(const clang::Expr* e) {
  const auto* ref = dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
  const auto* var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var && !var->hasGlobalStorage() && var->getType()->isIntegerType() ? var : nullptr;
}

/* Fills iterator and start from the init statement; returns a reason on failure. */
std::string matchInit(const clang::Stmt* init, ForPattern& p) {
  if (!init) return "no initialisation";
  if (const auto* decl = dyn_cast<clang::DeclStmt>(init)) {
    const auto* var = decl->isSingleDecl() ? dyn_cast<clang::VarDecl>(decl->getSingleDecl()) : nullptr;
    if (!var || !var->getType()->isIntegerType() || !var->getInit()) return "initialisation is not one integer variable";
    p.iterator = var;
    p.start = var->getInit();
    return {};
  }
  const auto* assign = dyn_cast<clang::BinaryOperator>(init);
  if (!assign || assign->getOpcode() != clang::BO_Assign || !variableOf(assign->getLHS())) return "initialisation is not 'i = start'";
  p.iterator = variableOf(assign->getLHS());
  p.start = assign->getRHS();
  return {};
}

ir::Comparison flipped(ir::Comparison c) {
  switch (c) {
    case ir::Comparison::Less: return ir::Comparison::Greater;
    case ir::Comparison::LessEqual: return ir::Comparison::GreaterEqual;
    case ir::Comparison::Greater: return ir::Comparison::Less;
    case ir::Comparison::GreaterEqual: return ir::Comparison::LessEqual;
    case ir::Comparison::NotEqual: return ir::Comparison::NotEqual;
  }
  return c;
}

std::string matchCondition(const clang::Expr* cond, ForPattern& p) {
  const auto* op = cond ? dyn_cast<clang::BinaryOperator>(cond->IgnoreParenImpCasts()) : nullptr;
  if (!op || !op->isComparisonOp() || op->getOpcode() == clang::BO_EQ) return "condition is not a comparison of the iterator";
  static const std::map<clang::BinaryOperatorKind, ir::Comparison> kinds = {
      {clang::BO_LT, ir::Comparison::Less}, {clang::BO_LE, ir::Comparison::LessEqual}, {clang::BO_GT, ir::Comparison::Greater},
      {clang::BO_GE, ir::Comparison::GreaterEqual}, {clang::BO_NE, ir::Comparison::NotEqual}};
  ir::Comparison c = kinds.at(op->getOpcode());
  if (variableOf(op->getLHS()) == p.iterator) {
    p.comparison = c;
    p.bound = op->getRHS();
  } else if (variableOf(op->getRHS()) == p.iterator) {
    p.comparison = flipped(c);
    p.bound = op->getLHS();
  } else {
    return "condition does not compare the iterator '" + p.iterator->getNameAsString() + "'";
  }
  return {};
}

std::string matchIncrement(const clang::Expr* inc, ForPattern& p) {
  if (!inc) return "no increment";
  inc = inc->IgnoreParenImpCasts();
  if (const auto* op = dyn_cast<clang::UnaryOperator>(inc); op && op->isIncrementDecrementOp() && variableOf(op->getSubExpr()) == p.iterator) {
    p.stepSign = op->isIncrementOp() ? 1 : -1;
    return {};
  }
  const auto* op = dyn_cast<clang::BinaryOperator>(inc);
  if (!op || variableOf(op->getLHS()) != p.iterator) return "increment does not update the iterator";
  if (op->getOpcode() == clang::BO_AddAssign || op->getOpcode() == clang::BO_SubAssign) {
    p.step = op->getRHS();
    p.stepSign = op->getOpcode() == clang::BO_AddAssign ? 1 : -1;
    return {};
  }
  if (op->getOpcode() == clang::BO_Assign) {
    const auto* sum = dyn_cast<clang::BinaryOperator>(op->getRHS()->IgnoreParenImpCasts());
    if (sum && (sum->getOpcode() == clang::BO_Add || sum->getOpcode() == clang::BO_Sub)) {
      if (variableOf(sum->getLHS()) == p.iterator) {
        p.step = sum->getRHS();
        p.stepSign = sum->getOpcode() == clang::BO_Add ? 1 : -1;
        return {};
      }
      if (sum->getOpcode() == clang::BO_Add && variableOf(sum->getRHS()) == p.iterator) {
        p.step = sum->getLHS();
        return {};
      }
    }
  }
  return "increment is not i++, i--, i += k, i -= k or i = i + k";
}

/// Local variables whose address is taken anywhere in a statement.
class AddressTaken : public clang::RecursiveASTVisitor<AddressTaken> {
 public:
  std::set<const clang::VarDecl*> found;
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->getOpcode() != clang::UO_AddrOf) return true;
    if (const auto* ref = dyn_cast<clang::DeclRefExpr>(op->getSubExpr()->IgnoreParenImpCasts()))
      if (const auto* var = dyn_cast<clang::VarDecl>(ref->getDecl()); var && !var->hasGlobalStorage() && !var->getType()->isArrayType())
        found.insert(var);
    return true;
  }
};

}  // namespace

/// Local scalars whose address is an argument of a call to user code.
class AddressPassed : public clang::RecursiveASTVisitor<AddressPassed> {
 public:
  explicit AddressPassed(const std::function<bool(clang::SourceLocation)>& isSystem) : isSystem_(isSystem) {}
  std::set<const clang::VarDecl*> found;

  bool VisitCallExpr(clang::CallExpr* c) {
    const clang::FunctionDecl* callee = c->getDirectCallee();
    if (callee && (callee->getBuiltinID() != 0 || isSystem_(callee->getLocation()))) return true;
    for (const clang::Expr* arg : c->arguments()) {
      const auto* addr = dyn_cast<clang::UnaryOperator>(arg->IgnoreParenCasts());
      if (!addr || addr->getOpcode() != clang::UO_AddrOf) continue;
      if (const auto* ref = dyn_cast<clang::DeclRefExpr>(addr->getSubExpr()->IgnoreParenImpCasts()))
        if (const auto* var = dyn_cast<clang::VarDecl>(ref->getDecl());
            var && !var->hasGlobalStorage() && !clang::isa<clang::ParmVarDecl>(var) && !var->getType()->isArrayType() &&
            !var->getType()->isRecordType())
          found.insert(var);
    }
    return true;
  }

 private:
  const std::function<bool(clang::SourceLocation)>& isSystem_;
};

std::set<const clang::VarDecl*> addressPassedLocals(const clang::Stmt* body, const std::function<bool(clang::SourceLocation)>& isSystem) {
  AddressPassed visitor(isSystem);
  visitor.TraverseStmt(const_cast<clang::Stmt*>(body));
  return visitor.found;
}

std::set<const clang::VarDecl*> addressTakenLocals(const clang::Stmt* body) {
  AddressTaken visitor;
  visitor.TraverseStmt(const_cast<clang::Stmt*>(body));
  return visitor.found;
}

std::vector<sym::Symbol> FunctionBuilder::forgetAssignedIn(const clang::Stmt* body, const clang::VarDecl* except,
                                                           const ir::SourceLoc& where) {
  AssignedVariables assigned;
  assigned.TraverseStmt(const_cast<clang::Stmt*>(body));
  std::vector<sym::Symbol> varying;
  for (const clang::VarDecl* var : assigned.found) {
    if (var == except || !env_.count(var)) continue;
    std::string name = var->getNameAsString();
    std::string why = name + " changes in the loop at " + where.str();
    if (var->getType()->isIntegralOrEnumerationType()) {
      sym::Expr u = freshUnknown(name, why);
      varying.push_back(GiNaC::ex_to<GiNaC::symbol>(u));
      env_[var] = Value::ofScalar(u);
    } else if (env_[var].kind == Value::Kind::Pointer) {
      sym::Expr u = freshUnknown("offset_" + name, why);
      varying.push_back(GiNaC::ex_to<GiNaC::symbol>(u));
      env_[var].pointer.offset = u;
    } else {
      env_[var] = Value::unknown();
    }
  }
  return varying;
}

void FunctionBuilder::forLoop(const clang::ForStmt* s, bool parallel) {
  ForPattern pattern;
  std::string reason = matchInit(s->getInit(), pattern);
  if (reason.empty()) reason = matchCondition(s->getCond(), pattern);
  if (reason.empty()) reason = matchIncrement(s->getInc(), pattern);
  if (reason.empty()) {
    AssignedVariables assigned;
    assigned.TraverseStmt(const_cast<clang::Stmt*>(s->getBody()));
    if (std::find(assigned.found.begin(), assigned.found.end(), pattern.iterator) != assigned.found.end())
      reason = "the body changes the iterator '" + pattern.iterator->getNameAsString() + "'";
  }
  if (!reason.empty()) {
    if (s->getInit()) statement(s->getInit());
    opaqueLoop(s, s->getCond(), s->getBody(), "for loop: " + reason);
    return;
  }
  ir::Loop loop;
  loop.loc = loc(s->getBeginLoc());
  loop.parallel = parallel;
  loop.start = scalarOrUnknown(eval(pattern.start), "start");
  std::string name = pattern.iterator->getNameAsString();
  sym::Symbol iterator = state_.ctx.symbol(name, sym::SymbolKind::Iterator);
  loop.iterator = iterator;
  loop.iteratorName = iterator.get_name();
  env_[pattern.iterator] = Value::ofScalar(iterator);
  loop.varying = forgetAssignedIn(s->getBody(), pattern.iterator, loop.loc);
  loop.varying.insert(loop.varying.begin(), iterator);
  ir::Block* saved = current_;
  current_ = &loop.header;
  loop.bound = scalarOrUnknown(eval(pattern.bound), "bound");
  sym::Expr step = pattern.step ? scalarOrUnknown(eval(pattern.step), "step") : sym::Expr(1);
  loop.step = pattern.stepSign > 0 ? step : -step;
  loop.comparison = pattern.comparison;
  current_ = &loop.body;
  ++loopDepth_;
  bool savedExit = std::exchange(sawEarlyExit_, false);
  statement(s->getBody());
  loop.hasEarlyExit = sawEarlyExit_;
  sawEarlyExit_ = savedExit;
  --loopDepth_;
  current_ = saved;
  if (loop.hasEarlyExit)
    warn(s->getBeginLoc(), "loop has an early exit (break, return or goto): its trip count is an upper bound; the result is approximate");
  env_[pattern.iterator] = Value::ofScalar(freshUnknown(name, name + " after the loop at " + loop.loc.str()));
  append(ir::Node{std::move(loop)});
}

void FunctionBuilder::opaqueLoop(const clang::Stmt* s, const clang::Expr* cond, const clang::Stmt* body, const std::string& reason) {
  ir::Loop loop;
  loop.loc = loc(s->getBeginLoc());
  loop.opaqueReason = reason;
  warn(s->getBeginLoc(), reason + " does not fit 'for (i = a; i < b; i += k)': traced as an opaque loop with an unknown trip count");
  loop.varying = forgetAssignedIn(s, nullptr, loop.loc);
  ir::Block* saved = current_;
  if (cond) {
    current_ = &loop.header;
    eval(cond);
  }
  current_ = &loop.body;
  ++loopDepth_;
  bool savedExit = std::exchange(sawEarlyExit_, false);
  statement(body);
  if (const auto* f = dyn_cast<clang::ForStmt>(s); f && f->getInc()) eval(f->getInc());
  loop.hasEarlyExit = sawEarlyExit_;
  sawEarlyExit_ = savedExit;
  --loopDepth_;
  current_ = saved;
  append(ir::Node{std::move(loop)});
}

}  // namespace cats::frontend
