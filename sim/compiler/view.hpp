// The compiler's view of the program after inlining and interprocedural constant propagation:
// which calls disappear, which loop bounds become numbers, which pointers it can tell apart.
// The loop decisions (vectoriser, promotion) build on it. Private to sim/compiler.
#pragma once

#include "sim/compiler.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace cats::sim::compiler {

struct CompilerView {
  std::vector<CallDecision> calls;  // one per Call scope, in scope order
  std::vector<LoopDecision> loops;  // one per Loop scope, in scope order; constantTrips and tripsReason filled
  /// Per event of the contexts trace: the memory object an access names as the compiler sees
  /// it (a container id), or none for memory reached through a pointer it cannot follow (a
  /// pointer parameter of a function that stays a function, a pointer loaded from memory).
  std::vector<std::optional<std::size_t>> objectOf;
  /// Per event: reached through a `restrict` pointer (promises no other access aliases it).
  std::vector<bool> restrictPointer;
  /// Per event: the type it reads or writes, qualifiers and signedness dropped ("double", "int").
  std::vector<std::string> accessTypes;
  /// Type-based aliasing is on (GCC -O2 and up, Clang -O1 and up, unless -fno-strict-aliasing):
  /// a `double` access and an `int` access never overlap.
  bool strictAliasing = false;

  /// Whether the compiler must assume access events "a" and "b" may touch the same memory.
  bool mayAlias(const trace::Trace& contexts, std::size_t a, std::size_t b) const;
};

CompilerView viewOfCompiler(const trace::Trace& contexts, const CompilerTarget& target);

/// The decision of "scope" in "decisions" (sorted by scope: one per Call or Loop scope), if any.
template <typename Decisions>
auto findByScope(Decisions& decisions, std::size_t scope) -> decltype(&decisions.front()) {
  auto it = std::lower_bound(decisions.begin(), decisions.end(), scope, [](const auto& d, std::size_t s) { return d.scope < s; });
  return it != decisions.end() && it->scope == scope ? &*it : nullptr;
}

/// The scope "scope" is compiled in: the nearest enclosing Function scope or Call scope whose
/// call is not inlined (0 when there is none).
std::size_t compiledEntry(const trace::Trace& contexts, const std::vector<CallDecision>& calls, std::size_t scope);

}  // namespace cats::sim::compiler
