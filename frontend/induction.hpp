// Induction variables of a loop, found on its syntax (build_induction.cpp). Private to frontend/.
#pragma once

#include "clang_compat.hpp"  // first: see the header
#include "decl_order.hpp"
#include "ir/ir.hpp"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace cats::frontend {

/// One change of a local: v++, --v, v += amount, v = v - amount, ...
struct Update {
  const clang::VarDecl* var = nullptr;
  const clang::Expr* at = nullptr;      // the updating expression
  const clang::Expr* amount = nullptr;  // nullptr: 1
  int sign = 1;
  bool prefix = true;   // the expression's value is the updated one (++v, v += k)
  bool affine = false;  // v plus or minus an amount; false for any other assignment
};

/// A local changed exactly once per iteration, unconditionally, by a loop-invariant amount.
/// A *nested* one changes only inside inner loops that run every iteration (`nnz++` in the
/// `b` loop of `for (r ...) for (b = 0; b < 5; b++)`): by "update" once per iteration of the
/// innermost of "through", so by the product of their trip counts per iteration of this loop.
struct Induction {
  Update update;
  enum class Where { Condition, Body, Increment } where = Where::Body;
  std::vector<const clang::Stmt*> through;  // the inner loops, outermost first; empty: changed here
};

/// Whether a call's value is a formula of its arguments alone (a return-value summary that uses
/// no global): such a call in a bound or step is as invariant as its arguments.
using KnownCall = std::function<bool(const clang::CallExpr*)>;

struct InductionScan {
  KnownCall knownCall;                // may be empty: every call varies
  std::vector<Induction> inductions;  // in source order
  VarSet changed;  // every local the loop changes (inductions included)
  /// Why a changed local is not an induction variable, and where.
  VarMap<std::pair<const clang::Stmt*, std::string>> rejected;
};

/// The loop's exit test: "induction <comparison> bound" with an invariant bound.
struct ExitTest {
  const Induction* induction = nullptr;
  const clang::Expr* bound = nullptr;  // nullptr: 0 (while (n--), while (n))
  ir::Comparison comparison = ir::Comparison::NotEqual;
  bool updatedBeforeTest = false;      // --n in the condition: the test sees the updated value
  const clang::Expr* conjunct = nullptr;
  std::vector<const clang::Expr*> otherConjuncts;  // "&& *p != 0": exits the test cannot count
};

/// Induction variables of the loop with condition "cond", body "body" and increment "inc"
/// (each may be null).
InductionScan scanInductions(const clang::Expr* cond, const clang::Stmt* body, const clang::Expr* inc, clang::ASTContext& ast,
                             KnownCall knownCall = {});
/// The conjunct of "cond" (split at &&) that tests an induction variable against an invariant.
std::optional<ExitTest> matchExitTest(const clang::Expr* cond, const InductionScan& scan, clang::ASTContext& ast);
/// For "if (exit) break;" opening an endless loop: the test that keeps the loop running.
std::optional<ExitTest> matchExitWhen(const clang::Expr* exit, const InductionScan& scan, clang::ASTContext& ast);
/// The for loop's control: its induction variable (set by the loop's init), the value the init
/// gives it and the exit test, when the loop has one and no early exit; its trip count is then
/// a formula of those.
struct CountedFor {
  const clang::Expr* start = nullptr;  // the init's value
  const clang::Expr* bound = nullptr;  // nullptr: 0
  const clang::Expr* step = nullptr;   // nullptr: 1
  int sign = 1;
  ir::Comparison comparison = ir::Comparison::Less;
  VarSet changed;  // every local the loop changes
};
std::optional<CountedFor> countedFor(const clang::Stmt* loop, clang::ASTContext& ast, const KnownCall& knownCall);
/// The same with the loop's induction scan already made.
std::optional<CountedFor> countedFor(const clang::ForStmt* loop, const InductionScan& scan, clang::ASTContext& ast);

/// A continue of this loop or a label in "body" (a loop's body): an iteration may skip the rest
/// of the body or re-enter it, so its end is not the only way to the next iteration.
const clang::Stmt* skipsRestOfBody(const clang::Stmt* body);

/// True if "e" calls (other than a "knownCall"), has side effects, names a local in "changed" or
/// (with "memoryVaries") reads memory. A bound read from memory counts as invariant, as in a for
/// loop's header.
bool variesIn(const clang::Expr* e, const VarSet& changed, clang::ASTContext& ast, bool memoryVaries,
              const KnownCall& knownCall = {});

}  // namespace cats::frontend
