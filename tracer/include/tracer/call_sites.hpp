// Where each summarised function is called from, and how many calling contexts it has: what the
// reports say instead of repeating a function's accesses once per context.
#pragma once

#include "tracer/trace.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cats::trace {

struct CallSite {
  std::string caller;
  ir::SourceLoc loc;
  bool recursive = false;  // the call stays inside a recursion
  std::string label() const;  // "main@12"
};

struct FunctionContexts {
  bool entry = false;
  std::vector<CallSite> sites;  // in trace order
  /// Call paths from the entries, calls inside a recursion not counted; saturates at UINT64_MAX.
  std::uint64_t contexts = 0;
  /// "entry", "called from main@12, solve@40 (+3)", with "; N contexts" when N differs from the sites.
  std::string summary(std::size_t shown = 3) const;
};

/// Per function of a summary trace (empty for a trace in contexts).
std::map<std::string, FunctionContexts> callSites(const Trace& summaries);

}  // namespace cats::trace
