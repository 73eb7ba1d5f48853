// The call graph of an IR program as a Boost.Graph adjacency list: which functions the entries
// reach, and the recursions (strongly connected components).
#pragma once

#include "ir/ir.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace cats::trace {

class CallGraph {
 public:
  explicit CallGraph(const ir::Program& program);

  /// Indices into program.functions reachable from "entries" (entries included), in source order.
  std::vector<std::size_t> reachable(const std::vector<std::string>& entries) const;
  /// True when a call from "caller" to "callee" stays inside one recursion (a cycle of calls).
  bool inRecursion(const std::string& caller, const std::string& callee) const;

 private:
  const ir::Program& program_;
  std::vector<std::vector<std::size_t>> callees_;
  std::vector<std::size_t> component_;
  std::vector<bool> selfCall_;
  std::map<std::string, std::size_t> index_;
  std::size_t indexOf(const std::string& name) const;
};

}  // namespace cats::trace
