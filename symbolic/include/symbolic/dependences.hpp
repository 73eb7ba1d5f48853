// Data dependences of a set of statements as pure math (docs/polyhedral.md, "Dependences"):
// flow, anti and output dependences at element granularity computed by isl's dataflow analysis
// (compute_flow), their distance/direction vectors on the loops two statements share, and what
// they mean for each loop (parallel, reduction, carried) and each nest (interchange, tiling).
// The program-level glue (trace statements -> these inputs) lives with the trace; no isl type
// appears here.
#pragma once

#include "symbolic/polyhedral.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cats::sym {

enum class DepAccessKind { Read, MustWrite, MayWrite };

/// One access of a statement: the element "subscripts" (outermost first, affine in the
/// statement's domain dimensions and parameters) of "container". A scalar has one subscript 0.
struct DepAccess {
  std::string container;
  DepAccessKind kind = DepAccessKind::Read;
  std::vector<Expr> subscripts;
  /// Identical accesses of one iteration folded into this one (the trace folds them even across
  /// source lines): a folded read of an accumulator means something else reads it too.
  std::size_t multiplicity = 1;
};

/// A statement executed once per point of "domain", at 2d+1 "schedule" time
/// [position, i1, position, i2, ..., position] (program order, positions are numbers);
/// "loops" are ids of its enclosing loops, outermost first (one per domain dimension, so
/// statements sharing a loop share a prefix of ids).
struct DepStatement {
  std::string name;
  IntegerSet domain;
  std::vector<Expr> schedule;
  std::vector<std::size_t> loops;
  std::vector<DepAccess> accesses;
};

enum class DependenceKind { Flow, Anti, Output };
std::string_view toString(DependenceKind kind);

/// A component of a distance vector: the sink's iteration minus the source's on one loop.
/// "value" when it is one number; otherwise "direction" is "<" (always positive), ">" (always
/// negative), "<=" / ">=" (never negative / never positive) or "*" (either sign).
struct Distance {
  std::optional<std::int64_t> value;
  std::string direction;

  bool nonNegative() const { return value ? *value >= 0 : direction == "<" || direction == "<="; }
  std::string str() const { return value ? std::to_string(*value) : direction; }
};

/// A dependence from access "sourceAccess" of statement "source" to access "sinkAccess" of
/// statement "sink" (indices into the inputs), carried by the common loop "level" (0 =
/// outermost common loop) or loop-independent (no level: same iteration of every common loop).
/// One isl dependence relation split by level gives one Dependence per level it occurs at.
struct Dependence {
  DependenceKind kind = DependenceKind::Flow;
  std::size_t source = 0, sourceAccess = 0;
  std::size_t sink = 0, sinkAccess = 0;
  std::string container;
  std::optional<std::size_t> level;
  std::vector<Distance> distance;  // one per common loop, outermost first
  /// The distance on the first loop after the common ones, when both statements have one: how
  /// the two loops' iterations would line up if they were fused.
  std::optional<Distance> next;
};

/// What one loop (an id of DepStatement::loops) carries.
struct LoopDependences {
  std::size_t loop = 0;
  std::size_t depth = 0;              // 0 = outermost
  std::vector<std::size_t> carried;   // indices into Dependences::dependences
  bool parallel = false;              // carries nothing
  bool reduction = false;             // carries only the updates of accumulators (see reductionElement)
};

/// A band of perfectly nested loops from the outermost loop of a nest (each loop's only child is
/// the next), with the legality of reordering them.
struct NestLegality {
  std::vector<std::size_t> band;           // loop ids, outermost first
  bool permutable = false;                 // every dependence inside the band is non-negative on it: tiling legal
  std::vector<bool> interchangeLegal;      // band[k] <-> band[k+1]
};

/// Two adjacent nests (outermost loops "first" then "second" under one parent) that could be
/// fused: their outer loops run over the same range and no dependence goes backwards.
struct FusionCandidate {
  std::size_t first = 0, second = 0;  // loop ids
  std::vector<std::string> shared;    // containers both nests access, sorted
  bool sameBounds = false;
  bool legal = false;                 // no dependence from first to second would be reversed
  std::string reason;                 // why not legal / not candidate, empty when it is
};

struct Dependences {
  std::vector<Dependence> dependences;
  std::vector<LoopDependences> loops;          // every loop of the statements, by first appearance
  std::vector<NestLegality> nests;             // one per outermost loop
  std::vector<FusionCandidate> fusion;         // adjacent nests sharing a container
  std::vector<std::vector<std::size_t>> recurrences;  // statements in a dependence cycle (strong components)
  std::vector<std::size_t> nestOrder;          // outermost loops in a topological order of their dependences
  /// Statements (indices) that were left out, with why ("not affine: ...", isl's message).
  std::vector<std::pair<std::size_t, std::string>> skipped;
  bool approximate = false;  // something was left out or isl gave up
  std::string reason;        // why approximate (the first reason)
};

/// The dependences of "statements" (program order is given by their schedules). Never throws:
/// a statement isl cannot read is skipped with a reason, an exhausted isl budget (isl operations
/// per step, see isl_adapter::Ctx) makes the result approximate with the reason.
Dependences computeDependences(const std::vector<DepStatement>& statements, unsigned long maxOperations = 5'000'000);

/// The element a statement updates as an accumulator (`x = x op ...`: it reads and writes one
/// container at identical subscripts, each once), as an index into its accesses of the write;
/// none otherwise.
std::optional<std::size_t> reductionWrite(const DepStatement& statement, const std::string& container);

}  // namespace cats::sym
