// The tracer: summarises every function the entry points reach, once, into the
// deduplicated, classified symbolic trace (TraceForm::Summaries).
#pragma once

#include "ir/ir.hpp"
#include "symbolic/budget.hpp"
#include "tracer/trace.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace cats::trace {

struct TracerOptions {
  std::vector<std::string> entries;             // --entry; empty: main, else every uncalled function
  std::map<std::string, std::string> bindings;  // -D NAME=VALUE: free symbols called NAME take VALUE
  sym::Budget budget;
};

/// An --entry that names no analysed function.
class EntryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Summarises "program" (whose expressions use the symbols of "ctx"). The returned trace owns
/// a copy of the context that also holds the symbols the tracer created.
Trace buildSummaries(const ir::Program& program, const sym::Context& ctx, const TracerOptions& options);

/// The summaries expanded into every calling context (expandContexts with no limit): the
/// trace as the concretiser reads it.
Trace buildTrace(const ir::Program& program, const sym::Context& ctx, const TracerOptions& options);

/// Entry points per the rule above, in source order.
std::vector<std::string> entryPoints(const ir::Program& program, const std::vector<std::string>& requested);

}  // namespace cats::trace
