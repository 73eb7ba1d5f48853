// The C.A.T.S. symbolic trace: containers, a tree of control-flow scopes (every event's
// stack is the path from the root to its scope), and allocation/free/access events in
// program order. Expressions are in the symbols of "context".
//
// A trace has one of two forms. Summaries (what the tracer writes): every reachable function
// once, as a Function scope under the root, parameterised by its arguments; a call is a Call
// scope with the bindings of the callee's parameters and nothing below it. Contexts (what
// expandContexts makes for the concretiser): one copy of a callee below every call path, as
// inlining would give.
#pragma once

#include "ir/ir.hpp"
#include "symbolic/condition.hpp"
#include "symbolic/expr.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cats::trace {

enum class ScopeKind { Program, Function, Call, Loop, Branch, Parallel };
enum class TraceForm { Summaries, Contexts };
std::string_view toString(ScopeKind kind);
std::optional<ScopeKind> parseScopeKind(std::string_view text);

/// What a call passes for one parameter of the callee, in the caller's summary symbols.
struct CallBinding {
  enum class Kind {
    Scalar,   // an integer parameter takes "value"
    Pointer,  // a pointer parameter points into "container" at byte "value"
    Unknown,  // an integer argument the analysis could not follow
    None,     // a pointer argument the analysis could not follow
  };
  Kind kind = Kind::None;
  sym::Expr value = 0;
  std::size_t container = 0;
};
std::string_view toString(CallBinding::Kind kind);
std::optional<CallBinding::Kind> parseBindingKind(std::string_view text);

/// A parameter of a summarised function: its symbol (integers) or its Parameter container.
struct SummaryParameter {
  std::string name;
  bool isPointer = false;
  std::string symbol;                    // integer parameter: the symbol standing for its value
  std::optional<std::size_t> container;  // pointer parameter: the container standing for its memory
};

struct Scope {
  std::size_t id = 0;
  std::optional<std::size_t> parent;
  ScopeKind kind = ScopeKind::Program;
  std::string function;  // Function and Call: the function entered
  ir::SourceLoc loc;     // call site, loop or branch statement
  // Loop
  std::string iterator;  // empty for opaque loops
  sym::Expr start = 0, bound = 0, step = 1;
  ir::Comparison comparison = ir::Comparison::Less;
  bool parallel = false;
  std::int64_t scheduleChunk = 0;  // parallel loops: ir::Loop::scheduleChunk (in memory only: the trace file does not carry it)
  std::string opaqueReason;
  bool earlyExit = false;
  bool staticBounds = false;  // start, bound and step are numbers in the loop's own function (compile-time trip count)
  std::vector<std::string> varying;  // symbols that change from one iteration to the next
  std::vector<ir::CarriedScalar> carried;  // local scalars carried across iterations (the frontend's loop facts)
  /// Carried integers simulate computes (ir::Recurrence): "variable" (an unknown of this
  /// trace's context) holds "start" in the first iteration and "next" in each following one.
  struct Recurrence {
    std::string variable;
    sym::Expr start = 0, next = 0;
  };
  std::vector<Recurrence> recurrences;
  sym::Condition test;  // a loop with an unknown trip count: its condition before every iteration (ir::Loop::test)
  bool testAfterBody = false;  // a do-while's test: not before the first iteration
  // Branch
  std::string arm;
  sym::Condition condition;
  std::optional<bool> decided;  // the condition's value when it folds to a number after substitution
  // Where the scope sits among its parent's events: the number of events before it opened.
  std::size_t firstEvent = 0;
  // Summaries only. Function: the parameters. Call: one binding per callee parameter, and
  // whether the call stays inside a recursion (strongly connected component of the call graph).
  std::vector<SummaryParameter> params;
  std::vector<CallBinding> bindings;
  bool recursive = false;
  // Summaries only, Loop: the iterator as the IR names it (symbol, C name) and the values the
  // body changes, before their symbols are picked, so that a context can rename and re-pick.
  std::string sourceIterator;
  std::string iteratorBase;
  std::vector<sym::Expr> varyingSources;
  // Contexts only, in memory (the trace file does not carry them): what the scope was copied
  // from, so that the compiler model (sim/compiler) sees values as the source writes them.
  std::optional<std::size_t> summary;  // the summary scope this one copies
  std::vector<std::string> calleeSymbols;                 // Call: the callee's integer parameter symbols ("" for a pointer)
  std::vector<std::optional<sym::Expr>> sourceArguments;  // Call: per callee parameter, the integer argument in the caller's summary symbols
  sym::Expr sourceStart = 0, sourceBound = 0, sourceStep = 1;  // Loop: the bounds in its function's summary symbols
  bool reentered = false;  // Call: the callee calls itself again below (the expansion stops there): recursion

  std::string label() const;  // "main", "kernel@a.c:12", "loop i", "if@14 then", "parallel@9"
};

enum class AccessClass { Constant, Stride1, StrideK, Indirect };
std::string_view toString(AccessClass c);
std::optional<AccessClass> parseAccessClass(std::string_view text);

struct Classification {
  AccessClass kind = AccessClass::Constant;
  std::optional<sym::Expr> strideBytes;  // per iteration of strideLoop; none for constant/indirect
  std::string strideIterator;            // iterator of the innermost loop the offset depends on
  std::vector<std::string> indirectVia;  // containers whose values appear in the offset
  bool invariantInInnermostLoop = false;
  bool approximate = false;  // a warning was issued or some access is approximate              // an unknown value went into the offset
};

struct Container {
  std::size_t id = 0;
  std::string name;  // unique in the trace; the symbol inside load(...)
  ir::ContainerKind kind = ir::ContainerKind::Global;
  std::string elementType;
  std::int64_t elementBytes = 0;
  sym::Expr sizeBytes = 0;
  std::vector<sym::Expr> dims;
  std::vector<ir::Field> fields;
  std::int64_t alignment = 0;
  bool isScalar = false;
  bool isRestrict = false;
  ir::SourceLoc loc;
  // Summaries only: the name before it was made unique, the function scope that owns a local
  // or parameter container (none for globals) and, for a parameter, its index.
  std::string declaredName;
  std::optional<std::size_t> owner;
  std::optional<std::size_t> parameter;
};

enum class EventKind { Alloc, Free, Access };
std::string_view toString(EventKind kind);

struct Event {
  EventKind kind = EventKind::Access;
  std::size_t scope = 0;
  std::size_t container = 0;
  ir::SourceLoc loc;
  // Access
  ir::AccessMode mode = ir::AccessMode::Read;
  sym::Expr offset = 0;
  /// Element index per array dimension, outermost first (ir::Access::subscripts), in the same
  /// symbols as "offset"; empty when the access has no array form or was reached through a
  /// pointer into the middle of a container (only "offset" is followed then).
  std::vector<sym::Expr> subscripts;
  std::int64_t bytes = 0;
  std::string name;   // as written at the access
  std::string field;
  std::string text;
  bool loopHeader = false;   // evaluated by the loop's condition, once per iteration
  std::size_t multiplicity = 1;  // identical events of one iteration folded into this one
  /// Writes: what is stored (ir::StoredValue); a Copy names the read event of the copied value
  /// in "copyOf" (the access just before it; Unknown when that cannot be named).
  ir::StoredValue stored;
  std::optional<std::size_t> copyOf;
  /// Writes of integers: the value stored as a formula (ir::Access::storedFormula), in this
  /// trace's symbols; none when two writes folded into this event store different values.
  std::optional<sym::Expr> storedFormula;
  Classification classification;
  // Alloc
  ir::AllocFunction function = ir::AllocFunction::Malloc;
  sym::Expr sizeBytes = 0;
  std::int64_t alignment = 0;
  // Contexts only, in memory: the summary event this one copies (the first, when several fold).
  std::optional<std::size_t> summary;
  bool viaRestrict = false;  // Contexts only, in memory: reached through a `restrict` pointer parameter
};

struct Trace {
  TraceForm form = TraceForm::Contexts;
  sym::Context context;
  std::size_t programSymbols = 0;  // the first symbols of "context" came with the program (the rest the tracer made)
  std::size_t sourceDiagnostics = 0;  // the first diagnostics came from the frontend and the options
  std::vector<std::string> files;
  std::vector<std::string> entries;
  std::map<std::string, std::string> bindings;  // -D NAME=VALUE applied to free symbols
  std::map<std::string, std::int64_t> defaults;  // initial values of global integer parameters
  std::map<std::string, ir::FunctionTraits> functions;  // every analysed function: what the compiler model reads
  std::vector<Container> containers;
  std::vector<Scope> scopes;
  std::vector<Event> events;
  std::vector<ir::Diagnostic> diagnostics;
  bool approximate = false;  // a warning was issued or some access is approximate

  /// Scope ids from the root to "scope", root excluded.
  std::vector<std::size_t> stack(std::size_t scope) const;
  /// Labels of stack(scope).
  std::vector<std::string> stackLabels(std::size_t scope) const;
  /// The function (entry or callee) that "scope" lies in.
  std::string functionOf(std::size_t scope) const;
  /// Innermost enclosing loop scope, if any.
  std::optional<std::size_t> innermostLoop(std::size_t scope) const;
  /// Whether scope "inner" is "outer" or nested in it.
  bool encloses(std::size_t outer, std::size_t inner) const;
  /// Summaries: the Function scope summarising "function", if it was analysed.
  std::optional<std::size_t> summaryOf(const std::string& function) const;
};

/// Sets what write "e" stores: "stored", with a Copy tied to "previous" (the read event of the
/// copied value, emitted just before) or made Unknown when there is none.
void setStored(Event& e, const ir::StoredValue& stored, std::optional<std::size_t> previous, const std::vector<Event>& events);
/// Folds the stored value of "again" into "kept", the identical event it deduplicates into:
/// two different values stored at one address in one iteration are Unknown.
void foldStored(Event& kept, const Event& again);

}  // namespace cats::trace
