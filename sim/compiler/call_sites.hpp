// The call structure of a contexts trace as the interprocedural decisions read it: which
// Call scopes enter each function, from how many source call sites, and which function body
// (entered by a Call or an entry Function scope) a scope lies in. Private to sim/compiler.
#pragma once

#include "tracer/trace.hpp"

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace cats::sim::compiler {

struct CallSites {
  explicit CallSites(const trace::Trace& contexts);

  const trace::Trace& contexts;
  std::map<std::string, std::vector<std::size_t>> callsOf;  // callee -> its contexts Call scopes, in order
  std::map<std::string, std::set<std::size_t>> sitesOf;    // callee -> its source call sites (summary Call ids)

  /// The Call or Function scope that entered the body "scope" lies in ("scope" itself if it is one).
  std::size_t entryOf(std::size_t scope) const;
  /// "scope" lies in main, or in a function called from one site that lies there, and (unless
  /// "evenInLoops") in no loop on the way. GCC knows main runs once: its early inliner treats
  /// every call there as cold, its -O1 inliner only calls outside loops (measured).
  bool runsOnce(std::size_t scope, bool evenInLoops) const;
  /// Source call sites of "callee" ("called from 2 sites").
  std::size_t sites(const std::string& callee) const;
};

}  // namespace cats::sim::compiler
