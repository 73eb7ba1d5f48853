// The compiler model (docs/register-model.md): what GCC or Clang at a given -O level and -march
// does to the program before it runs — which calls it inlines, which loop bounds and pointers it
// can see through, which loops it vectorises, which accesses stay in registers — decided on the
// contexts trace before concretisation, or read from the compiler's own optimisation reports
// (--compile-cmd) where they speak. Every decision says where it came from and why.
#pragma once

#include "ir/ir.hpp"
#include "tracer/trace.hpp"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace cats::sim {

enum class CompilerKind { Gcc, Clang };
std::string_view toString(CompilerKind kind);

struct CompilerTarget {
  CompilerKind compiler = CompilerKind::Gcc;
  int optLevel = 2;             // 0..3
  int vectorBytes = 16;         // SSE2, the x86-64 baseline; 32 with AVX2 (-march=x86-64-v3, native)
  bool fastMath = false;        // -ffast-math: floating-point reductions may be reordered
  bool inlining = true;         // -fno-inline turns it off
  bool vectorize = true;        // -fno-tree-vectorize (GCC), -fno-vectorize (Clang) turn it off
  bool distributePatterns = true;  // -fno-tree-loop-distribute-patterns: no memset/memcpy for loops
  bool openmp = true;           // OpenMP pragmas honoured, as the frontend reads them (-fopenmp); -fno-openmp ignores them
  std::string march = "x86-64";
  std::vector<std::string> ignoredFlags;  // flags of --cflags the model does not know
  std::string label() const;    // "gcc -O2", "clang -O3 -march=x86-64-v3 -fno-inline"
};

/// From --compiler (gcc|clang), -O (0-3) and the flags of --cflags ("-O3 -march=native
/// -fno-inline"; -O and -march there too); a usage message on a bad value.
std::variant<CompilerTarget, std::string> parseCompilerTarget(const std::string& compiler, const std::string& level,
                                                              const std::string& flags);

enum class DecisionSource { Model, Report };  // our model, or the compiler's own report (--compile-cmd)
std::string_view toString(DecisionSource source);

/// One Call scope of the contexts trace: inlined into its caller, or a real call.
struct CallDecision {
  std::size_t scope = 0;
  bool inlined = false;
  std::vector<std::string> constantParameters;  // integer parameters the compiler propagates as constants
  std::string reason;                           // "static, called once", "noinline", "too large (143 statements)"
  DecisionSource source = DecisionSource::Model;
};

/// What the compiler does with one Loop scope of the contexts trace.
struct LoopDecision {
  std::size_t scope = 0;
  bool constantTrips = false;      // trip count known when compiling (own constants, inlining, constant propagation)
  std::string tripsReason;         // why (not): "bound n is a parameter of multiply, which is not inlined"
  int vectorFactor = 1;            // source iterations per vector iteration (1: scalar, or SLP of one iteration)
  int vectorBytes = 0;             // the vector size used (GCC falls back to 16 on AVX2 when 32 does not fit); 0: scalar
  int interleave = 1;              // vector iterations unrolled together (Clang)
  bool runtimeAliasCheck = false;  // versioned: a run-time overlap check selects the vector loop
  bool scalarEpilogue = false;     // trips % (vectorFactor * interleave) iterations run scalar after it
  bool slp = false;                // straight-line code of the body packed into vectors
  bool inOrderReduction = false;   // a floating-point reduction kept in source order (GCC's fold-left)
  bool vectorLoads = false;        // ... whose loads are vectors all the same (the reduced value combines several loads)
  std::string replacedBy;          // "memset" or "memcpy": the loop became a library call (sim/compiler/idioms.cpp)
  bool removed = false;            // ... which the compiler then drops: a dead store, or folded into calloc (reason says)
  std::optional<std::size_t> copiesFrom;  // memcpy reading what the memcpy loop of this scope just copied: reads its source (Clang's MemCpyOpt)
  std::string reason;              // why (not) vectorised, in words
  DecisionSource source = DecisionSource::Model;
};

/// What the compiler does with one access event of the contexts trace.
struct AccessDecision {
  enum class Kind {
    Memory,    // every execution reaches memory
    Merged,    // the same address earlier in the iteration: one access (common subexpression)
    Promoted,  // kept in a register across a loop: loaded before it, stored after it
    Reloaded,  // invariant, but a store in the loop may alias it: reloaded every iteration
    Reused,    // a read of an address read or written earlier in the iteration: the value is in a register
    Sunk,      // a store every arm of a complete if/else makes: one store after the branch
  };
  std::size_t event = 0;
  Kind kind = Kind::Memory;
  std::optional<std::size_t> loop;  // Promoted/Reloaded: the loop scope it is invariant in
  std::string reason;
};
std::string_view toString(AccessDecision::Kind kind);

/// A malloc block the compiler allocates with calloc: its first use, a loop storing zero over
/// all of it in the same compiled function, becomes memset and then part of calloc.
struct CallocFold {
  std::size_t alloc = 0;  // the malloc event
  std::size_t store = 0;  // the zero store event, no longer executed by the loop
  std::string reason;
};

/// A byte-splat store split out of a loop nest that also does other work: GCC's loop
/// distribution and Clang's loop idiom recognition make it one memset over the bytes the nest
/// stores, the rest of the nest staying a loop (bench/fidelity-corpus/conv2d.c's `out[i][j] = 0`).
struct DistributedStore {
  std::size_t store = 0;  // the store event, no longer executed by the loop
  std::size_t nest = 0;   // the outermost Loop scope the memset covers
  bool before = true;     // the memset runs before the nest (Clang always; GCC in statement order)
  std::string reason;
};

/// Every decision for one contexts trace and target.
struct CompilationPlan {
  CompilerTarget target;
  std::vector<CallDecision> calls;       // one per Call scope, in scope order
  std::vector<LoopDecision> loops;       // one per Loop scope, in scope order
  std::vector<AccessDecision> accesses;  // only accesses that do not simply reach memory
  std::vector<CallocFold> callocs;       // malloc + zeroing loop folded into calloc
  std::vector<DistributedStore> distributed;  // stores split out of their loops as memset calls
  std::vector<std::string> notes;        // modelling choices worth saying once

  const CallDecision* call(std::size_t scope) const;
  const LoopDecision* loop(std::size_t scope) const;
  /// The function "scope" is compiled into: the nearest enclosing function entered by a call
  /// that is not inlined (what a profiler of the binary names; clones keep the source name).
  std::string compiledFunction(const trace::Trace& contexts, std::size_t scope) const;
  /// The same for access event "event": "memset" for a store split out of its loop.
  std::string compiledFunctionOfEvent(const trace::Trace& contexts, std::size_t event) const;
  /// The library function ("memset", "memcpy") a loop around "scope" became, if any: the
  /// binary runs that code there, and a profiler names it.
  std::optional<std::string> replacedBy(const trace::Trace& contexts, std::size_t scope) const;
};

/// What the compiler's own optimisation reports said, by source position (--compile-cmd).
struct ReportedLoop {
  ir::SourceLoc loc;        // the loop's position as the compiler prints it (line, maybe column)
  bool vectorized = false;
  int vectorFactor = 0;     // 0: the report did not say
  int interleave = 0;
  int vectorBytes = 0;      // GCC: "using 16 byte vectors" (the factor then follows from the element size)
  bool versioned = false;   // "versioned for alias" / run-time checks
  bool saysVersioning = false;  // the compiler reports versioning (GCC); Clang's remarks do not say
  bool straightLine = false;    // SLP: "loc" is a statement packed into vectors, not a loop
  std::string text;         // the report line
};
struct ReportedCall {
  ir::SourceLoc loc;  // the call site
  std::string caller, callee;
  bool inlined = false;
  std::string text;
};
struct ReportedDecisions {
  std::string command;  // what was run
  std::vector<ReportedLoop> loops;
  std::vector<ReportedCall> calls;
};

/// Decides everything for "contexts" (TraceForm::Contexts) compiled for "target", taking the
/// reported decisions first where they name a loop or call and the model elsewhere.
CompilationPlan planCompilation(const trace::Trace& contexts, const CompilerTarget& target,
                                const ReportedDecisions* reported = nullptr);

}  // namespace cats::sim
