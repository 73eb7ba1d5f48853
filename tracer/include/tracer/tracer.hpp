// The tracer: walks the IR from the entry points, binding call arguments to parameters,
// and emits the deduplicated, classified symbolic trace.
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

/// Traces "program" (whose expressions use the symbols of "ctx"). The returned trace owns a
/// copy of the context that also holds the symbols the tracer created.
Trace buildTrace(const ir::Program& program, const sym::Context& ctx, const TracerOptions& options);

/// Entry points per the rule above, in source order.
std::vector<std::string> entryPoints(const ir::Program& program, const std::vector<std::string>& requested);

}  // namespace cats::trace
