// What the compiler knows as a number: its own constants, values that flow through inlined
// calls, and parameters interprocedural constant propagation fixes (GCC's ipa-cp clones,
// Clang's IPSCCP). Private to sim/compiler.
#pragma once

#include "call_sites.hpp"
#include "sim/compiler.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cats::sim::compiler {

/// An expression as the compiler sees it: a number, or why it is not one.
struct CompileTimeValue {
  std::optional<std::int64_t> number;
  std::string why;  // "n is a parameter of multiply, which is not inlined (called from 2 sites)"
};

class CompileTimeValues {
 public:
  /// "calls": the inlining decisions, one per Call scope of sites.contexts in scope order.
  CompileTimeValues(const CallSites& sites, const std::vector<CallDecision>& calls) : sites_(sites), calls_(calls) {}

  /// Fixes the parameters every out-of-line call passes as the same compile-time number
  /// (static functions: GCC -O2, Clang -O1; other functions: GCC -O3) and records them in the calls.
  void propagateConstants(const CompilerTarget& target, std::vector<CallDecision>& calls);

  /// "e" in the summary symbols of the body entered at Call or Function scope "entry".
  CompileTimeValue valueOf(const sym::Expr& e, std::size_t entry, int depth = 0) const;

 private:
  const CallSites& sites_;
  const std::vector<CallDecision>& calls_;
  std::map<std::string, std::map<std::size_t, std::int64_t>> constants_;  // function -> parameter index -> value

  const CallDecision* decision(std::size_t scope) const;
  CompileTimeValue symbolValue(const std::string& name, std::size_t entry, int depth) const;
  bool propagates(const CompilerTarget& target, const std::string& function) const;
};

/// One decision per Loop scope of sites.contexts: constantTrips and tripsReason. An OpenMP
/// parallel loop's trips are never constant (each thread's share is computed at run time)
/// unless "target" ignores the pragmas.
std::vector<LoopDecision> decideTrips(const CallSites& sites, const CompileTimeValues& values, const CompilerTarget& target);

}  // namespace cats::sim::compiler
