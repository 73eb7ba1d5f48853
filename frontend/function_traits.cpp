// What a compiler's inliner looks at, read off the declaration: linkage, inline hints, attributes
// and a size (sim/compiler decides inlining from these, as GCC and Clang do from theirs).
#include "clang_compat.hpp"  // first: see the header
#include "function_builder.hpp"

#include <cstdint>
#include <optional>
#include <set>

namespace cats::frontend {

namespace {

/// Nodes that are no code of their own: casts the compiler inserts, parentheses, blocks, names.
bool isStructural(const clang::Stmt* s) { return clang::isa<clang::ImplicitCastExpr, clang::ParenExpr, clang::CompoundStmt, clang::DeclRefExpr>(s); }

/// Counts statements and expressions, implicit casts excluded: a rough stand-in for the
/// compiler's own size estimate (GCC's "insns", Clang's inline cost), which both grow with it.
class SizeCounter : public clang::RecursiveASTVisitor<SizeCounter> {
 public:
  std::size_t count = 0;
  bool VisitStmt(clang::Stmt* s) {
    if (!isStructural(s)) ++count;
    return true;
  }
};

/// Counts the operations of a body as an optimiser leaves it before its callers' inliner looks
/// (Clang simplifies every callee first): a subexpression written several times is computed once
/// (CSE), constants cost nothing, and a loop with a small constant trip count is unrolled.
class OperationCounter {
 public:
  explicit OperationCounter(const clang::ASTContext& context) : context_(context) {}

  /// Operations of s; "seen" holds the side-effect-free subexpressions already computed.
  std::size_t count(const clang::Stmt* s, std::set<llvm::FoldingSetNodeID>& seen) {
    if (!s) return 0;
    if (const auto* loop = clang::dyn_cast<clang::ForStmt>(s))
      if (std::optional<std::size_t> unrolled = unrolledSize(*loop, seen)) return *unrolled;
    bool costs = !isStructural(s) && !clang::isa<clang::IntegerLiteral, clang::FloatingLiteral, clang::CharacterLiteral>(s);
    if (unrolling_ > 0 && costs) costs = survivesUnrolling(*s);
    if (const auto* e = clang::dyn_cast<clang::Expr>(s); e && costs && !e->HasSideEffects(context_)) {
      llvm::FoldingSetNodeID id;
      s->Profile(id, context_, /*Canonical=*/true);
      if (!seen.insert(id).second) return 0;  // the whole subexpression is already in a register
    }
    std::size_t n = costs ? 1 : 0;
    for (const clang::Stmt* child : s->children()) n += count(child, seen);
    return n;
  }

 private:
  // LLVM 14's full unroll at -O2 (LoopUnrollPass): unrolled when (size - 2) * trips + 2 stays
  // under 150, the loop's size being one copy of its body and its control (counter, compare,
  // branch, address step; fitted on the fidelity corpus, docs/register-model.md).
  static constexpr std::size_t kLoopControl = 4;
  static constexpr std::size_t kUnrollThreshold = 150;
  static constexpr std::int64_t kMaxUnrollTrips = 64;
  static constexpr int kMaxUnrolledNest = 2;

  /// The body counted once per iteration, when the loop is small enough to be fully unrolled.
  std::optional<std::size_t> unrolledSize(const clang::ForStmt& loop, const std::set<llvm::FoldingSetNodeID>& seen) {
    std::optional<std::int64_t> trips = constantTrips(loop);
    // Nests deeper than that are not tried: each level counts its body twice (unrolled or not).
    if (unrolling_ >= kMaxUnrolledNest || !trips || isMemoryIdiom(loop.getBody())) return std::nullopt;
    // A nested loop's body lies in the outer body, whose locals are collected already.
    if (unrolling_ == 0) {
      bodyLocals_.clear();
      collectLocals(loop.getBody());
    }
    ++unrolling_;
    std::set<llvm::FoldingSetNodeID> copy = seen;
    std::size_t perCopy = count(loop.getBody(), copy);
    --unrolling_;
    auto t = static_cast<std::size_t>(*trips);
    if ((perCopy + kLoopControl - 2) * t + 2 > kUnrollThreshold) return std::nullopt;
    return perCopy * t;
  }

  /// `for (int i = a; i < b; i++)` (or `<=`, `++i`, `i += 1`) with a and b integer constants.
  std::optional<std::int64_t> constantTrips(const clang::ForStmt& loop) const {
    const auto* init = clang::dyn_cast_or_null<clang::DeclStmt>(loop.getInit());
    const auto* cond = clang::dyn_cast_or_null<clang::BinaryOperator>(loop.getCond());
    if (!init || !init->isSingleDecl() || !cond || !stepsByOne(loop.getInc())) return std::nullopt;
    const auto* var = clang::dyn_cast<clang::VarDecl>(init->getSingleDecl());
    const auto* lhs = clang::dyn_cast<clang::DeclRefExpr>(cond->getLHS()->IgnoreParenImpCasts());
    if (!var || !var->getInit() || !lhs || lhs->getDecl() != var) return std::nullopt;
    std::optional<std::int64_t> start = constant(var->getInit()), bound = constant(cond->getRHS());
    if (!start || !bound) return std::nullopt;
    std::int64_t trips = 0;
    if (cond->getOpcode() == clang::BO_LT) trips = *bound - *start;
    else if (cond->getOpcode() == clang::BO_LE) trips = *bound - *start + 1;
    if (trips <= 0 || trips > kMaxUnrollTrips) return std::nullopt;
    return trips;
  }

  /// In an unrolled copy the counter is a constant: integer arithmetic folds into addresses or
  /// is invariant (computed once), rows of arrays are addresses; loads, stores, calls and
  /// floating-point arithmetic remain.
  bool survivesUnrolling(const clang::Stmt& s) const {
    const auto* e = clang::dyn_cast<clang::Expr>(&s);
    if (!e || e->HasSideEffects(context_)) return true;  // control flow, stores, increments, calls
    const auto* deref = clang::dyn_cast<clang::UnaryOperator>(e);
    if (clang::isa<clang::ArraySubscriptExpr, clang::MemberExpr>(e) || (deref && deref->getOpcode() == clang::UO_Deref))
      return !e->getType()->isArrayType();  // an element is loaded; a row is only an address
    if (!e->getType()->isIntegerType() && !e->getType()->isPointerType()) return true;
    return usesLocal(e);  // index arithmetic of an inner loop still runs; the rest folds or is hoisted
  }

  /// The variables declared inside an unrolled body (its inner loops' counters among them).
  void collectLocals(const clang::Stmt* s) {
    if (!s) return;
    if (const auto* decl = clang::dyn_cast<clang::DeclStmt>(s))
      for (const clang::Decl* d : decl->decls())
        if (const auto* var = clang::dyn_cast<clang::VarDecl>(d)) bodyLocals_.insert(var);
    for (const clang::Stmt* child : s->children()) collectLocals(child);
  }

  bool usesLocal(const clang::Stmt* s) const {
    if (!s) return false;
    if (const auto* ref = clang::dyn_cast<clang::DeclRefExpr>(s))
      if (const auto* var = clang::dyn_cast<clang::VarDecl>(ref->getDecl()); var && bodyLocals_.count(var)) return true;
    for (const clang::Stmt* child : s->children())
      if (usesLocal(child)) return true;
    return false;
  }

  /// A body that only stores a constant or a loaded value: the loop becomes memset/memcpy first
  /// (LoopIdiomRecognize runs before the unroller).
  bool isMemoryIdiom(const clang::Stmt* body) const {
    if (const auto* block = clang::dyn_cast_or_null<clang::CompoundStmt>(body); block && block->size() == 1) body = block->body_front();
    const auto* store = clang::dyn_cast_or_null<clang::BinaryOperator>(body);
    if (!store || store->getOpcode() != clang::BO_Assign) return false;
    const clang::Expr* value = store->getRHS()->IgnoreParenImpCasts();
    return clang::isa<clang::ArraySubscriptExpr>(value) || (!value->isValueDependent() && value->isEvaluatable(context_));
  }

  static bool stepsByOne(const clang::Expr* inc) {
    if (const auto* u = clang::dyn_cast_or_null<clang::UnaryOperator>(inc)) return u->isIncrementOp();
    const auto* add = clang::dyn_cast_or_null<clang::CompoundAssignOperator>(inc);
    const auto* one = add ? clang::dyn_cast<clang::IntegerLiteral>(add->getRHS()->IgnoreParenImpCasts()) : nullptr;
    return add && add->getOpcode() == clang::BO_AddAssign && one && one->getValue() == 1;
  }

  std::optional<std::int64_t> constant(const clang::Expr* e) const {
    clang::Expr::EvalResult value;
    if (!e || e->isValueDependent() || !e->EvaluateAsInt(value, context_)) return std::nullopt;
    return value.Val.getInt().getExtValue();
  }

  const clang::ASTContext& context_;
  int unrolling_ = 0;          // depth of unrolled copies being counted
  VarSet bodyLocals_;  // declared inside the outermost loop being unrolled
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
    std::set<llvm::FoldingSetNodeID> seen;
    traits.operations = OperationCounter(decl.getASTContext()).count(decl.getBody(), seen);
  }
  return traits;
}

}  // namespace cats::frontend
