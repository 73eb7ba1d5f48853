// Calling contexts on demand: the summaries expanded into one copy of every callee below each
// call path, which is what the concretiser and per-context statistics read.
#pragma once

#include "symbolic/budget.hpp"
#include "tracer/trace.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace cats::trace {

struct ExpansionLimits {
  sym::Budget budget;          // for re-classifying events in their context
  std::size_t maxEvents = 0;   // stop expanding past this many events (0: no limit)
  std::function<void(std::size_t)> progress;  // called with the events so far, every 65,536 events
};

/// Expands "summaries" (TraceForm::Summaries) from "entries" (empty: the trace's entries) into
/// TraceForm::Contexts: callee parameter containers become the caller's container plus offset,
/// integer parameters take the caller's values, callee locals are fresh per activation,
/// iterators that would capture a caller's are renamed, and every event is classified again
/// in its context. A call into a function already on the call path stops with a diagnostic;
/// so does the expansion when it reaches maxEvents. A trace already in contexts is returned as is.
Trace expandContexts(const Trace& summaries, const std::vector<std::string>& entries = {}, const ExpansionLimits& limits = {});

}  // namespace cats::trace
