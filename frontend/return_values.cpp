// Return-value summaries: a function whose every return yields the same integer formula in its
// parameters (`return i * N + j;`, `return a < b ? a : b;`, locals assigned before the return,
// calls of helpers already summarised) is summarised by that formula, and a later call's value
// is the formula with the call's arguments in place of the parameters. Only the value becomes
// known: the call itself, with the callee's own accesses, is traced as before.
//
// Safe by construction: a function's summary is recorded when its body is lowered completely,
// so a recursive call (direct or through other functions) finds none and stays unknown, and
// nested helpers are already substituted into their caller's summary (no substitution at a
// call goes deeper than one level). A callee defined after its caller has none yet either.
#include "clang_compat.hpp"  // first: see the header
#include "function_builder.hpp"

#include <algorithm>

namespace cats::frontend {

namespace {

/// Budget on the size of a summary (GiNaC nodes): helpers that nest each other could otherwise
/// grow a formula exponentially; a larger one is dropped and its calls stay unknown.
constexpr std::size_t kMaxSummaryNodes = 256;

/* Number of nodes of "e". */
std::size_t nodeCount(const sym::Expr& e) {
  std::size_t count = 0;
  for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it) ++count;
  return count;
}

/* Whether "e" is a formula of program parameters only: no iterator (a return inside a loop), no
   loaded value (memory may change between calls: a load stays unknown), no unknown. */
bool onlyParameters(const sym::Expr& e, const sym::Context& ctx) {
  for (sym::SymbolKind kind : {sym::SymbolKind::Iterator, sym::SymbolKind::Container, sym::SymbolKind::Unknown})
    if (!sym::symbolsOfKind(e, ctx, kind).empty()) return false;
  return true;
}

/// Whether a function body keeps state in variables of static storage: it names a static local
/// (`static int c; return ++c;`) or changes a global (`g++; return g;`). The frontend reads such
/// a variable as a fixed parameter, so a summary holding one would make a counter constant.
class KeepsState : public clang::RecursiveASTVisitor<KeepsState> {
 public:
  bool found = false;
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    if (const auto* var = clang::dyn_cast<clang::VarDecl>(ref->getDecl()); var && var->isStaticLocal()) found = true;
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->isAssignmentOp()) found |= isGlobal(op->getLHS());
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->isIncrementDecrementOp()) found |= isGlobal(op->getSubExpr());
    return true;
  }

 private:
  static bool isGlobal(const clang::Expr* e) {
    const auto* ref = clang::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
    const auto* var = ref ? clang::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    return var && var->hasGlobalStorage();
  }
};

}  // namespace

/* "v" is the value of one return statement of an integer function. */
void FunctionBuilder::noteReturnedScalar(const Value& v) {
  if (v.kind == Value::Kind::Scalar && !returnedScalar_) {
    returnedScalar_ = v.scalar;
    return;
  }
  // Not a formula, or another formula than an earlier return's: no summary.
  if (v.kind != Value::Kind::Scalar || !returnedScalar_->is_equal(v.scalar)) returnsOtherScalar_ = true;
}

/* The definition "definition" of a function, the same in every unit that includes it. */
std::string FunctionBuilder::summaryKey(const clang::FunctionDecl& definition) const {
  return definition.getNameAsString() + "@" + loc(definition.getLocation()).str();
}

/* After the body: the summary of this function, when every return agrees on a formula of the
   parameters. A return type narrower than int would wrap the formula's value: none then. */
void FunctionBuilder::recordReturnSummary() {
  clang::QualType type = decl_.getReturnType();
  if (!returnedScalar_ || returnsOtherScalar_ || !type->isIntegralOrEnumerationType()) return;
  if (ast_.getTypeSize(type) < ast_.getTypeSize(ast_.IntTy)) return;
  if (!onlyParameters(*returnedScalar_, state_.ctx) || nodeCount(*returnedScalar_) > kMaxSummaryNodes) return;
  ReturnSummary summary;
  for (std::size_t i = 0; i < decl_.getNumParams(); ++i) {
    bool integer = decl_.getParamDecl(static_cast<unsigned>(i))->getType()->isIntegralOrEnumerationType();
    summary.parameters.push_back(integer ? std::optional<sym::Symbol>(function_.params[i].symbol) : std::nullopt);
  }
  summary.value = *returnedScalar_;
  auto isParameter = [&](const sym::Symbol& s) {
    return std::any_of(summary.parameters.begin(), summary.parameters.end(), [&](const auto& p) { return p && p->is_equal(s); });
  };
  std::vector<sym::Symbol> used = sym::symbolsOfKind(summary.value, state_.ctx, sym::SymbolKind::Parameter);
  summary.argumentsOnly = std::all_of(used.begin(), used.end(), isParameter);
  if (!summary.argumentsOnly) {
    KeepsState state;
    state.TraverseStmt(const_cast<clang::Stmt*>(decl_.getBody()));
    if (state.found) return;
  }
  state_.returnSummaries[summaryKey(decl_)] = std::move(summary);
}

/* The summary of "callee"'s definition, if it has one already. */
const ReturnSummary* FunctionBuilder::summaryOf(const clang::FunctionDecl& callee) const {
  const clang::FunctionDecl* definition = callee.getDefinition();
  if (!definition) return nullptr;
  auto it = state_.returnSummaries.find(summaryKey(*definition));
  return it == state_.returnSummaries.end() ? nullptr : &it->second;
}

/* Whether direct call "c" returns a formula of its arguments alone (loop bounds: invariant when
   the arguments are). */
bool FunctionBuilder::valueOfArgumentsOnly(const clang::CallExpr* c) const {
  const clang::FunctionDecl* callee = c->getDirectCallee();
  const ReturnSummary* summary = callee ? summaryOf(*callee) : nullptr;
  return summary && summary->argumentsOnly;
}

/* The value of a call of "callee" with "arguments" (in order), when the callee has a summary and
   every parameter the summary uses receives an integer the analysis follows. */
std::optional<sym::Expr> FunctionBuilder::summarisedResult(const clang::FunctionDecl& callee, const std::vector<Value>& arguments) {
  const ReturnSummary* found = summaryOf(callee);
  if (!found) return std::nullopt;
  const ReturnSummary& summary = *found;
  GiNaC::exmap bound;
  for (std::size_t i = 0; i < summary.parameters.size(); ++i) {
    const auto& parameter = summary.parameters[i];
    if (!parameter || !sym::contains(summary.value, *parameter)) continue;
    if (i >= arguments.size() || arguments[i].kind != Value::Kind::Scalar) return std::nullopt;
    bound[*parameter] = arguments[i].scalar;
  }
  return summary.value.subs(bound);
}

}  // namespace cats::frontend
