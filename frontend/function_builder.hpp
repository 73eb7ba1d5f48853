// Lowers one C function body to the IR. Private to frontend/: the only place that sees both
// Clang's AST and the IR. Statements live in build_statements.cpp, loops in build_loops.cpp,
// expressions in build_expressions.cpp, calls and allocations in build_calls.cpp.
#pragma once

#include "clang_compat.hpp"  // first: see the header
#include "decl_order.hpp"
#include "ir/ir.hpp"
#include "library_calls.hpp"
#include "program_state.hpp"


#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace cats::frontend {

/// Where a pointer points: a container and a byte offset into it.
struct PointerValue {
  ir::ContainerRef container;
  sym::Expr offset = 0;
  std::string name;   // variable the pointer came from, as written at the access
  std::string field = {};  // struct field path when the pointer came from an array field
  /// Element indices per array dimension, outermost first; the last is the position the
  /// pointer's own arithmetic moves. nullopt: not followed, derived from "offset" when needed.
  std::optional<std::vector<sym::Expr>> subscripts = {};

  /// Moves the pointer to byte "to" by a route the subscripts do not follow.
  void moveTo(sym::Expr to) {
    offset = std::move(to);
    subscripts.reset();
  }
};

/// What an rvalue evaluates to.
struct Value {
  enum class Kind { Scalar, Pointer, Unknown };
  Kind kind = Kind::Unknown;
  sym::Expr scalar = 0;
  PointerValue pointer;

  static Value ofScalar(sym::Expr e) { return {Kind::Scalar, std::move(e), {}}; }
  static Value ofPointer(PointerValue p) { return {Kind::Pointer, 0, std::move(p)}; }
  static Value unknown() { return {}; }
  bool sameAs(const Value& o) const;
};

/// A memory location named by an lvalue.
struct Location {
  PointerValue where;
  clang::QualType type;
  std::string field;
};

struct Induction;
struct InductionScan;
struct ExitTest;

/// The parts of a for, while or do loop.
struct LoopShape {
  const clang::Stmt* stmt = nullptr;
  const clang::Expr* cond = nullptr;
  const clang::Stmt* body = nullptr;
  const clang::Expr* inc = nullptr;
  bool testAfterBody = false;  // do-while
  bool parallel = false;
  std::string kind;            // "while loop", used in diagnostics
};

/// An induction variable with its value before the loop and its change per iteration.
struct Walk {
  const Induction* induction = nullptr;
  bool pointer = false;
  sym::Expr start = 0;         // integer value, or byte offset of a pointer
  sym::Expr perIteration = 0;  // change per iteration (bytes for a pointer)
  sym::Expr unit = 1;          // element bytes of a pointer, 1 for an integer
  ir::ContainerRef container;  // pointer only
};

/// Local variables of "body" whose address is taken (build_loops.cpp).
VarSet addressTakenLocals(const clang::Stmt* body);
/// Local scalars of "body" whose address is an argument of a call to a function that is not a
/// system or builtin one (build_loops.cpp).
VarSet addressPassedLocals(const clang::Stmt* body, const std::function<bool(clang::SourceLocation)>& isSystem);
/// Linkage, inline hints, attributes and size of "decl" (function_traits.cpp).
ir::FunctionTraits functionTraits(const clang::FunctionDecl& decl);

/// What assigning "rhs" to an object of "lhsType" stores (stored_value.cpp): a constant with its
/// byte splat, a Copy candidate (an unconverted load: the caller checks it is the access just
/// before the write), or Unknown.
ir::StoredValue storedValueOf(const clang::Expr* rhs, clang::QualType lhsType, clang::ASTContext& ast);
/// Locals assigned by the init or increment of a for loop in "body" (build_local_scalars.cpp).
VarSet loopControlVariables(const clang::Stmt* body);
std::vector<ir::CarriedScalar> carriedScalars(const clang::Expr* cond, const clang::Stmt* body, const clang::Expr* inc,
                                              const VarSet& inductions, const clang::ASTContext& ast);

class FunctionBuilder {
  friend class LoopBodyScope;

 public:
  FunctionBuilder(ProgramState& state, clang::ASTContext& ast, const clang::FunctionDecl& decl);
  ir::Function build();

 private:
  ProgramState& state_;
  clang::ASTContext& ast_;
  const clang::FunctionDecl& decl_;
  ir::Function function_;
  ir::Block* current_ = nullptr;
  VarMap<Value> env_;                 // register locals and params
  VarMap<ir::ContainerRef> arrays_;   // local arrays and in-memory scalars
  VarSet addressTaken_;               // locals whose address escapes
  VarSet addressPassed_;              // locals whose address an analysed callee receives
  VarMap<ir::ContainerRef> slots_;    // their stack slots (register value kept in env_)
  VarMap<ir::ContainerRef> shadows_;  // traceLocalScalars: containers of register scalars
  VarSet loopControl_;                // traceLocalScalars: never shadowed
  ir::Block localSlots_, parameterSlots_;                      // stackSlots: their allocations, hoisted to the entry
  VarMap<std::vector<const clang::FunctionDecl*>> functionTargets_;
  std::optional<ir::ContainerRef> returned_;                   // container of every returned pointer so far
  bool returnsOther_ = false;                                  // some return is not such a pointer
  std::optional<sym::Expr> returnedScalar_;                    // integer value of every return so far
  bool returnsOtherScalar_ = false;                            // some integer return differs or is not followed
  std::map<std::pair<std::string, std::string>, std::size_t> pointees_;  // (container, field) -> local
  int loopDepth_ = 0;
  int switchDepth_ = 0;
  std::vector<std::string> exits_;   // early exits of the innermost loop being lowered, described
  std::vector<std::string> guards_;  // conditions of the enclosing if arms, as written
  const clang::Stmt* skip_ = nullptr;  // "if (c) break;" that became the test of the loop being lowered

  // build_statements.cpp
  void declareParameters();
  void statement(const clang::Stmt* s);
  // build_control.cpp
  void compound(const clang::CompoundStmt* s);
  void statementRange(const std::vector<const clang::Stmt*>& list, std::size_t from, std::size_t to, const std::function<void()>& afterEach);
  void forwardJump(const clang::Expr* cond, const std::vector<const clang::Stmt*>& list, std::size_t from, std::size_t to,
                   const std::function<void()>& afterEach);
  void gotoLoop(const std::vector<const clang::Stmt*>& list, std::size_t from, std::size_t to, const clang::Expr* cond);
  void switchStatement(const clang::SwitchStmt* s);
  // build_statements.cpp
  void declaration(const clang::VarDecl* var);
  void memoryScalar(const clang::VarDecl* var);
  void addressSlot(const clang::VarDecl* var);
  void returnValue(const clang::Expr* value);
  void allocateOnStack(const clang::VarDecl* var, ir::Container c);
  void ifStatement(const clang::IfStmt* s);
  void openmp(const clang::Stmt* s);
  ir::Block inBlock(const clang::Stmt* s);
  void unsupported(const clang::Stmt* s, const std::string& message);
  void earlyExit(const std::string& kind, const clang::Stmt* s);
  void mergeEnvironments(const VarMap<Value>& before,
                         const std::vector<VarMap<Value>>& arms, const ir::SourceLoc& loc);

  // build_local_scalars.cpp
  void shadowLocalScalar(const clang::VarDecl* var);
  void noteLocalScalar(const clang::VarDecl* var, ir::AccessMode mode, const clang::Expr* at);
  void noteSlotUpdate(const clang::VarDecl* var, const clang::Expr* at);
  void stackSlot(const clang::VarDecl* var, ir::Block& allocations);
  void parameterSlot(const clang::ParmVarDecl* p);
  void hoistStackSlots();

  // build_loops.cpp
  void forLoop(const clang::ForStmt* s, bool parallel);
  void loop(const LoopShape& shape);
  void countedLoop(const LoopShape& shape, const std::vector<Walk>& walks, const ExitTest* test,
                   const VarMap<std::string>& reasons);
  void opaqueLoop(const clang::Stmt* s, const clang::Expr* cond, const clang::Stmt* body, const std::string& reason);
  void forgetIteratorAfter(const ir::Loop& loop, const VarSet& declaredBefore);
  void lowerCondition(ir::Loop& loop, const clang::Expr* cond, bool beforeBody);
  sym::Expr boundOf(const ExitTest& test, const Walk& control, const ir::SourceLoc& where);
  std::string exitText(const std::string& kind, const clang::Stmt* s) const;
  Value valueAside(const clang::Expr* e);
  sym::Condition conditionAside(const clang::Expr* e);
  void followRecurrences(ir::Loop& loop, const VarMap<Value>& before,
                         const VarMap<Value>& top, const clang::Stmt* body);
  void keepTest(ir::Loop& loop, const sym::Condition& test, bool afterBody);
  void dropUnusedRecurrences(ir::Loop& loop);
  std::optional<sym::Expr> tripsThrough(const std::vector<const clang::Stmt*>& loops, const InductionScan& outer);
  std::vector<sym::Symbol> forgetAssignedIn(const std::vector<const clang::Stmt*>& parts, const VarSet& except,
                                            const ir::SourceLoc& loc, const VarMap<std::string>& reasons = {});

  // build_expressions.cpp
  Value eval(const clang::Expr* e, const std::string& nameHint = {});
  Value evalDeclRef(const clang::DeclRefExpr* ref);
  Value evalBinary(const clang::BinaryOperator* op);
  Value evalUnary(const clang::UnaryOperator* op);
  Value evalCast(const clang::CastExpr* cast, const std::string& nameHint);
  Value evalAssignment(const clang::BinaryOperator* op);
  Value evalConditional(const clang::AbstractConditionalOperator* op);
  Value arithmetic(clang::BinaryOperatorKind kind, const Value& lhs, const Value& rhs, clang::QualType lhsType, clang::QualType rhsType);
  Value read(const Location& loc, const clang::Expr* at);
  std::optional<Location> lvalue(const clang::Expr* e);
  const clang::VarDecl* registerVariable(const clang::Expr* e) const;
  const clang::VarDecl* globalPointer(const clang::Expr* e) const;
  void bindAllocationToGlobal(const Value& rhs, const clang::VarDecl* pointer);
  void emitAccess(const Location& loc, ir::AccessMode mode, const clang::Expr* at);
  void noteStoredValue(const clang::BinaryOperator* op, bool adjacent);
  void noteStoredFormula(clang::QualType type, const Value& value);
  std::vector<sym::Expr> positionAt(const PointerValue& p, clang::QualType type);
  std::vector<sym::Expr> movedPosition(const PointerValue& p, const sym::Expr& unitBytes, const sym::Expr& delta);
  void explainUnknowns(const sym::Expr& offset, const std::string& text, const clang::Expr* at);
  void untracedThrough(const clang::Expr* pointer, const clang::Expr* at);
  sym::Condition condition(const clang::Expr* e);
  sym::Condition shortCircuit(const clang::BinaryOperator* op);
  sym::Expr scalarOrUnknown(const Value& v, const std::string& what);
  sym::Expr freshUnknown(const std::string& base, const std::string& why);

  // return_values.cpp
  void noteReturnedScalar(const Value& v);
  void recordReturnSummary();
  std::optional<sym::Expr> summarisedResult(const clang::FunctionDecl& callee, const std::vector<Value>& arguments);
  const ReturnSummary* summaryOf(const clang::FunctionDecl& callee) const;
  bool valueOfArgumentsOnly(const clang::CallExpr* c) const;
  std::string summaryKey(const clang::FunctionDecl& definition) const;

  // build_calls.cpp
  Value call(const clang::CallExpr* c, const std::string& nameHint);
  Value callOneOf(const clang::CallExpr* c, const std::vector<const clang::FunctionDecl*>& targets, const std::string& nameHint);
  Value directCall(const clang::CallExpr* c, const clang::FunctionDecl& callee, const std::string& nameHint);
  Value libraryCall(const clang::CallExpr* c, const std::string& name, const clang::FunctionDecl& callee);
  Value analysedCall(const clang::CallExpr* c, const clang::FunctionDecl* callee, const std::string& name, const std::string& nameHint,
                     std::optional<std::size_t> throughParameter);
  Value addressOfLocal(const clang::VarDecl* var);
  void forgetValue(const clang::VarDecl* var, const std::string& callee, const clang::CallExpr* c);
  ir::ContainerRef callSiteContainer(const std::string& name, clang::QualType element, const clang::CallExpr* c);
  Value allocation(const clang::CallExpr* c, const std::string& callee, const std::string& nameHint);
  void storeAllocatedPointer(const clang::CallExpr* c, const ir::ContainerRef& block);
  bool isPointerSlotParameter(std::size_t index) const;
  void copyInto(const clang::CallExpr* c, const Value& source, const PointerValue& block, const sym::Expr& bytes, const std::string& callee);
  void deallocation(const clang::CallExpr* c);
  clang::QualType allocatedElementType(const clang::CallExpr* c);
  std::size_t addLocal(ir::Container c);

  // build_library.cpp
  Value memoryRoutine(const clang::CallExpr* c, const std::string& callee, const RoutineShape& shape);
  sym::Expr stringBytes(const clang::CallExpr* c, unsigned arg, const std::string& callee);

  // build_function_pointers.cpp
  std::vector<const clang::FunctionDecl*> callTargets(const clang::CallExpr* c);
  std::vector<const clang::FunctionDecl*> storedFunctions(const clang::VarDecl* var);
  std::optional<std::size_t> calledParameter(const clang::CallExpr* c) const;
  std::string passedFunction(const clang::Expr* arg);

  // helpers shared by the parts
  sym::Expr typeBytes(clang::QualType t);
  sym::Expr pointeeBytes(clang::QualType pointerType);
  sym::Symbol containerSymbol(const ir::ContainerRef& ref) const;
  std::string containerName(const ir::ContainerRef& ref) const;
  ir::SourceLoc loc(clang::SourceLocation l) const { return state_.location(l); }
  std::string sourceText(const clang::Stmt* s) const { return state_.sourceText(s); }
  void warn(clang::SourceLocation l, const std::string& message);
  void append(ir::Node n) { current_->push_back(std::move(n)); }
};

/// Lowering state while one loop body is lowered: the constructor enters a fresh loop level
/// (no enclosing switch, no exits seen), the destructor gives the caller's state back.
class LoopBodyScope {
 public:
  explicit LoopBodyScope(FunctionBuilder& builder)
      : builder_(builder),
        switchDepth_(std::exchange(builder.switchDepth_, 0)),
        exits_(std::exchange(builder.exits_, {})) {
    ++builder_.loopDepth_;
  }
  ~LoopBodyScope() {
    --builder_.loopDepth_;
    builder_.switchDepth_ = switchDepth_;
    builder_.exits_ = std::move(exits_);
  }
  LoopBodyScope(const LoopBodyScope&) = delete;
  LoopBodyScope& operator=(const LoopBodyScope&) = delete;

 private:
  FunctionBuilder& builder_;
  int switchDepth_;
  std::vector<std::string> exits_;
};

}  // namespace cats::frontend
