// The structured control-flow IR: plain value types, no Clang. Expressions are in the
// function's own symbols (parameters, iterators, unknowns, container identities).
#pragma once

#include "symbolic/condition.hpp"
#include "symbolic/expr.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cats::ir {

struct SourceLoc {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::string str() const;
  bool operator<(const SourceLoc& o) const;
  bool operator==(const SourceLoc& o) const = default;
};

enum class ContainerKind {
  Global,     // file-scope array or scalar
  Static,     // function-scope static
  Stack,      // local array (VLA included)
  Heap,       // malloc-family allocation site
  Parameter,  // memory behind a pointer parameter of an entry function
  Pointee,    // memory behind a pointer loaded from another container
};
std::string_view toString(ContainerKind kind);

struct Field {
  std::string name;  // dotted path for nested structs: "pos.x"
  std::int64_t offset = 0;
  std::int64_t bytes = 0;
  std::string type;
};

struct Container {
  std::string name;
  ContainerKind kind = ContainerKind::Global;
  sym::Symbol symbol;           // identity used inside load(...)
  std::string elementType;      // innermost non-array type: "double", "struct particle"
  std::int64_t elementBytes = 0;
  sym::Expr sizeBytes = 0;      // whole container; Unknown symbol when unknown
  std::vector<sym::Expr> dims;  // array extents, outermost first (empty for pointers/scalars)
  std::vector<Field> fields;    // flattened fields when the element is a struct
  std::int64_t alignment = 0;
  bool isScalar = false;
  bool isRestrict = false;
  SourceLoc loc;
};

/// Which container an access or pointer refers to, relative to a function.
struct ContainerRef {
  enum class Scope { Global, Local, Parameter };
  Scope scope = Scope::Global;
  std::size_t index = 0;  // into Program::globals, Function::locals or Function::params
  bool operator==(const ContainerRef&) const = default;
};

enum class AccessMode { Read, Write };
std::string_view toString(AccessMode mode);

/// What a write stores, where the source says it plainly: what the compilers' memset/memcpy
/// idioms (sim/compiler/idioms.cpp) need to know.
struct StoredValue {
  enum class Kind {
    Unknown,   // anything else (computed, converted, or a read access)
    Constant,  // a compile-time constant
    Copy,      // the value of the read access just before this write in its block, unconverted
  };
  Kind kind = Kind::Unknown;
  /// Constant: the byte every byte of the stored value equals (0 for 0 and 0.0, 0xff for -1),
  /// none when its bytes differ (7, 0.5): only byte-splat values become memset.
  std::optional<std::uint8_t> splat;
  bool operator==(const StoredValue&) const = default;
};
std::string_view toString(StoredValue::Kind kind);

struct Access {
  ContainerRef container;
  AccessMode mode = AccessMode::Read;
  sym::Expr offset = 0;  // bytes from the container's base
  /// Element index per array dimension, outermost first, as written (a[i][k] -> {i, k}; p[i]
  /// -> {i}; s[i].x -> {i} with field "x"); empty when the access has no array form (a scalar,
  /// a library call's words). The flattened "offset" stays the reference for addresses.
  std::vector<sym::Expr> subscripts;
  std::int64_t bytes = 0;
  std::string name;      // name used at the access: "p" in p[i] even if p is bound to A
  std::string field;     // struct field path, empty for whole elements
  std::string text;      // source text of the access, e.g. "B[k][j]"
  SourceLoc loc;
  StoredValue stored;    // writes only
  /// Writes of integers: the value stored, as a formula of iterators, parameters and loads,
  /// when the analysis follows it (`col[nnz] = (r + 97 * b) % n`). simulate keeps such values of
  /// the containers later read as indexes or bounds (docs/register-model.md, "Values the program stored").
  std::optional<sym::Expr> storedFormula;
};

enum class AllocFunction { Malloc, Calloc, Realloc, AlignedAlloc, PosixMemalign, StackArray, StaticArray };
std::string_view toString(AllocFunction f);

struct Alloc {
  ContainerRef container;  // the allocation site (Local), or a global pointer's container
  AllocFunction function = AllocFunction::Malloc;
  sym::Expr sizeBytes = 0;
  std::int64_t alignment = 16;
  std::optional<ContainerRef> reallocFrom;
  SourceLoc loc;
};

struct Free {
  ContainerRef container;
  SourceLoc loc;
};

struct Node;
using Block = std::vector<Node>;

enum class Comparison { Less, LessEqual, Greater, GreaterEqual, NotEqual };

/// A local scalar whose value one iteration of a loop hands to the next (read in the body
/// before the body writes it), classified as the vectorisers classify loop-carried values
/// (frontend/carried_scalars.cpp).
struct CarriedScalar {
  enum class Kind {
    IntegerReduction,  // s = s op e (op +, -, *, &, |, ^), s read nowhere else in the loop
    FloatReduction,    // the same on a floating-point s (reassociation needs -ffast-math)
    FirstOrder,        // a recurrence whose new value does not depend on any carried value: prev = a[i]
    Recurrence,        // any other: y = a[i] + b * y, or through a store and a reload of it
  };
  std::string name;
  Kind kind = Kind::Recurrence;
  bool operator==(const CarriedScalar&) const = default;
};
std::string_view toString(CarriedScalar::Kind kind);
std::optional<CarriedScalar::Kind> parseCarriedKind(std::string_view text);

/// A local integer one iteration hands to the next whose value the analysis can still compute
/// from data: "variable" (the unknown standing for it in the body) holds "start" in the first
/// iteration and "next" (a formula of "variable", the iterator and loads) in each following one.
/// Analysis treats "variable" as any unknown; simulate evaluates it (docs/register-model.md,
/// "Values carried from one iteration to the next").
struct Recurrence {
  sym::Symbol variable;
  sym::Expr start = 0;
  sym::Expr next = 0;
};

/// for (iterator = start; iterator <cmp> bound; iterator += step). Opaque loops have no iterator.
struct Loop {
  std::optional<sym::Symbol> iterator;
  std::string iteratorName;
  sym::Expr start = 0;
  sym::Expr bound = 0;
  Comparison comparison = Comparison::Less;
  sym::Expr step = 1;
  bool parallel = false;
  /// Parallel loops: how OpenMP deals the iterations to threads. 0: contiguous blocks, one per
  /// thread (no schedule clause, or schedule(static)); c > 0: schedule(static, c), chunks of c
  /// iterations dealt round-robin; -1: any other schedule (dynamic, guided, auto, runtime, or a
  /// chunk that is not a constant), which no static model can replay.
  std::int64_t scheduleChunk = 0;
  std::string opaqueReason;           // non-empty for loops that fit no pattern
  std::vector<sym::Symbol> varying;   // unknowns standing for variables the body changes
  bool hasEarlyExit = false;          // break/return/goto inside: trip count is an upper bound
  std::vector<CarriedScalar> carried;  // local scalars carried across iterations (also through inner loops)
  std::vector<Recurrence> recurrences;  // carried integers whose value follows from data
  /// Loops whose trip count is unknown: the condition, tested before every iteration, in the
  /// symbols of the top of an iteration (the recurrences' variables among them); True: none.
  sym::Condition test;
  bool testAfterBody = false;  // a do-while's test: the first iteration always runs
  Block header;                       // accesses of the condition, evaluated every iteration
  Block body;
  SourceLoc loc;

  bool isOpaque() const { return !opaqueReason.empty(); }
  /// Exclusive end in the direction of the step (bound+1 for <=, bound-1 for >=).
  sym::Expr end() const;
  /// Iterations as a formula, max(0, ...) implied; Unknown-free only for fitting loops.
  sym::Expr tripCount() const;
};

struct Arm {
  std::string label;        // "then", "else", "case 3", ...
  sym::Condition condition;
  Block body;
};

struct Branch {
  std::vector<Arm> arms;
  bool isConditionalExpression = false;  // from ?: rather than if/else
  SourceLoc loc;
};

struct Argument {
  enum class Kind { Scalar, Pointer, Unknown };
  Kind kind = Kind::Unknown;
  sym::Expr value = 0;         // Scalar: the value; Pointer: byte offset from the container base
  ContainerRef container;      // Pointer only
  /// `&p` of a local pointer `p`: the call-site container `p` points to after the call, which
  /// an allocation wrapper storing through this argument allocates (link_allocations.cpp).
  std::optional<ContainerRef> pointee;
  /// A function passed by name (`f`, `&f`): calls through the parameter may go to it.
  std::string function;
};

struct Call {
  std::string callee;
  std::vector<Argument> arguments;
  /// The call-site container a returned pointer points to (Local), for callees returning pointers.
  std::optional<ContainerRef> result;
  /// A call through pointer parameter k of the calling function: `callee` is empty until
  /// link_function_pointers.cpp resolves it from what the callers pass (only it sees this).
  std::optional<std::size_t> throughParameter;
  SourceLoc loc;
};

struct ParallelRegion {
  Block body;
  SourceLoc loc;
};

struct Node {
  std::variant<Access, Alloc, Free, Loop, Branch, Call, ParallelRegion> value;
};

struct Parameter {
  std::string name;
  bool isPointer = false;
  sym::Symbol symbol;                     // scalar value, or the container identity for pointers
  std::optional<std::size_t> container;   // index into Function::locals describing the pointee
};

/// What a compiler's inliner looks at (sim/compiler): linkage, inline hints and a size.
struct FunctionTraits {
  bool isStatic = false;        // internal linkage: the unit sees every call
  bool declaredInline = false;  // the `inline` keyword
  bool alwaysInline = false;    // __attribute__((always_inline))
  bool noInline = false;        // __attribute__((noinline))
  std::size_t statements = 0;   // statements and expressions in the body: a size estimate
  std::size_t operations = 0;   // the same after simplification: repeats once, constants free, small loops unrolled
  bool operator==(const FunctionTraits&) const = default;
};

struct Function {
  std::string name;
  FunctionTraits traits;
  std::vector<Parameter> params;
  std::vector<Container> locals;  // stack arrays, heap sites, pointee descriptions of params
  Block body;
  /// Where the function's results point, for recognising allocation wrappers: the container every
  /// returned pointer points to at offset 0, and (parameter, container) for pointers to a
  /// container stored at offset 0 of `*parameter`. Refs are Local (or Parameter) of this function.
  std::optional<ContainerRef> returned;
  std::vector<std::pair<std::size_t, ContainerRef>> storedThrough;
  SourceLoc loc;
};

enum class Severity { Note, Warning, Error };
std::string_view toString(Severity s);

struct Diagnostic {
  Severity severity = Severity::Warning;
  SourceLoc loc;
  std::string message;
  std::string str() const;  // file:line:col: warning: message
};

struct Program {
  std::vector<Container> globals;
  std::vector<Function> functions;
  std::vector<Diagnostic> diagnostics;
  std::vector<std::string> files;  // translation units analysed
  std::map<std::string, std::int64_t> defaults;  // initial values of non-const global integers (parameters)

  const Function* findFunction(const std::string& name) const;
};

}  // namespace cats::ir
