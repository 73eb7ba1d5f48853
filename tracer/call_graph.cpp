// Boost.Graph does the graph work: strong_components finds the recursions.
#include "call_graph.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include <algorithm>

namespace cats::trace {

namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

/* Callees (by name) of every Call node in "b", in order. */
void collectCalls(const ir::Block& b, std::vector<std::string>& out) {
  for (const auto& node : b) {
    if (const auto* c = std::get_if<ir::Call>(&node.value)) out.push_back(c->callee);
    else if (const auto* l = std::get_if<ir::Loop>(&node.value)) collectCalls(l->body, out);
    else if (const auto* br = std::get_if<ir::Branch>(&node.value)) {
      for (const auto& arm : br->arms) collectCalls(arm.body, out);
    } else if (const auto* p = std::get_if<ir::ParallelRegion>(&node.value)) collectCalls(p->body, out);
  }
}

}  // namespace

CallGraph::CallGraph(const ir::Program& program) : program_(program) {
  std::size_t n = program.functions.size();
  Graph graph(n);
  for (std::size_t f = 0; f < n; ++f) index_.emplace(program.functions[f].name, f);
  callees_.resize(n);
  selfCall_.assign(n, false);
  for (std::size_t f = 0; f < n; ++f) {
    std::vector<std::string> calls;
    collectCalls(program.functions[f].body, calls);
    for (const auto& name : calls) {
      std::size_t callee = indexOf(name);
      if (callee == n) continue;
      if (callee == f) selfCall_[f] = true;
      if (std::find(callees_[f].begin(), callees_[f].end(), callee) != callees_[f].end()) continue;
      callees_[f].push_back(callee);
      boost::add_edge(f, callee, graph);
    }
  }
  component_.resize(n);
  if (n) boost::strong_components(graph, boost::make_iterator_property_map(component_.begin(), boost::get(boost::vertex_index, graph)));
}

std::size_t CallGraph::indexOf(const std::string& name) const {
  auto it = index_.find(name);
  return it == index_.end() ? program_.functions.size() : it->second;
}

std::vector<std::size_t> CallGraph::reachable(const std::vector<std::string>& entries) const {
  std::vector<bool> seen(program_.functions.size(), false);
  std::vector<std::size_t> work;
  for (const auto& e : entries)
    if (std::size_t f = indexOf(e); f < seen.size() && !seen[f]) {
      seen[f] = true;
      work.push_back(f);
    }
  while (!work.empty()) {
    std::size_t f = work.back();
    work.pop_back();
    for (std::size_t c : callees_[f])
      if (!seen[c]) {
        seen[c] = true;
        work.push_back(c);
      }
  }
  std::vector<std::size_t> out;
  for (std::size_t f = 0; f < seen.size(); ++f)
    if (seen[f]) out.push_back(f);
  return out;
}

bool CallGraph::inRecursion(const std::string& caller, const std::string& callee) const {
  std::size_t a = indexOf(caller), b = indexOf(callee);
  if (a == component_.size() || b == component_.size()) return false;
  if (a == b) return selfCall_[a];
  return component_[a] == component_[b];
}

}  // namespace cats::trace
