// The dependences of a program (docs/polyhedral.md, "Dependences"): the polyhedral model's
// statements handed to the dependence math (symbolic/dependences.hpp), and its answers put back
// in the program's terms: functions, source lines, loop iterators, container names. Loops with
// accesses the model does not describe get no verdict but "unknown (reason)".
#pragma once

#include "tracer/poly_model.hpp"
#include "tracer/trace.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cats::trace {

/// One component of a distance vector: a number, or a direction "<", ">", "<=", ">=", "*".
struct DistanceComponent {
  std::optional<std::int64_t> value;
  std::string direction;
  std::string str() const { return value ? std::to_string(*value) : direction; }
};
/// "(0,0,1)"; "()" for statements that share no loop.
std::string distanceText(const std::vector<DistanceComponent>& distance);

struct StatementRef {
  std::size_t id = 0;  // PolyStatement::id
  std::string name;    // "S3"
  std::string function;
  ir::SourceLoc loc;
};

struct LoopRef {
  std::size_t scope = 0;
  std::string function;
  ir::SourceLoc loc;
  std::string iterator;
  std::string label() const;  // "k@mm.c:7"
};

struct DependenceEdge {
  std::string kind;  // flow, anti, output
  std::string container;
  std::size_t source = 0, sink = 0;  // indices into ProgramDependences::statements
  std::vector<DistanceComponent> distance;  // on the loops both statements share, outermost first
  std::optional<LoopRef> carriedBy;         // none: loop-independent
};

struct CarriedDependence {
  std::string container;
  std::string kind;
  std::vector<DistanceComponent> distance;
  std::size_t dependence = 0;  // index into ProgramDependences::dependences
};

struct LoopVerdict {
  LoopRef loop;
  bool parallel = false;
  bool reduction = false;
  std::vector<CarriedDependence> carried;  // one per (container, kind, distance): access pairs alike are listed once
  std::string unknown;  // non-empty: no verdict, and why (parallel and reduction are then false)
};

/// Orders verdicts from the weakest: illegal (0), unknown (1), legal (2). A fix made in several
/// calling contexts has the weakest of their verdicts.
inline int legalityRank(const std::optional<bool>& legal) { return !legal ? 1 : (*legal ? 2 : 0); }

struct NestVerdict {
  std::vector<LoopRef> band;              // perfectly nested loops from the outermost
  bool permutable = false;                // tiling legal
  std::vector<bool> interchangeLegal;     // band[k] <-> band[k+1]
  std::string unknown;                    // non-empty: the nest holds accesses the model does not describe
};

struct FusionVerdict {
  LoopRef first, second;
  std::vector<std::string> shared;  // containers
  bool sameBounds = false;
  bool legal = false;
  std::string reason;
  sym::Expr savedBytes = 0;  // estimate: the shared containers' sizes (read once instead of twice)
};

struct UnknownAccess {
  std::string function;
  ir::SourceLoc loc;
  std::string text;
  std::string reason;
};

struct ProgramDependences {
  std::vector<StatementRef> statements;
  std::vector<DependenceEdge> dependences;
  std::vector<LoopVerdict> loops;  // program order
  std::vector<NestVerdict> nests;
  std::vector<FusionVerdict> fusion;
  std::vector<std::vector<std::size_t>> recurrences;  // statement indices per strongly connected component
  std::vector<UnknownAccess> unknown;
  double coverage = 1.0;
  bool approximate = false;
  std::vector<std::string> reasons;  // why approximate
};

/// The dependences of "model" (built from "contexts").
ProgramDependences analyseDependences(const Trace& contexts, const PolyModel& model);

}  // namespace cats::trace
