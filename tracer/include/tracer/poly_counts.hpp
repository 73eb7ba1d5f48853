// Count and footprint formulas of a program (`analyze --counts`, and the predicted side of
// `scale`): per access, statement, loop, function and container, executions, bytes, distinct
// elements and distinct cache lines as piecewise quasi-polynomials of the parameters, from the
// polyhedral model and the counting formulas (symbolic/polyhedral.hpp). Derived once; evaluated
// at any parameter values.
#pragma once

#include "symbolic/polyhedral.hpp"
#include "tracer/poly_model.hpp"
#include "tracer/trace.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cats::trace {

/// A sum of piecewise counts ("terms"), or no formula ("reason" says why).
struct CountFormula {
  std::vector<sym::PiecewiseCount> terms;
  bool available = true;
  bool exact = true;   // every term is exact where its pieces hold
  std::string reason;  // why there is no formula, or where it approximates

  static CountFormula none(std::string why);
  /// "this + other"; no formula when either has none.
  CountFormula& operator+=(const CountFormula& other);
  /// Every term times "factor" (bytes per access, accesses per execution).
  CountFormula scaled(std::int64_t factor) const;
  /// The value at "values"; nullopt without a formula, with a parameter unbound, or when a term
  /// reaches 2^62 (a 64-bit value could wrap).
  std::optional<std::int64_t> evaluate(const sym::ParamValues& values) const;
  /// One line: the terms added into one expression when their pieces agree, else joined by
  /// " + "; "(no formula: reason)" without one.
  std::string str() const;
};

enum class CountLevel { Access, Statement, Loop, Function, Container };
std::string_view toString(CountLevel level);

struct CountRecord {
  CountLevel level = CountLevel::Access;
  std::string name;                // "S3 A[i][k] read", "loop k at f.c:13 in multiply", "multiply", "A"
  ir::SourceLoc loc;
  std::vector<std::size_t> events;  // the access events it sums over
  CountFormula executions;  // source-level accesses (loop tests and repeated accesses included)
  CountFormula bytes;
  CountFormula elements;    // distinct elements touched
  CountFormula lines;       // distinct cache lines of "ProgramCounts::lineBytes" touched
  // Access records: the container and what identifies the elements touched (container, domain,
  // subscripts): accesses with equal keys touch the same elements.
  std::size_t container = 0;
  std::string imageKey;
};

struct ProgramCounts {
  std::int64_t lineBytes = 64;
  std::vector<sym::Symbol> params;
  std::vector<CountRecord> records;  // accesses, statements, loops, functions, containers in that order
  double coverage = 1.0;             // the model's share of source accesses
  std::vector<std::string> notes;    // limits that apply to every formula (line-aligned bases, ...)
};

/// Every record of "contexts" (as expandContexts makes it) whose model is "model". Accesses the
/// model does not describe have no formula (with the reason), and neither has any record that
/// holds one. Never throws.
ProgramCounts deriveCounts(const Trace& contexts, const PolyModel& model, std::int64_t lineBytes, const sym::CountLimits& limits = {});

/// The record of any set of access "events" of "counts": executions and bytes add up; elements
/// and lines are a union per container, with a formula when each container's accesses all touch
/// the same image. No formula when an event has none.
CountRecord sumEvents(const ProgramCounts& counts, CountLevel level, const std::string& name, const std::vector<std::size_t>& events);

}  // namespace cats::trace
