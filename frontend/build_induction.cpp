// Induction variables, found on the syntax of a loop: local integers and pointers changed
// exactly once per iteration, unconditionally, by a loop-invariant amount (i++, i += k,
// p = p + s, *p++, out[k++]), and the exit test that compares one of them with an
// invariant bound (i < n, p != end, n--). The lowering in build_loops.cpp gives them values.
#include "clang_compat.hpp"  // first: see the header
#include "induction.hpp"

#include <algorithm>
#include <map>
#include <type_traits>
#include <utility>

namespace cats::frontend {

using clang::dyn_cast;
using clang::isa;

namespace {

/* The local integer or pointer variable "e" names, if any. */
const clang::VarDecl* localVariable(const clang::Expr* e) {
  const auto* ref = dyn_cast<clang::DeclRefExpr>(e->IgnoreParenCasts());
  const auto* var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  if (!var || var->hasGlobalStorage()) return nullptr;
  clang::QualType t = var->getType();
  return t->isIntegerType() || t->isPointerType() ? var : nullptr;
}

/* The update "e" makes, if it assigns a local: v++, v -= k, v = v + k, v = k + v, v = v - k. */
std::optional<Update> updateOf(const clang::Expr* e) {
  e = e->IgnoreParens();
  if (const auto* op = dyn_cast<clang::UnaryOperator>(e); op && op->isIncrementDecrementOp()) {
    const clang::VarDecl* var = localVariable(op->getSubExpr());
    if (!var) return std::nullopt;
    return Update{var, op, nullptr, op->isIncrementOp() ? 1 : -1, op->isPrefix(), true};
  }
  const auto* op = dyn_cast<clang::BinaryOperator>(e);
  if (!op || !op->isAssignmentOp()) return std::nullopt;
  const clang::VarDecl* var = localVariable(op->getLHS());
  if (!var) return std::nullopt;
  Update u{var, op, nullptr, 1, true, false};
  if (op->getOpcode() == clang::BO_AddAssign || op->getOpcode() == clang::BO_SubAssign) {
    u.amount = op->getRHS();
    u.sign = op->getOpcode() == clang::BO_AddAssign ? 1 : -1;
    u.affine = true;
  } else if (op->getOpcode() == clang::BO_Assign) {
    const auto* sum = dyn_cast<clang::BinaryOperator>(op->getRHS()->IgnoreParenImpCasts());
    if (sum && (sum->getOpcode() == clang::BO_Add || sum->getOpcode() == clang::BO_Sub)) {
      if (localVariable(sum->getLHS()) == var) {
        u.amount = sum->getRHS();
        u.sign = sum->getOpcode() == clang::BO_Add ? 1 : -1;
        u.affine = true;
      } else if (sum->getOpcode() == clang::BO_Add && localVariable(sum->getRHS()) == var) {
        u.amount = sum->getLHS();
        u.affine = true;
      }
    }
  }
  return u;
}

/// Every change of a local in a statement: assignments, ++/-- and taking its address.
class AllChanges : public clang::RecursiveASTVisitor<AllChanges> {
 public:
  VarMap<std::vector<const clang::Expr*>> changes;

  void add(const clang::Expr* target, const clang::Expr* at) {
    if (const auto* ref = dyn_cast<clang::DeclRefExpr>(target->IgnoreParenCasts()))
      if (const auto* var = dyn_cast<clang::VarDecl>(ref->getDecl()); var && !var->hasGlobalStorage()) changes[var].push_back(at);
  }
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->isAssignmentOp()) add(op->getLHS(), op);
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->isIncrementDecrementOp() || op->getOpcode() == clang::UO_AddrOf) add(op->getSubExpr(), op);
    return true;
  }
};

/// Statements that let an iteration skip the rest of the body or re-enter it: continue (of
/// this loop, not of an inner one) and labels.
class SkipsUpdates : public clang::RecursiveASTVisitor<SkipsUpdates> {
 public:
  const clang::Stmt* found = nullptr;
  bool TraverseForStmt(clang::ForStmt*) { return true; }
  bool TraverseWhileStmt(clang::WhileStmt*) { return true; }
  bool TraverseDoStmt(clang::DoStmt*) { return true; }
  bool VisitContinueStmt(clang::ContinueStmt* s) {
    found = found ? found : s;
    return true;
  }
  bool VisitLabelStmt(clang::LabelStmt* s) {
    found = found ? found : s;
    return true;
  }
};

/// Changes of locals made inside loops nested in a statement.
class InnerLoopChanges : public clang::RecursiveASTVisitor<InnerLoopChanges> {
 public:
  std::set<const clang::Stmt*> found;
  bool TraverseForStmt(clang::ForStmt* s) { return nested(s); }
  bool TraverseWhileStmt(clang::WhileStmt* s) { return nested(s); }
  bool TraverseDoStmt(clang::DoStmt* s) { return nested(s); }
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (depth_ > 0 && op->isAssignmentOp()) found.insert(op);
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (depth_ > 0 && op->isIncrementDecrementOp()) found.insert(op);
    return true;
  }

 private:
  int depth_ = 0;
  template <typename Loop>
  bool nested(Loop* s) {
    ++depth_;
    bool ok = clang::RecursiveASTVisitor<InnerLoopChanges>::TraverseStmt(s->getBody()) &&
              clang::RecursiveASTVisitor<InnerLoopChanges>::TraverseStmt(s->getCond());
    if constexpr (std::is_same_v<Loop, clang::ForStmt>) ok = ok && clang::RecursiveASTVisitor<InnerLoopChanges>::TraverseStmt(s->getInc());
    --depth_;
    return ok;
  }
};

/// Whether an expression reads memory or a local in "changed" (then it is not loop-invariant).
class VariesWith : public clang::RecursiveASTVisitor<VariesWith> {
 public:
  VariesWith(const VarSet& changed, bool memoryVaries, const KnownCall& knownCall)
      : changed_(changed), memoryVaries_(memoryVaries), knownCall_(knownCall) {}
  bool varies = false;
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    if (const auto* var = dyn_cast<clang::VarDecl>(ref->getDecl()); var && changed_.count(var)) varies = true;
    return true;
  }
  bool VisitArraySubscriptExpr(clang::ArraySubscriptExpr*) { return varies |= memoryVaries_, true; }
  bool VisitMemberExpr(clang::MemberExpr*) { return varies |= memoryVaries_, true; }
  bool VisitCallExpr(clang::CallExpr* c) { return varies |= !(knownCall_ && knownCall_(c)), true; }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->getOpcode() == clang::UO_Deref) varies |= memoryVaries_;
    return true;
  }

 private:
  const VarSet& changed_;
  bool memoryVaries_;
  const KnownCall& knownCall_;
};

/* Whether "e" has side effects other than those of "knownCall" calls themselves (whose
   arguments still count): what the callee does cannot change the value such a call returns. */
bool sideEffectsBesideKnownCalls(const clang::Expr* e, clang::ASTContext& ast, const KnownCall& knownCall) {
  if (!knownCall || !e->HasSideEffects(ast)) return e->HasSideEffects(ast);
  e = e->IgnoreParens();
  if (const auto* c = dyn_cast<clang::CallExpr>(e)) {
    if (!knownCall(c)) return true;
    return std::any_of(c->arg_begin(), c->arg_end(), [&](const clang::Expr* arg) { return sideEffectsBesideKnownCalls(arg, ast, knownCall); });
  }
  if (const auto* op = dyn_cast<clang::BinaryOperator>(e); op && op->isAssignmentOp()) return true;
  if (const auto* op = dyn_cast<clang::UnaryOperator>(e); op && op->isIncrementDecrementOp()) return true;
  if (!isa<clang::BinaryOperator>(e) && !isa<clang::UnaryOperator>(e) && !isa<clang::CastExpr>(e) &&
      !isa<clang::AbstractConditionalOperator>(e))
    return true;
  for (const clang::Stmt* child : e->children())
    if (const auto* sub = dyn_cast_or_null<clang::Expr>(child); sub && sideEffectsBesideKnownCalls(sub, ast, knownCall)) return true;
  return false;
}

/* Updates in "e" that happen whenever "e" is evaluated: not in the right operand of && or ||,
   not in an arm of ?:. */
void unconditionalUpdates(const clang::Expr* e, Induction::Where where, std::vector<std::pair<Update, Induction::Where>>& out) {
  if (!e) return;
  e = e->IgnoreParens();
  if (const auto* op = dyn_cast<clang::BinaryOperator>(e); op && op->isLogicalOp()) return unconditionalUpdates(op->getLHS(), where, out);
  if (const auto* op = dyn_cast<clang::AbstractConditionalOperator>(e)) return unconditionalUpdates(op->getCond(), where, out);
  if (isa<clang::StmtExpr>(e) || isa<clang::LambdaExpr>(e)) return;
  if (auto u = updateOf(e)) out.emplace_back(*u, where);
  for (const clang::Stmt* child : e->children())
    if (const auto* sub = dyn_cast_or_null<clang::Expr>(child)) unconditionalUpdates(sub, where, out);
}

/* The top-level statements of a loop body, in order. */
std::vector<const clang::Stmt*> topLevel(const clang::Stmt* body) {
  if (const auto* block = dyn_cast_or_null<clang::CompoundStmt>(body)) return {block->body_begin(), block->body_end()};
  if (body) return {body};
  return {};
}

/// Whether a loop body can leave the loop other than through its test: a break of this loop, a
/// return, a goto or label, a call that does not return.
class LeavesEarly : public clang::RecursiveASTVisitor<LeavesEarly> {
 public:
  bool found = false;
  bool TraverseForStmt(clang::ForStmt* s) { return nested([&] { return Base::TraverseForStmt(s); }); }
  bool TraverseWhileStmt(clang::WhileStmt* s) { return nested([&] { return Base::TraverseWhileStmt(s); }); }
  bool TraverseDoStmt(clang::DoStmt* s) { return nested([&] { return Base::TraverseDoStmt(s); }); }
  bool TraverseSwitchStmt(clang::SwitchStmt* s) { return nested([&] { return Base::TraverseSwitchStmt(s); }); }
  bool VisitBreakStmt(clang::BreakStmt*) { return found |= depth_ == 0, true; }
  bool VisitReturnStmt(clang::ReturnStmt*) { return found = true, true; }
  bool VisitGotoStmt(clang::GotoStmt*) { return found = true, true; }
  bool VisitIndirectGotoStmt(clang::IndirectGotoStmt*) { return found = true, true; }
  bool VisitLabelStmt(clang::LabelStmt*) { return found = true, true; }
  bool VisitCallExpr(clang::CallExpr* c) {
    if (const clang::FunctionDecl* callee = c->getDirectCallee(); callee && callee->isNoReturn()) found = true;
    return true;
  }

 private:
  using Base = clang::RecursiveASTVisitor<LeavesEarly>;
  int depth_ = 0;
  template <typename F>
  bool nested(F traverse) {
    ++depth_;
    bool ok = traverse();
    --depth_;
    return ok;
  }
};

bool encloses(const clang::Stmt* outer, const clang::Stmt* inner) {
  if (outer == inner) return true;
  for (const clang::Stmt* child : outer->children())
    if (child && encloses(child, inner)) return true;
  return false;
}

/* The inner loops one scan looked at, each scanned once (the scan, and whether it is counted):
   every variable an inner loop changes looks its loop up, and scanning it again for each made a
   nest of depth d cost on the order of d! scans (a sixth of a small run's instructions). */
using InnerScans = std::map<const clang::ForStmt*, std::pair<InductionScan, bool>>;

InductionScan scanWith(const clang::Expr* cond, const clang::Stmt* body, const clang::Expr* inc, clang::ASTContext& ast, KnownCall knownCall,
                       InnerScans& inners);

/* "var", changed only at "at" inside an inner loop of "body": a nested induction when "at" is
   an induction of a counted for loop standing at the top level of "body" (so it runs every
   iteration), directly or through further such loops. */
std::optional<Induction> nestedInduction(const clang::VarDecl* var, const clang::Stmt* at, const clang::Stmt* body, clang::ASTContext& ast,
                                         const KnownCall& knownCall, InnerScans& inners) {
  for (const clang::Stmt* s : topLevel(body)) {
    const auto* inner = dyn_cast<clang::ForStmt>(s);
    if (!inner || !encloses(inner, at)) continue;
    auto known = inners.find(inner);
    if (known == inners.end()) {
      InductionScan scan = scanWith(inner->getCond(), inner->getBody(), inner->getInc(), ast, knownCall, inners);
      const bool counted = countedFor(inner, scan, ast).has_value();
      known = inners.emplace(inner, std::pair{std::move(scan), counted}).first;
    }
    const auto& [scan, counted] = known->second;
    if (!counted) return std::nullopt;
    for (const Induction& ind : scan.inductions) {
      if (ind.update.var != var) continue;
      if (ind.where == Induction::Where::Condition) return std::nullopt;  // runs once more than the body
      Induction out = ind;
      out.where = Induction::Where::Body;
      out.through.insert(out.through.begin(), inner);
      return out;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::optional<CountedFor> countedFor(const clang::Stmt* loop, clang::ASTContext& ast, const KnownCall& knownCall) {
  const auto* f = dyn_cast<clang::ForStmt>(loop);
  if (!f) return std::nullopt;
  return countedFor(f, scanInductions(f->getCond(), f->getBody(), f->getInc(), ast, knownCall), ast);
}

std::optional<CountedFor> countedFor(const clang::ForStmt* f, const InductionScan& scan, clang::ASTContext& ast) {
  if (!f->getInit() || !f->getCond()) return std::nullopt;
  LeavesEarly leaves;
  leaves.TraverseStmt(const_cast<clang::Stmt*>(f->getBody()));
  if (leaves.found) return std::nullopt;
  auto test = matchExitTest(f->getCond(), scan, ast);
  if (!test || test->updatedBeforeTest || !test->otherConjuncts.empty() || test->induction->where == Induction::Where::Condition ||
      !test->induction->through.empty())
    return std::nullopt;
  const Update& u = test->induction->update;
  if (!u.var->getType()->isIntegerType()) return std::nullopt;
  const clang::Expr* start = nullptr;
  if (const auto* d = dyn_cast<clang::DeclStmt>(f->getInit()); d && d->isSingleDecl()) {
    if (const auto* v = dyn_cast<clang::VarDecl>(d->getSingleDecl()); v == u.var) start = v->getInit();
  } else if (const auto* e = dyn_cast<clang::Expr>(f->getInit())) {
    if (const auto* a = dyn_cast<clang::BinaryOperator>(e->IgnoreParens()); a && a->getOpcode() == clang::BO_Assign && localVariable(a->getLHS()) == u.var)
      start = a->getRHS();
  }
  if (!start) return std::nullopt;
  return CountedFor{start, test->bound, u.amount, u.sign, test->comparison, scan.changed};
}

bool variesIn(const clang::Expr* e, const VarSet& changed, clang::ASTContext& ast, bool memoryVaries,
              const KnownCall& knownCall) {
  VariesWith visitor(changed, memoryVaries, knownCall);
  visitor.TraverseStmt(const_cast<clang::Expr*>(e));
  return visitor.varies || sideEffectsBesideKnownCalls(e, ast, knownCall);
}

InductionScan scanInductions(const clang::Expr* cond, const clang::Stmt* body, const clang::Expr* inc, clang::ASTContext& ast,
                             KnownCall knownCall) {
  InnerScans inners;
  return scanWith(cond, body, inc, ast, std::move(knownCall), inners);
}

namespace {

InductionScan scanWith(const clang::Expr* cond, const clang::Stmt* body, const clang::Expr* inc, clang::ASTContext& ast, KnownCall knownCall,
                       InnerScans& inners) {
  AllChanges all;
  all.TraverseStmt(const_cast<clang::Expr*>(cond));
  all.TraverseStmt(const_cast<clang::Stmt*>(body));
  all.TraverseStmt(const_cast<clang::Expr*>(inc));
  InductionScan scan;
  scan.knownCall = std::move(knownCall);
  for (const auto& [var, at] : all.changes) scan.changed.insert(var);

  std::vector<std::pair<Update, Induction::Where>> sites;
  unconditionalUpdates(cond, Induction::Where::Condition, sites);
  for (const clang::Stmt* s : topLevel(body)) {
    while (const auto* label = dyn_cast<clang::LabelStmt>(s)) s = label->getSubStmt();
    if (const auto* e = dyn_cast<clang::Expr>(s)) unconditionalUpdates(e, Induction::Where::Body, sites);
    if (const auto* d = dyn_cast<clang::DeclStmt>(s))
      for (const clang::Decl* decl : d->decls())
        if (const auto* var = dyn_cast<clang::VarDecl>(decl); var && var->getInit())
          unconditionalUpdates(var->getInit(), Induction::Where::Body, sites);
  }
  unconditionalUpdates(inc, Induction::Where::Increment, sites);
  SkipsUpdates skips;
  skips.TraverseStmt(const_cast<clang::Stmt*>(body));
  InnerLoopChanges inner;
  inner.TraverseStmt(const_cast<clang::Stmt*>(body));

  for (const auto& change : all.changes) {
    // Named variables, not a structured binding: clang 14 cannot capture those in the lambdas below.
    const clang::VarDecl* var = change.first;
    const auto& at = change.second;
    auto site = std::find_if(sites.begin(), sites.end(), [&](const auto& s) { return s.first.var == var; });
    std::string name = var->getNameAsString();
    auto reject = [&](const clang::Stmt* where, const std::string& why) { scan.rejected[var] = {where, why}; };
    if (at.size() > 1) {
      reject(at[1], name + " changes more than once per iteration");
    } else if (site == sites.end()) {
      bool addressTaken = isa<clang::UnaryOperator>(at[0]) && dyn_cast<clang::UnaryOperator>(at[0])->getOpcode() == clang::UO_AddrOf;
      std::optional<Induction> nested;
      if (!addressTaken && inner.found.count(at[0]) && !skips.found) nested = nestedInduction(var, at[0], body, ast, scan.knownCall, inners);
      if (nested) scan.inductions.push_back(*nested);
      else
        reject(at[0], addressTaken         ? "the address of " + name + " is taken"
                      : inner.found.count(at[0]) ? name + " changes in an inner loop"
                                                 : name + " changes under a condition");
    } else if (!site->first.affine) {
      reject(at[0], name + " is assigned a value that is not " + name + " plus a loop-invariant amount");
    } else if (site->first.amount && variesIn(site->first.amount, scan.changed, ast, true, scan.knownCall)) {
      reject(at[0], name + " changes by an amount that is not loop-invariant");
    } else if (site->second == Induction::Where::Body && skips.found) {
      reject(skips.found, "a continue or label in the loop can skip the update of " + name);
    } else {
      scan.inductions.push_back(Induction{site->first, site->second, {}});
    }
  }
  std::sort(scan.inductions.begin(), scan.inductions.end(),
            [](const Induction& a, const Induction& b) { return a.update.at->getBeginLoc() < b.update.at->getBeginLoc(); });
  return scan;
}

ir::Comparison comparisonOf(clang::BinaryOperatorKind kind) {
  switch (kind) {
    case clang::BO_LT: return ir::Comparison::Less;
    case clang::BO_LE: return ir::Comparison::LessEqual;
    case clang::BO_GT: return ir::Comparison::Greater;
    case clang::BO_GE: return ir::Comparison::GreaterEqual;
    default: return ir::Comparison::NotEqual;
  }
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

/* The induction variable "e" tests (v, or v++ / --v in the condition itself). */
const Induction* testedInduction(const clang::Expr* e, const InductionScan& scan, bool& updatedHere, bool& prefix) {
  e = e->IgnoreParenCasts();
  updatedHere = false;
  if (const auto* op = dyn_cast<clang::UnaryOperator>(e); op && op->isIncrementDecrementOp()) {
    updatedHere = true;
    prefix = op->isPrefix();
    e = op->getSubExpr()->IgnoreParenCasts();
  }
  const clang::VarDecl* var = localVariable(e);
  for (const Induction& ind : scan.inductions)
    if (ind.update.var == var && (!updatedHere || ind.where == Induction::Where::Condition)) return &ind;
  return nullptr;
}

/* Matches one conjunct: "v <cmp> bound", "bound <cmp> v", or "v" alone (v != 0). */
std::optional<ExitTest> matchConjunct(const clang::Expr* e, const InductionScan& scan, clang::ASTContext& ast) {
  e = e->IgnoreParenImpCasts();
  bool updated = false, prefix = false;
  const auto* op = dyn_cast<clang::BinaryOperator>(e);
  if (op && op->isComparisonOp() && op->getOpcode() != clang::BO_EQ) {
    ir::Comparison c = comparisonOf(op->getOpcode());
    if (const Induction* ind = testedInduction(op->getLHS(), scan, updated, prefix); ind && !variesIn(op->getRHS(), scan.changed, ast, false, scan.knownCall))
      return ExitTest{ind, op->getRHS(), c, updated && prefix, e, {}};
    if (const Induction* ind = testedInduction(op->getRHS(), scan, updated, prefix); ind && !variesIn(op->getLHS(), scan.changed, ast, false, scan.knownCall))
      return ExitTest{ind, op->getLHS(), flipped(c), updated && prefix, e, {}};
    return std::nullopt;
  }
  if (const Induction* ind = testedInduction(e, scan, updated, prefix); ind && ind->update.var->getType()->isIntegerType())
    return ExitTest{ind, nullptr, ir::Comparison::NotEqual, updated && prefix, e, {}};
  return std::nullopt;
}

void conjuncts(const clang::Expr* e, std::vector<const clang::Expr*>& out) {
  e = e->IgnoreParenImpCasts();
  if (const auto* op = dyn_cast<clang::BinaryOperator>(e); op && op->getOpcode() == clang::BO_LAnd) {
    conjuncts(op->getLHS(), out);
    conjuncts(op->getRHS(), out);
    return;
  }
  out.push_back(e);
}

/* The comparison that holds exactly when "c" does not: i >= n for i < n, p != end for p == end. */
std::optional<clang::BinaryOperatorKind> negated(clang::BinaryOperatorKind kind) {
  switch (kind) {
    case clang::BO_LT: return clang::BO_GE;
    case clang::BO_LE: return clang::BO_GT;
    case clang::BO_GT: return clang::BO_LE;
    case clang::BO_GE: return clang::BO_LT;
    case clang::BO_EQ: return clang::BO_NE;
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<ExitTest> matchExitWhen(const clang::Expr* exit, const InductionScan& scan, clang::ASTContext& ast) {
  const auto* op = dyn_cast<clang::BinaryOperator>(exit->IgnoreParenImpCasts());
  auto kind = op && op->isComparisonOp() ? negated(op->getOpcode()) : std::nullopt;
  if (!kind) return std::nullopt;
  bool updated = false, prefix = false;
  ir::Comparison c = comparisonOf(*kind);
  if (const Induction* ind = testedInduction(op->getLHS(), scan, updated, prefix); ind && !updated && !variesIn(op->getRHS(), scan.changed, ast, false, scan.knownCall))
    return ExitTest{ind, op->getRHS(), c, false, op, {}};
  if (const Induction* ind = testedInduction(op->getRHS(), scan, updated, prefix); ind && !updated && !variesIn(op->getLHS(), scan.changed, ast, false, scan.knownCall))
    return ExitTest{ind, op->getLHS(), flipped(c), false, op, {}};
  return std::nullopt;
}

std::optional<ExitTest> matchExitTest(const clang::Expr* cond, const InductionScan& scan, clang::ASTContext& ast) {
  if (!cond) return std::nullopt;
  std::vector<const clang::Expr*> parts;
  conjuncts(cond, parts);
  std::optional<ExitTest> test;
  for (const clang::Expr* part : parts)
    if (!test) test = matchConjunct(part, scan, ast);
  if (!test) return std::nullopt;
  for (const clang::Expr* part : parts) {
    clang::Expr::EvalResult r;
    bool alwaysTrue = !part->isValueDependent() && part->EvaluateAsInt(r, ast) && r.Val.getInt() != 0;
    if (part != test->conjunct && !alwaysTrue) test->otherConjuncts.push_back(part);
  }
  return test;
}

const clang::Stmt* skipsRestOfBody(const clang::Stmt* body) {
  SkipsUpdates skips;
  skips.TraverseStmt(const_cast<clang::Stmt*>(body));
  return skips.found;
}

}  // namespace cats::frontend
