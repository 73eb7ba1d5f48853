// The polyhedral model of a trace (pet's pet_scop is the pattern): statements with iteration
// domains, a schedule in program order, and access relations with per-dimension subscripts.
// Built from the contexts form (every call expanded), in the program's parameter symbols.
// Accesses the model cannot describe (indirect, unknown, data-dependent bounds) stay out, each
// with a reason; coverage says how much of the program the model describes.
#pragma once

#include "symbolic/polyhedral.hpp"
#include "tracer/trace.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cats::trace {

enum class PolyAccessKind { Read, MustWrite, MayWrite };
std::string_view toString(PolyAccessKind kind);

/// One access of a statement: element "subscripts" (outermost first) of "container", in the
/// statement's domain dimensions and the parameters. A scalar (or a container without
/// dimensions) has one subscript: the element index (byte offset / element bytes) when that is
/// affine.
struct PolyAccess {
  std::size_t event = 0;  // index into Trace::events
  std::size_t container = 0;
  PolyAccessKind kind = PolyAccessKind::Read;
  std::vector<sym::Expr> subscripts;
  /// Extents of the dimensions "subscripts" index, outermost first (the outermost may be 0 =
  /// unknown, e.g. behind a pointer), and the bytes of one element of the innermost.
  std::vector<sym::Expr> extents;
  std::int64_t elementBytes = 1;
  std::int64_t bytes = 0;
  std::size_t multiplicity = 1;  // identical accesses of one iteration (Event::multiplicity)
  bool loopHeader = false;       // evaluated once more than the loop's iterations (the exit test)
};

/// Consecutive access events of one scope from one source line: executed together once per
/// point of "domain".
struct PolyStatement {
  std::size_t id = 0;
  std::string name;  // "S0", "S1", ... in program order
  std::size_t scope = 0;
  std::string function;
  ir::SourceLoc loc;
  std::vector<std::size_t> loops;  // enclosing loop scopes, outermost first (one domain dim each)
  sym::IntegerSet domain;          // dims: the loops' iterators
  /// 2d+1 program-order schedule: [position in the root, i1, position in loop 1, i2, ..., position].
  std::vector<sym::Expr> schedule;
  std::vector<PolyAccess> accesses;
  /// The domain is exact; false when a data-dependent branch guards it (the domain is then the
  /// set where it may run, and its writes are may-writes).
  bool exactDomain = true;
};

/// An access event the model does not describe, and why ("indirect subscript via col",
/// "loop bound depends on data", "non-affine subscript i*i", ...).
struct NonAffineAccess {
  std::size_t event = 0;
  std::string reason;
};

struct PolyModel {
  std::vector<sym::Symbol> params;  // parameters of all domains, sorted by name
  std::vector<PolyStatement> statements;
  std::vector<NonAffineAccess> nonAffine;
  /// Source accesses in statements / all source accesses, each counted once per trace event
  /// (a branch arm whose condition is a union is one statement per disjoint piece, so one event
  /// may be in several statements, with disjoint domains; its count is their sum).
  double coverage() const;
};

/// The model of "contexts" (TraceForm::Contexts, as expandContexts makes it). Never throws on
/// an unsupported construct: it becomes a NonAffineAccess.
PolyModel buildPolyModel(const Trace& contexts);
/// "model" as deterministic text (`analyze --dump model`): statements with domain, schedule and
/// accesses, then the non-affine accesses with their reasons, then the coverage.
std::string dumpPolyModel(const PolyModel& model, const Trace& contexts);

}  // namespace cats::trace
