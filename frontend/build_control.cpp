// Control flow beyond if and loops: the statements of a block with forward gotos (the code a
// jump skips is a branch arm under the negated condition) and backward gotos (an opaque
// loop), and switch statements with fall-through (an arm runs from its label to a break).
#include "clang_compat.hpp"  // first: see the header
#include "function_builder.hpp"

namespace cats::frontend {

using clang::dyn_cast;
using clang::isa;

namespace {

/* The label "s" jumps to, for "goto L;" and "if (c) goto L;" (no else; "cond" gets c). */
const clang::LabelDecl* jumpOf(const clang::Stmt* s, const clang::Expr*& cond) {
  cond = nullptr;
  if (const auto* g = dyn_cast<clang::GotoStmt>(s)) return g->getLabel();
  const auto* i = dyn_cast<clang::IfStmt>(s);
  if (!i || i->getElse() || i->getInit() || i->getConditionVariable()) return nullptr;
  const clang::Stmt* then = i->getThen();
  if (const auto* block = dyn_cast<clang::CompoundStmt>(then); block && block->size() == 1) then = block->body_front();
  const auto* g = dyn_cast<clang::GotoStmt>(then);
  if (!g) return nullptr;
  cond = i->getCond();
  return g->getLabel();
}

/* True if "s" carries the label "label" (possibly among several). */
bool labelled(const clang::Stmt* s, const clang::LabelDecl* label) {
  for (const auto* l = dyn_cast<clang::LabelStmt>(s); l; l = dyn_cast<clang::LabelStmt>(l->getSubStmt()))
    if (l->getDecl() == label) return true;
  return false;
}

/* The statement under any labels and case labels of "s". */
const clang::Stmt* unlabelled(const clang::Stmt* s) {
  while (true) {
    if (const auto* l = dyn_cast<clang::LabelStmt>(s)) s = l->getSubStmt();
    else if (const auto* c = dyn_cast<clang::SwitchCase>(s)) s = c->getSubStmt();
    else return s;
  }
}

/// A break of the switch that is not a statement of its own in the switch body (under an if).
class NestedBreak : public clang::RecursiveASTVisitor<NestedBreak> {
 public:
  const clang::Stmt* found = nullptr;
  bool TraverseForStmt(clang::ForStmt*) { return true; }
  bool TraverseWhileStmt(clang::WhileStmt*) { return true; }
  bool TraverseDoStmt(clang::DoStmt*) { return true; }
  bool TraverseSwitchStmt(clang::SwitchStmt*) { return true; }
  bool VisitBreakStmt(clang::BreakStmt* s) {
    found = found ? found : s;
    return true;
  }
};

}  // namespace

void FunctionBuilder::compound(const clang::CompoundStmt* s) {
  std::vector<ir::ContainerRef> scoped;
  auto arraysBefore = arrays_;
  auto slotsBefore = slots_;
  auto noteScoped = [&] {
    for (const auto* declared : {&arrays_, &slots_})
      for (const auto& [var, ref] : *declared)
        if (!arraysBefore.count(var) && !slotsBefore.count(var) && std::find(scoped.begin(), scoped.end(), ref) == scoped.end() &&
            ref.scope == ir::ContainerRef::Scope::Local)
          scoped.push_back(ref);
  };
  std::vector<const clang::Stmt*> list(s->body_begin(), s->body_end());
  statementRange(list, 0, list.size(), noteScoped);
  for (auto it = scoped.rbegin(); it != scoped.rend(); ++it) append(ir::Node{ir::Free{*it, loc(s->getRBracLoc())}});
  arrays_ = arraysBefore;
  slots_ = slotsBefore;
}

/* Lowers list[from, to), turning jumps to labels inside the range into branches and loops. */
void FunctionBuilder::statementRange(const std::vector<const clang::Stmt*>& list, std::size_t from, std::size_t to,
                                     const std::function<void()>& afterEach) {
  for (std::size_t k = from; k < to; ++k) {
    const clang::Expr* cond = nullptr;
    if (const clang::LabelDecl* target = jumpOf(list[k], cond)) {
      std::size_t j = k + 1;
      while (j < to && !labelled(list[j], target)) ++j;
      if (j < to && !cond) {  // goto L: the code up to L never runs
        k = j - 1;
        continue;
      }
      if (j < to) {
        forwardJump(cond, list, k + 1, j, afterEach);
        k = j - 1;
        continue;
      }
    }
    if (const auto* label = dyn_cast<clang::LabelStmt>(list[k])) {
      std::size_t m = k + 1;
      const clang::Expr* back = nullptr;
      while (m < to && jumpOf(list[m], back) != label->getDecl()) ++m;
      if (m < to) {
        gotoLoop(list, k, m, back);
        afterEach();
        k = m;
        continue;
      }
    }
    statement(list[k]);
    afterEach();
  }
}

/* "if (cond) goto L;" followed by list[from, to) and L: the skipped code runs when !cond. */
void FunctionBuilder::forwardJump(const clang::Expr* cond, const std::vector<const clang::Stmt*>& list, std::size_t from, std::size_t to,
                                  const std::function<void()>& afterEach) {
  ir::Branch branch;
  branch.loc = loc(cond->getBeginLoc());
  sym::Condition c = condition(cond);
  auto before = env_;
  guards_.push_back("!(" + sourceText(cond) + ")");
  ir::Block body;
  ir::Block* saved = current_;
  current_ = &body;
  statementRange(list, from, to, afterEach);
  current_ = saved;
  guards_.pop_back();
  mergeEnvironments(before, {env_, before}, branch.loc);
  branch.arms.push_back(ir::Arm{"else", sym::Condition::negation(c), std::move(body)});
  append(ir::Node{std::move(branch)});
}

/* "L: list[from] ... list[to]" where list[to] is "goto L" or "if (cond) goto L": an opaque loop. */
void FunctionBuilder::gotoLoop(const std::vector<const clang::Stmt*>& list, std::size_t from, std::size_t to, const clang::Expr* cond) {
  const auto* label = dyn_cast<clang::LabelStmt>(list[from]);
  ir::Loop loop;
  loop.loc = loc(label->getBeginLoc());
  loop.opaqueReason = "backward goto to label '" + label->getDecl()->getNameAsString() + "'";
  warn(label->getBeginLoc(), loop.opaqueReason + ": traced as an opaque loop with an unknown trip count");
  loop.varying = forgetAssignedIn(std::vector<const clang::Stmt*>(list.begin() + static_cast<std::ptrdiff_t>(from), list.begin() + static_cast<std::ptrdiff_t>(to) + 1), {}, loop.loc);
  ir::Block* saved = current_;
  current_ = &loop.body;
  {
    LoopBodyScope scope(*this);
    statement(label->getSubStmt());
    statementRange(list, from + 1, to, [] {});
    lowerCondition(loop, cond, false);
    loop.hasEarlyExit = !exits_.empty();
  }
  current_ = saved;
  append(ir::Node{std::move(loop)});
}

void FunctionBuilder::switchStatement(const clang::SwitchStmt* s) {
  if (s->getInit()) statement(s->getInit());
  Value selector = eval(s->getCond());
  ir::Branch branch;
  branch.loc = loc(s->getBeginLoc());
  std::vector<const clang::Stmt*> list;
  if (const auto* body = dyn_cast<clang::CompoundStmt>(s->getBody())) list.assign(body->body_begin(), body->body_end());
  else list.push_back(s->getBody());
  auto before = env_;
  std::vector<VarMap<Value>> after;
  bool hasDefault = false;
  std::size_t lowered = 0, budget = 4 * list.size() + 16;  // statements traced over all arms: fall-through copies them
  ++switchDepth_;
  for (std::size_t k = 0; k < list.size(); ++k) {
    ir::Arm arm;
    bool opaque = false;
    std::vector<sym::Condition> labels;
    for (const auto* c = dyn_cast<clang::SwitchCase>(list[k]); c; c = dyn_cast<clang::SwitchCase>(c->getSubStmt())) {
      if (const auto* cs = dyn_cast<clang::CaseStmt>(c)) {
        Value value = eval(cs->getLHS());
        arm.label += (arm.label.empty() ? "case " : " | case ") + sourceText(cs->getLHS());
        opaque |= selector.kind != Value::Kind::Scalar || value.kind != Value::Kind::Scalar || cs->getRHS();
        if (!opaque) labels.push_back(sym::Condition::relation(sym::ConditionOp::Equal, selector.scalar, value.scalar));
      } else {
        arm.label += arm.label.empty() ? "default" : " | default";
        hasDefault = opaque = true;
      }
    }
    if (arm.label.empty()) continue;
    if (opaque) arm.condition = sym::Condition::opaque(arm.label + " of switch (" + sourceText(s->getCond()) + ")");
    else arm.condition = labels[0];
    for (std::size_t i = 1; !opaque && i < labels.size(); ++i)
      arm.condition = sym::Condition::conjunction(sym::ConditionOp::Or, arm.condition, labels[i]);
    env_ = before;
    ir::Block* saved = current_;
    current_ = &arm.body;
    for (std::size_t m = k; m < list.size(); ++m) {
      const clang::Stmt* st = unlabelled(list[m]);
      if (isa<clang::BreakStmt>(st)) break;
      if (m > k && isa<clang::SwitchCase>(list[m]) && lowered > budget) {
        warn(list[m]->getBeginLoc(), "fall-through into this label is not traced: the switch at " + branch.loc.str() +
                                         " falls through too often to copy every path; the result is approximate");
        break;
      }
      ++lowered;
      statement(st);
      if (isa<clang::ReturnStmt>(st) || isa<clang::ContinueStmt>(st) || isa<clang::GotoStmt>(st)) break;
    }
    current_ = saved;
    after.push_back(env_);
    branch.arms.push_back(std::move(arm));
  }
  --switchDepth_;
  if (!hasDefault) after.push_back(before);
  NestedBreak nested;
  for (const clang::Stmt* st : list)
    if (!isa<clang::BreakStmt>(unlabelled(st))) nested.TraverseStmt(const_cast<clang::Stmt*>(unlabelled(st)));
  if (nested.found)
    warn(nested.found->getBeginLoc(), "break under a condition in a switch case: the arm is traced as if it fell through to the next label; the result is approximate");
  mergeEnvironments(before, after, branch.loc);
  append(ir::Node{std::move(branch)});
}

}  // namespace cats::frontend
