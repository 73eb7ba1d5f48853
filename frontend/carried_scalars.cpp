// Which local scalars a loop hands from one iteration to the next, classified as GCC's and
// Clang's vectorisers classify loop-carried values (the "carried" facts of a loop,
// docs/register-model.md "Carried scalars"). The simulation does not trace local scalars (they
// are registers), so the vectoriser model needs these facts from here.
//
// The body is walked once in evaluation order. A variable read before the iteration has
// written it (unconditionally) is carried. Each value written is tagged with the carried
// variables it was computed from, also through a store and a later load of the same element
// (`c[i] = f(ym1); ym1 = c[i];`: the compilers forward the stored value, so the load does not
// break the cycle).
#include "clang_compat.hpp"  // first: see the header
#include "function_builder.hpp"

#include <llvm/ADT/FoldingSet.h>

#include <map>

namespace cats::frontend {

using clang::dyn_cast;

namespace {

using Deps = VarSet;

/// What the walk learnt about one variable.
struct VarFacts {
  bool carried = false;         // read before the iteration wrote it
  bool written = false;         // written unconditionally earlier in this iteration
  Deps value;                   // what the current value (when written) was computed from
  Deps assigned;                // what every value written to it was computed from
  int reductionWrites = 0;      // writes of the shape s = s op e
  int otherWrites = 0;          // any other write
  int otherReads = 0;           // reads outside its own reduction statements
};

class CarriedWalk {
 public:
  CarriedWalk(const clang::ASTContext& ast, const VarSet& excluded) : ast_(ast), excluded_(excluded) {}

  void statement(const clang::Stmt* s) {
    if (!s) return;
    if (const auto* e = dyn_cast<clang::Expr>(s)) {
      eval(e);
      return;
    }
    if (const auto* c = dyn_cast<clang::CompoundStmt>(s)) {
      for (const clang::Stmt* child : c->body()) statement(child);
      return;
    }
    if (const auto* d = dyn_cast<clang::DeclStmt>(s)) {
      for (const clang::Decl* decl : d->decls())
        if (const auto* var = dyn_cast<clang::VarDecl>(decl)) {
          declared_.insert(var);
          if (var->getInit()) eval(var->getInit());
        }
      return;
    }
    if (const auto* i = dyn_cast<clang::IfStmt>(s)) {
      statement(i->getInit());
      eval(i->getCond());
      conditional([&] {
        statement(i->getThen());
        statement(i->getElse());
      });
      return;
    }
    if (const auto* f = dyn_cast<clang::ForStmt>(s)) {
      statement(f->getInit());
      conditional([&] {
        for (int pass = 0; pass < 2; ++pass) {  // twice: the inner loop's second iteration reads what its first wrote
          eval(f->getCond());
          statement(f->getBody());
          eval(f->getInc());
        }
      });
      return;
    }
    conditional([&] {
      for (int pass = 0; pass < 2; ++pass)
        for (const clang::Stmt* child : s->children()) statement(child);
    });
  }

  /* The carried variables, classified, in declaration order. */
  std::vector<ir::CarriedScalar> result() const {
    VarSet carried;
    for (const auto& [var, f] : facts_)
      if (f.carried && f.reductionWrites + f.otherWrites > 0 && !declared_.count(var)) carried.insert(var);
    std::vector<std::pair<const clang::VarDecl*, ir::CarriedScalar>> out;
    for (const clang::VarDecl* var : carried) {
      const VarFacts& f = facts_.at(var);
      ir::CarriedScalar c;
      c.name = var->getNameAsString();
      bool fromCarried = std::any_of(f.assigned.begin(), f.assigned.end(), [&](const clang::VarDecl* d) { return carried.count(d) > 0; });
      if (f.otherWrites == 0 && f.otherReads == 0) c.kind = var->getType()->isRealFloatingType() ? ir::CarriedScalar::Kind::FloatReduction : ir::CarriedScalar::Kind::IntegerReduction;
      else c.kind = fromCarried ? ir::CarriedScalar::Kind::Recurrence : ir::CarriedScalar::Kind::FirstOrder;
      out.emplace_back(var, std::move(c));
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.first->getBeginLoc() < b.first->getBeginLoc(); });
    std::vector<ir::CarriedScalar> list;
    list.reserve(out.size());
    for (auto& [var, c] : out) list.push_back(std::move(c));
    return list;
  }

 private:
  const clang::ASTContext& ast_;
  const VarSet& excluded_;
  VarSet declared_;  // declared inside the loop: fresh every iteration
  VarMap<VarFacts> facts_;
  std::vector<std::pair<llvm::FoldingSetNodeID, Deps>> stores_;  // elements stored so far, with what their values came from
  int conditional_ = 0;

  template <class F>
  void conditional(F&& f) {
    ++conditional_;
    f();
    --conditional_;
  }

  /* "e" names a local arithmetic scalar this walk follows. */
  const clang::VarDecl* scalar(const clang::Expr* e) const {
    const auto* ref = e ? dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts()) : nullptr;
    const auto* var = ref ? dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    if (!var || !var->hasLocalStorage() || excluded_.count(var)) return nullptr;
    clang::QualType type = var->getType();
    return type->isIntegralOrEnumerationType() || type->isRealFloatingType() ? var : nullptr;
  }

  llvm::FoldingSetNodeID profile(const clang::Expr* e) const {
    llvm::FoldingSetNodeID id;
    e->IgnoreParenImpCasts()->Profile(id, ast_, true);
    return id;
  }

  /* A read of "var": its value now, as what it was computed from. */
  Deps read(const clang::VarDecl* var, bool inReduction) {
    VarFacts& f = facts_[var];
    if (!inReduction) ++f.otherReads;
    if (f.written) return f.value;
    f.carried = true;
    return {var};
  }

  void write(const clang::VarDecl* var, Deps value, bool reduction) {
    VarFacts& f = facts_[var];
    ++(reduction ? f.reductionWrites : f.otherWrites);
    f.assigned.insert(value.begin(), value.end());
    if (conditional_ > 0) {
      if (f.written) f.value.insert(value.begin(), value.end());
      return;
    }
    f.written = true;
    f.value = std::move(value);
  }

  static bool reductionOperator(clang::BinaryOperatorKind op) {
    using K = clang::BinaryOperatorKind;
    switch (op) {
      case K::BO_Add: case K::BO_Sub: case K::BO_Mul: case K::BO_And: case K::BO_Or: case K::BO_Xor:
      case K::BO_AddAssign: case K::BO_SubAssign: case K::BO_MulAssign: case K::BO_AndAssign: case K::BO_OrAssign: case K::BO_XorAssign:
        return true;
      default: return false;
    }
  }

  /* Whether "e" mentions "var" anywhere. */
  static bool mentions(const clang::Stmt* e, const clang::VarDecl* var) {
    if (!e) return false;
    if (const auto* ref = dyn_cast<clang::DeclRefExpr>(e); ref && ref->getDecl() == var) return true;
    for (const clang::Stmt* child : e->children())
      if (mentions(child, var)) return true;
    return false;
  }

  /* `var = rhs`, classified as a reduction step (`var = var op e`, `var = e + var`) or not. */
  void assign(const clang::VarDecl* var, const clang::Expr* rhs) {
    const auto* bin = dyn_cast<clang::BinaryOperator>(rhs->IgnoreParenImpCasts());
    if (bin && reductionOperator(bin->getOpcode())) {
      const clang::Expr* other = nullptr;
      if (scalar(bin->getLHS()) == var) other = bin->getRHS();
      else if (bin->getOpcode() != clang::BinaryOperatorKind::BO_Sub && scalar(bin->getRHS()) == var) other = bin->getLHS();
      if (other && !mentions(other, var)) {
        Deps value = read(var, true);
        Deps more = eval(other);
        value.insert(more.begin(), more.end());
        return write(var, std::move(value), true);
      }
    }
    write(var, eval(rhs), false);
  }

  /* A store to the element "lhs" of the value "value". */
  void store(const clang::Expr* lhs, Deps value) {
    evalAddress(lhs);
    stores_.emplace_back(profile(lhs), std::move(value));
  }

  /* The reads an lvalue's address makes (its subscripts), not the element itself. */
  void evalAddress(const clang::Expr* lhs) {
    for (const clang::Stmt* child : lhs->IgnoreParenImpCasts()->children())
      if (const auto* e = dyn_cast_or_null<clang::Expr>(child)) eval(e);
  }

  /* A load of the element "e": the value the iteration stored there, if it did. */
  Deps element(const clang::Expr* e) {
    evalAddress(e);
    llvm::FoldingSetNodeID id = profile(e);
    for (auto it = stores_.rbegin(); it != stores_.rend(); ++it)
      if (it->first == id) return it->second;
    return {};
  }

  Deps eval(const clang::Expr* e) {
    if (!e) return {};
    e = e->IgnoreParens();
    if (const auto* var = scalar(e); var && dyn_cast<clang::DeclRefExpr>(e)) return read(var, false);
    if (const auto* cast = dyn_cast<clang::ImplicitCastExpr>(e)) {
      const clang::Expr* sub = cast->getSubExpr()->IgnoreParens();
      if (cast->getCastKind() == clang::CK_LValueToRValue && (dyn_cast<clang::ArraySubscriptExpr>(sub) || dyn_cast<clang::UnaryOperator>(sub) ||
                                                              dyn_cast<clang::MemberExpr>(sub)) && !scalar(sub))
        return element(sub);
      return eval(sub);
    }
    if (const auto* op = dyn_cast<clang::CompoundAssignOperator>(e)) {
      const clang::VarDecl* var = scalar(op->getLHS());
      if (var && reductionOperator(op->getOpcode()) && !mentions(op->getRHS(), var)) {
        Deps value = read(var, true);
        Deps more = eval(op->getRHS());
        value.insert(more.begin(), more.end());
        write(var, std::move(value), true);
        return facts_[var].value;
      }
      Deps value = eval(op->getRHS());
      Deps old = var ? read(var, false) : element(op->getLHS());
      value.insert(old.begin(), old.end());
      if (var) write(var, value, false);
      else store(op->getLHS(), value);
      return value;
    }
    if (const auto* op = dyn_cast<clang::BinaryOperator>(e)) {
      if (op->getOpcode() == clang::BO_Assign) {
        if (const clang::VarDecl* var = scalar(op->getLHS())) {
          assign(var, op->getRHS());
          return facts_[var].value;
        }
        Deps value = eval(op->getRHS());
        store(op->getLHS(), value);
        return value;
      }
      if (op->isLogicalOp()) {
        Deps value = eval(op->getLHS());
        conditional([&] {
          Deps more = eval(op->getRHS());
          value.insert(more.begin(), more.end());
        });
        return value;
      }
    }
    if (const auto* op = dyn_cast<clang::UnaryOperator>(e); op && op->isIncrementDecrementOp()) {
      if (const clang::VarDecl* var = scalar(op->getSubExpr())) {
        Deps value = read(var, true);
        write(var, value, true);
        return value;
      }
      Deps value = element(op->getSubExpr());
      store(op->getSubExpr(), value);
      return value;
    }
    if (const auto* c = dyn_cast<clang::ConditionalOperator>(e)) {
      Deps value = eval(c->getCond());
      conditional([&] {
        for (const clang::Expr* arm : {c->getTrueExpr(), c->getFalseExpr()}) {
          Deps more = eval(arm);
          value.insert(more.begin(), more.end());
        }
      });
      return value;
    }
    Deps value;
    for (const clang::Stmt* child : e->children())
      if (const auto* sub = dyn_cast_or_null<clang::Expr>(child)) {
        Deps more = eval(sub);
        value.insert(more.begin(), more.end());
      }
    return value;
  }
};

}  // namespace

/* The local scalars the loop (test "cond", "body", increment "inc") carries from one iteration
   to the next, its induction variables ("inductions") left out. */
std::vector<ir::CarriedScalar> carriedScalars(const clang::Expr* cond, const clang::Stmt* body, const clang::Expr* inc,
                                              const VarSet& inductions, const clang::ASTContext& ast) {
  CarriedWalk walk(ast, inductions);
  walk.statement(cond);
  walk.statement(body);
  walk.statement(inc);
  return walk.result();
}

}  // namespace cats::frontend
