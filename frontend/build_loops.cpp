// Loops: for, while and do loops whose induction variables (build_induction.cpp) include one
// tested against an invariant bound get an iterator and an exact trip count; loops with
// induction variables but no such test get an iterator with an unknown trip count; the
// rest become opaque loops whose body is still traced.
#include "clang_compat.hpp"  // first: see the header
#include "function_builder.hpp"
#include "induction.hpp"
#include "ir_walk.hpp"


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

/// Local variables whose address is taken anywhere in a statement.
class AddressTaken : public clang::RecursiveASTVisitor<AddressTaken> {
 public:
  VarSet found;
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
  VarSet found;

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

VarSet addressPassedLocals(const clang::Stmt* body, const std::function<bool(clang::SourceLocation)>& isSystem) {
  AddressPassed visitor(isSystem);
  visitor.TraverseStmt(const_cast<clang::Stmt*>(body));
  return visitor.found;
}

VarSet addressTakenLocals(const clang::Stmt* body) {
  AddressTaken visitor;
  visitor.TraverseStmt(const_cast<clang::Stmt*>(body));
  return visitor.found;
}


std::vector<sym::Symbol> FunctionBuilder::forgetAssignedIn(const std::vector<const clang::Stmt*>& parts,
                                                           const VarSet& except, const ir::SourceLoc& where,
                                                           const VarMap<std::string>& reasons) {
  AssignedVariables assigned;
  for (const clang::Stmt* part : parts) assigned.TraverseStmt(const_cast<clang::Stmt*>(part));
  std::vector<sym::Symbol> varying;
  for (const clang::VarDecl* var : assigned.found) {
    if (except.count(var) || !env_.count(var)) continue;
    std::string name = var->getNameAsString();
    std::string why = name + " changes in the loop at " + where.str();
    if (auto it = reasons.find(var); it != reasons.end()) why += " (" + it->second + ")";
    if (var->getType()->isIntegralOrEnumerationType()) {
      sym::Expr u = freshUnknown(name, why);
      varying.push_back(GiNaC::ex_to<GiNaC::symbol>(u));
      env_[var] = Value::ofScalar(u);
    } else if (env_[var].kind == Value::Kind::Pointer) {
      sym::Expr u = freshUnknown("offset_" + name, why);
      varying.push_back(GiNaC::ex_to<GiNaC::symbol>(u));
      env_[var].pointer.moveTo(u);
    } else {
      env_[var] = Value::unknown();
    }
  }
  return varying;
}

void FunctionBuilder::forLoop(const clang::ForStmt* s, bool parallel) {
  if (s->getInit()) statement(s->getInit());
  loop(LoopShape{s, s->getCond(), s->getBody(), s->getInc(), false, parallel, "for loop"});
}

/* Evaluates "e" for its value only: accesses it makes are dropped (the caller lowers it too). */
Value FunctionBuilder::valueAside(const clang::Expr* e) {
  ir::Block scratch;
  ir::Block* saved = current_;
  current_ = &scratch;
  auto env = env_;
  Value v = eval(e);
  env_ = std::move(env);
  current_ = saved;
  return v;
}

/* The condition "e" for its value only (as valueAside). */
sym::Condition FunctionBuilder::conditionAside(const clang::Expr* e) {
  ir::Block scratch;
  ir::Block* saved = current_;
  current_ = &scratch;
  auto env = env_;
  sym::Condition c = condition(e);
  env_ = std::move(env);
  current_ = saved;
  return c;
}

/* The locals "body" hands from one iteration to the next whose values simulate can compute
   (ir::Recurrence): integers known before the loop whose value at the end of the body is a
   formula of their own value at the top, the iterator and loads (`cur = nodes[cur].next`,
   `prev = at`). Loads must not be of memory the body writes or a call may write: the formula is
   evaluated at the end of the iteration, after those writes. A continue or a label gives the next
   iteration other values. "before": the values before the loop; "top": at the top of an iteration. */
void FunctionBuilder::followRecurrences(ir::Loop& loop, const VarMap<Value>& before,
                                        const VarMap<Value>& top, const clang::Stmt* body) {
  if (skipsRestOfBody(body)) return;
  std::set<std::string> written;
  bool calls = false;
  forEachBlock(loop.body, [&](ir::Block& b) {
    for (const ir::Node& n : b) {
      if (const auto* a = std::get_if<ir::Access>(&n.value); a && a->mode == ir::AccessMode::Write) written.insert(containerSymbol(a->container).get_name());
      calls = calls || std::holds_alternative<ir::Call>(n.value);
    }
  });
  for (const sym::Symbol& variable : loop.varying) {
    if (state_.ctx.kindOf(variable) != sym::SymbolKind::Unknown) continue;  // the iterator
    auto at = std::find_if(top.begin(), top.end(), [&](const auto& entry) {
      return entry.second.kind == Value::Kind::Scalar && entry.second.scalar.is_equal(variable);
    });
    if (at == top.end()) continue;
    auto was = before.find(at->first);
    auto now = env_.find(at->first);
    if (was == before.end() || was->second.kind != Value::Kind::Scalar || sym::containsUnknown(was->second.scalar, state_.ctx)) continue;
    if (now == env_.end() || now->second.kind != Value::Kind::Scalar) continue;
    const sym::Expr& next = now->second.scalar;
    auto unknowns = sym::symbolsOfKind(next, state_.ctx, sym::SymbolKind::Unknown);
    if (std::any_of(unknowns.begin(), unknowns.end(), [&](const sym::Symbol& u) { return !u.is_equal(variable); })) continue;
    auto loaded = sym::containersIn(next);
    if (!loaded.empty() && (calls || std::any_of(loaded.begin(), loaded.end(), [&](const std::string& c) { return written.count(c) > 0; }))) continue;
    loop.recurrences.push_back(ir::Recurrence{variable, was->second.scalar, next});
  }
}

/* Keeps "test" as the loop's condition (ir::Loop::test) when what it reads, but for the
   recurrences, is known and it moves with them or the iterator: simulate then runs the loop
   until it fails. Not with an early exit: a test that never fails would run forever. */
void FunctionBuilder::keepTest(ir::Loop& loop, const sym::Condition& test, bool afterBody) {
  if (test.op == sym::ConditionOp::True || test.isOpaque() || loop.hasEarlyExit) return;
  std::set<std::string> unknowns, iterators;
  test.forEachSide([&](const sym::Expr& side) {
    for (const sym::Symbol& u : sym::symbolsOfKind(side, state_.ctx, sym::SymbolKind::Unknown)) unknowns.insert(u.get_name());
    for (const sym::Symbol& i : sym::symbolsOfKind(side, state_.ctx, sym::SymbolKind::Iterator)) iterators.insert(i.get_name());
  });
  bool moves = loop.iterator && iterators.count(loop.iterator->get_name()) > 0;
  for (const ir::Recurrence& r : loop.recurrences) moves |= unknowns.erase(r.variable.get_name()) > 0;
  if (!unknowns.empty() || !moves) return;
  loop.test = test;
  loop.testAfterBody = afterBody;
}

/* Drops the recurrences nothing in the loop needs: no address, stored integer, bound of a loop
   inside, allocation size or the test holds them (a reduction `s += a[i]`): computing them
   would only keep `a`'s values and cost the fast paths. */
void FunctionBuilder::dropUnusedRecurrences(ir::Loop& loop) {
  if (loop.recurrences.empty()) return;
  std::vector<sym::Expr> uses;
  loop.test.forEachSide([&](const sym::Expr& side) { uses.push_back(side); });
  forEachBlock(loop.body, [&](ir::Block& b) {
    for (const ir::Node& n : b) {
      if (const auto* a = std::get_if<ir::Access>(&n.value)) {
        uses.push_back(a->offset);
        if (a->storedFormula) uses.push_back(*a->storedFormula);
      } else if (const auto* inner = std::get_if<ir::Loop>(&n.value)) {
        uses.insert(uses.end(), {inner->start, inner->bound, inner->step});
        for (const ir::Recurrence& r : inner->recurrences) uses.push_back(r.start);
      } else if (const auto* alloc = std::get_if<ir::Alloc>(&n.value)) {
        uses.push_back(alloc->sizeBytes);
      }
    }
  });
  auto unused = [&](const ir::Recurrence& r) {
    return std::none_of(uses.begin(), uses.end(), [&](const sym::Expr& e) { return e.has(r.variable); });
  };
  loop.recurrences.erase(std::remove_if(loop.recurrences.begin(), loop.recurrences.end(), unused), loop.recurrences.end());
}

/* "if (exit) break;" opening the body of an endless loop (for (;;), while (1), do ... while (1)):
   its negation is the loop's test, at the top of each iteration. */
static const clang::IfStmt* leadingExit(const LoopShape& shape, clang::ASTContext& ast) {
  clang::Expr::EvalResult r;
  if (shape.cond && (shape.cond->isValueDependent() || !shape.cond->EvaluateAsInt(r, ast) || r.Val.getInt() == 0)) return nullptr;
  const auto* body = dyn_cast_or_null<clang::CompoundStmt>(shape.body);
  if (!body || body->body_empty()) return nullptr;
  const auto* i = dyn_cast<clang::IfStmt>(body->body_front());
  if (!i || i->getElse() || i->getInit() || i->getConditionVariable()) return nullptr;
  const clang::Stmt* then = i->getThen();
  if (const auto* block = dyn_cast<clang::CompoundStmt>(then); block && block->size() == 1) then = block->body_front();
  return clang::isa<clang::BreakStmt>(then) ? i : nullptr;
}

/* The reasons, by variable, why changed locals of a loop are not induction variables. */
static VarMap<std::string> rejectionReasons(const InductionScan& scan, const ProgramState& state) {
  VarMap<std::string> out;
  for (const auto& [var, why] : scan.rejected) out[var] = why.second + " at " + state.location(why.first->getBeginLoc()).str();
  return out;
}

void FunctionBuilder::loop(const LoopShape& shape) {
  InductionScan scan = scanInductions(shape.cond, shape.body, shape.inc, ast_, [this](const clang::CallExpr* c) { return valueOfArgumentsOnly(c); });
  auto reasons = rejectionReasons(scan, state_);
  std::vector<Walk> walks;
  for (const Induction& ind : scan.inductions) {
    const clang::VarDecl* var = ind.update.var;
    std::string name = var->getNameAsString();
    auto found = env_.find(var);
    // A copy: valueAside and pointeeBytes below evaluate expressions and may rebuild env_.
    std::optional<Value> start = found == env_.end() ? std::nullopt : std::optional<Value>(found->second);
    bool pointer = start && start->kind == Value::Kind::Pointer;
    if (!start || (!pointer && start->kind != Value::Kind::Scalar)) {
      reasons[var] = "the value of " + name + " before the loop is not followed";
      continue;
    }
    Value amount = ind.update.amount ? valueAside(ind.update.amount) : Value::ofScalar(1);
    if (!ind.through.empty() && amount.kind == Value::Kind::Scalar) {
      if (ind.update.amount && variesIn(ind.update.amount, scan.changed, ast_, true, scan.knownCall)) {
        reasons[var] = name + " changes in an inner loop by an amount that varies in this loop";
        continue;
      }
      auto trips = tripsThrough(ind.through, scan);
      if (!trips) {
        reasons[var] = name + " changes in an inner loop whose trip count varies in this loop or is not followed";
        continue;
      }
      amount = Value::ofScalar((amount.scalar * *trips).expand());
    }
    if (amount.kind != Value::Kind::Scalar) {
      reasons[var] = name + " changes by an amount the analysis cannot follow";
      continue;
    }
    sym::Expr unit = pointer ? pointeeBytes(var->getType()) : sym::Expr(1);
    walks.push_back(Walk{&ind, pointer, pointer ? start->pointer.offset : start->scalar, ind.update.sign * amount.scalar * unit, unit,
                         start->pointer.container});
  }
  const clang::IfStmt* exitIf = leadingExit(shape, ast_);
  auto test = exitIf ? matchExitWhen(exitIf->getCond(), scan, ast_) : matchExitTest(shape.cond, scan, ast_);
  const Walk* control = nullptr;
  for (const Walk& w : walks)
    if (test && w.induction == test->induction) control = &w;
  if (walks.empty()) {
    std::string why = scan.rejected.empty() ? "no variable changes by a fixed amount every iteration" : reasons.begin()->second;
    return opaqueLoop(shape.stmt, shape.cond, shape.body, shape.kind + ": " + why);
  }
  if (!control || !exitIf) return countedLoop(shape, walks, control ? &*test : nullptr, reasons);
  LoopShape counted = shape;
  counted.cond = exitIf->getCond();
  counted.testAfterBody = false;
  const clang::Stmt* savedSkip = std::exchange(skip_, exitIf);
  countedLoop(counted, walks, &*test, reasons);
  skip_ = savedSkip;
}

/* Iterations of the innermost of "loops" (each at the top level of the one before, the first at
   the top level of the loop "outer" scanned) per iteration of that loop: the product of their trip
   counts, when each is a counted for loop whose start, bound and step are invariant in "outer"
   and in the loops around it. */
std::optional<sym::Expr> FunctionBuilder::tripsThrough(const std::vector<const clang::Stmt*>& loops, const InductionScan& outer) {
  VarSet changed = outer.changed;
  sym::Expr trips = 1;
  for (const clang::Stmt* s : loops) {
    auto counted = countedFor(s, ast_, outer.knownCall);
    if (!counted) return std::nullopt;
    for (const clang::Expr* e : {counted->start, counted->bound, counted->step})
      if (e && variesIn(e, changed, ast_, true, outer.knownCall)) return std::nullopt;
    Value start = valueAside(counted->start);
    Value bound = counted->bound ? valueAside(counted->bound) : Value::ofScalar(0);
    Value step = counted->step ? valueAside(counted->step) : Value::ofScalar(1);
    for (const Value* v : {&start, &bound, &step})
      if (v->kind != Value::Kind::Scalar || sym::containsUnknown(v->scalar, state_.ctx)) return std::nullopt;
    ir::Loop shape;
    shape.start = start.scalar;
    shape.bound = bound.scalar;
    shape.step = (counted->sign * step.scalar).expand();
    shape.comparison = counted->comparison;
    if (shape.step.is_zero()) return std::nullopt;
    trips = trips * sym::maxOf(0, shape.tripCount());
    changed.insert(counted->changed.begin(), counted->changed.end());
  }
  return trips.expand();
}

/* Splits "from" into its accesses, those of branch arms included ("a && b[i]": every test
   that runs, approximately), and the rest. */
static void keepAccesses(ir::Block& from, ir::Block& accesses, ir::Block& rest) {
  for (ir::Node& n : from) {
    if (std::holds_alternative<ir::Access>(n.value)) accesses.push_back(std::move(n));
    else if (auto* b = std::get_if<ir::Branch>(&n.value); b && !b->isConditionalExpression)
      for (ir::Arm& arm : b->arms) keepAccesses(arm.body, accesses, rest);
    else rest.push_back(std::move(n));
  }
}

/* Lowers the loop condition into the header; calls (and branches holding them) cannot stay
   there (the tracer takes only accesses from a header), so they move to the start of the body
   for a test before the body, to its end for a test after it. */
void FunctionBuilder::lowerCondition(ir::Loop& loop, const clang::Expr* cond, bool beforeBody) {
  if (!cond) return;
  ir::Block header;
  ir::Block* saved = current_;
  current_ = &header;
  eval(cond);
  current_ = saved;
  ir::Block moved;
  keepAccesses(header, loop.header, moved);
  if (moved.empty()) return;
  state_.diagnose(ir::Severity::Note, cond->getBeginLoc(),
                  "calls (and ?: with accesses) in the condition of the loop at " + loop.loc.str() + " are traced once per iteration " +
                      (beforeBody ? "at the start" : "at the end") + " of the body: one call fewer than the program makes (the last, failing test)");
  loop.body.insert(beforeBody ? loop.body.begin() : loop.body.end(), std::make_move_iterator(moved.begin()), std::make_move_iterator(moved.end()));
}

/* The bound of the exit test in the units of the loop's iterator (elements for a pointer). */
sym::Expr FunctionBuilder::boundOf(const ExitTest& test, const Walk& control, const ir::SourceLoc& where) {
  Value b = test.bound ? valueAside(test.bound) : Value::ofScalar(0);
  if (control.pointer && b.kind == Value::Kind::Pointer && b.pointer.container == control.container) return (b.pointer.offset / control.unit).expand();
  if (!control.pointer && b.kind == Value::Kind::Scalar) return b.scalar;
  std::string what = test.bound ? sourceText(test.bound) : "0";
  return freshUnknown("bound", "bound " + what + " of the loop at " + where.str() + (control.pointer ? " is not a pointer into the same memory" : " is not followed"));
}

std::string FunctionBuilder::exitText(const std::string& kind, const clang::Stmt* s) const {
  std::string at = " at " + loc(s->getBeginLoc()).str();
  return guards_.empty() ? kind + at : kind + " when " + guards_.back() + at;
}

void FunctionBuilder::countedLoop(const LoopShape& shape, const std::vector<Walk>& walks, const ExitTest* test,
                                  const VarMap<std::string>& reasons) {
  VarSet declaredBefore;
  for (const auto& entry : env_) declaredBefore.insert(entry.first);
  ir::Loop loop;
  loop.loc = loc(shape.stmt->getBeginLoc());
  loop.parallel = shape.parallel;
  const Walk* control = nullptr;
  for (const Walk& w : walks)
    if (test && w.induction == test->induction) control = &w;
  std::string noCount = "its exit test compares no induction variable with a loop-invariant bound";
  if (control && (control->unit.is_zero() || control->perIteration.is_zero())) {
    // `j += !2`: the variable the exit test reads does not move, so there is nothing to count
    // (and no division by a zero step).
    noCount = "its induction variable " + control->induction->update.var->getNameAsString() + " does not change (a step of 0)";
    control = nullptr;
  }
  std::string name = control ? control->induction->update.var->getNameAsString() : "iter";
  sym::Symbol iterator = state_.ctx.symbol(name, sym::SymbolKind::Iterator);
  loop.iterator = iterator;
  loop.iteratorName = iterator.get_name();
  sym::Expr done = iterator;
  if (control) {
    loop.start = (control->start / control->unit).expand();
    loop.step = (control->perIteration / control->unit).expand();
    done = (iterator - loop.start) / loop.step;
    sym::Expr bound = boundOf(*test, *control, loop.loc);
    bool testSeesUpdate = test->updatedBeforeTest || (shape.testAfterBody && control->induction->where == Induction::Where::Body);
    sym::Expr shift = testSeesUpdate ? loop.step : sym::Expr(0);
    loop.bound = (shape.testAfterBody ? bound + loop.step - shift : bound - shift).expand();
    loop.comparison = test->comparison;
  } else {
    loop.bound = freshUnknown("trips", "trip count of the " + shape.kind + " at " + loop.loc.str() + ": " + noCount);
  }
  VarSet inductive;
  VarMap<sym::Expr> top;
  for (const Walk& w : walks) {
    const clang::VarDecl* var = w.induction->update.var;
    inductive.insert(var);
    top[var] = (w.start + w.perIteration * done).expand();
    if (w.pointer) env_[var].pointer.moveTo(top[var]);
    else env_[var] = Value::ofScalar(top[var]);
  }
  loop.carried = carriedScalars(shape.cond, shape.body, shape.inc, inductive, ast_);
  const auto before = env_;
  loop.varying = forgetAssignedIn({shape.cond, shape.body, shape.inc}, inductive, loop.loc, reasons);
  loop.varying.insert(loop.varying.begin(), iterator);
  const auto atTop = env_;
  // A do-while's test is written in the values at the top of the next iteration: only without side effects is that the same.
  const bool testable = !control && shape.cond && (!shape.testAfterBody || !shape.cond->HasSideEffects(ast_));
  sym::Condition whileTest = testable ? conditionAside(shape.cond) : sym::Condition{};

  ir::Block* saved = current_;
  std::vector<std::string> exits;
  {
    LoopBodyScope body(*this);
    if (!shape.testAfterBody) lowerCondition(loop, shape.cond, true);
    current_ = &loop.body;
    statement(shape.body);
    if (shape.inc) eval(shape.inc);
    if (shape.testAfterBody) lowerCondition(loop, shape.cond, false);
    current_ = saved;
    if (test)
      for (const clang::Expr* other : test->otherConjuncts) exits_.push_back("when !(" + sourceText(other) + ") at " + loc(other->getBeginLoc()).str());
    loop.hasEarlyExit = !exits_.empty();
    exits = std::move(exits_);
  }
  followRecurrences(loop, before, atTop, shape.body);
  keepTest(loop, whileTest, shape.testAfterBody);
  dropUnusedRecurrences(loop);

  std::optional<sym::Expr> exitCount;
  if (control && !loop.hasEarlyExit && !shape.testAfterBody && !sym::containsUnknown(loop.tripCount(), state_.ctx))
    exitCount = sym::maxOf(0, loop.tripCount());
  std::string names;
  for (const Walk& w : walks) {
    const clang::VarDecl* var = w.induction->update.var;
    names += (names.empty() ? "" : ", ") + var->getNameAsString();
    const Value& now = env_[var];
    sym::Expr expected = (top[var] + w.perIteration).expand();
    bool holds = w.pointer ? now.kind == Value::Kind::Pointer && (now.pointer.offset - expected).expand().is_zero()
                           : now.kind == Value::Kind::Scalar && (now.scalar - expected).expand().is_zero();
    if (!holds)
      warn(w.induction->update.at->getBeginLoc(), "induction variable " + var->getNameAsString() +
                                                      " does not advance by its step in every iteration as modelled; the result is approximate");
    // After a loop that runs its count (no early exit, a test before the body), the variable
    // holds its start plus its step times that count: `nnz` after `for (b ...) nnz++`.
    if (holds && exitCount) {
      sym::Expr exit = (w.start + w.perIteration * *exitCount).expand();
      if (w.pointer) env_[var].pointer.moveTo(exit);
      else env_[var] = Value::ofScalar(exit);
      continue;
    }
    std::string after = var->getNameAsString() + " after the loop at " + loop.loc.str();
    if (w.pointer) env_[var].pointer.moveTo(freshUnknown("offset_" + var->getNameAsString(), after));
    else env_[var] = Value::ofScalar(freshUnknown(var->getNameAsString(), after));
  }
  forgetIteratorAfter(loop, declaredBefore);
  if (!control)
    warn(shape.stmt->getBeginLoc(), shape.kind + ": its exit test compares no induction variable with a loop-invariant bound: the trip count is unknown "
                                    "(induction variables followed: " + names + "); the result is approximate");
  if (loop.hasEarlyExit) {
    std::string list;
    for (const std::string& e : exits) list += (list.empty() ? "" : "; ") + e;
    warn(shape.stmt->getBeginLoc(), "loop has an early exit (break, return or goto): its trip count is an upper bound; the result is approximate" +
                                        (list.empty() ? std::string() : " (exits " + list + ")"));
  }
  append(ir::Node{std::move(loop)});
}

/* A variable declared before the loop that the body left holding a value of the iterator (`prev = f(i)`) has no such value
   after the loop, where the iterator does not exist: it becomes an unknown. */
void FunctionBuilder::forgetIteratorAfter(const ir::Loop& loop, const VarSet& declaredBefore) {
  if (!loop.iterator) return;
  for (auto& [var, value] : env_) {
    if (!declaredBefore.count(var)) continue;  // declared in the loop: out of scope after it
    std::string why = var->getNameAsString() + " after the loop at " + loop.loc.str() + " (its value follows the loop's iterator)";
    if (value.kind == Value::Kind::Scalar && value.scalar.has(*loop.iterator)) value = Value::ofScalar(freshUnknown(var->getNameAsString(), why));
    else if (value.kind == Value::Kind::Pointer && value.pointer.offset.has(*loop.iterator))
      value.pointer.moveTo(freshUnknown("offset_" + var->getNameAsString(), why));
  }
}

void FunctionBuilder::opaqueLoop(const clang::Stmt* s, const clang::Expr* cond, const clang::Stmt* body, const std::string& reason) {
  ir::Loop loop;
  loop.loc = loc(s->getBeginLoc());
  loop.opaqueReason = reason;
  warn(s->getBeginLoc(), reason + ": traced as an opaque loop with an unknown trip count");
  const auto before = env_;
  loop.varying = forgetAssignedIn({s}, {}, loop.loc);
  const auto top = env_;
  ir::Block* saved = current_;
  bool testAfterBody = clang::isa<clang::DoStmt>(s);
  sym::Condition test = cond && (!testAfterBody || !cond->HasSideEffects(ast_)) ? conditionAside(cond) : sym::Condition{};
  if (!testAfterBody) lowerCondition(loop, cond, true);
  current_ = &loop.body;
  {
    LoopBodyScope scope(*this);
    statement(body);
    if (const auto* f = dyn_cast<clang::ForStmt>(s); f && f->getInc()) eval(f->getInc());
    if (testAfterBody) lowerCondition(loop, cond, false);
    loop.hasEarlyExit = !exits_.empty();
  }
  current_ = saved;
  followRecurrences(loop, before, top, body);
  keepTest(loop, test, testAfterBody);
  dropUnusedRecurrences(loop);
  append(ir::Node{std::move(loop)});
}

}  // namespace cats::frontend
