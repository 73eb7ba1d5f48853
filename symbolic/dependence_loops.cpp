// Per-loop and per-nest conclusions from the dependences. Boost.Graph does the graph work: strong
// components of the statement graph are the recurrences, a topological order of the nest graph is
// the order fusion must respect.
#include "dependence_loops.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/graph/topological_sort.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace cats::sym::deps_detail {

namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

struct LoopInfo {
  std::size_t id = 0;
  std::size_t depth = 0;
  std::optional<std::size_t> parent;
  std::int64_t position = 0;           // among the parent's children (schedule position)
  std::vector<std::size_t> statements;  // inside it, at any depth
  std::vector<std::size_t> children;    // loops directly inside, by first appearance
};

/// The loop tree of the statements, loops by first appearance.
struct LoopTree {
  std::vector<LoopInfo> loops;
  std::map<std::size_t, std::size_t> index;  // loop id -> position in "loops"

  const LoopInfo& at(std::size_t id) const { return loops[index.at(id)]; }
};

std::int64_t position(const DepStatement& s, std::size_t k) {
  if (k >= s.schedule.size()) return 0;
  return toInteger(s.schedule[k]).value_or(0);
}

LoopTree buildTree(const std::vector<DepStatement>& statements, const std::set<std::size_t>& skipped) {
  LoopTree tree;
  for (std::size_t s = 0; s < statements.size(); ++s) {
    if (skipped.count(s)) continue;
    const auto& loops = statements[s].loops;
    for (std::size_t d = 0; d < loops.size(); ++d) {
      auto [it, added] = tree.index.emplace(loops[d], tree.loops.size());
      if (added) {
        LoopInfo info;
        info.id = loops[d];
        info.depth = d;
        if (d) info.parent = loops[d - 1];
        info.position = position(statements[s], 2 * d);
        tree.loops.push_back(info);
        if (d) tree.loops[tree.index.at(loops[d - 1])].children.push_back(loops[d]);
      }
      tree.loops[it->second].statements.push_back(s);
    }
  }
  return tree;
}

bool inside(const DepStatement& s, const LoopInfo& loop) {
  return s.loops.size() > loop.depth && s.loops[loop.depth] == loop.id;
}

/* Whether every dependence loop "loop" carries updates one accumulator that nothing else in the
   loop touches (`x = x op ...`). */
bool onlyAccumulators(const std::vector<DepStatement>& statements, const Dependences& out, const LoopInfo& loop,
                      const std::vector<std::size_t>& carried) {
  for (std::size_t k : carried) {
    const Dependence& d = out.dependences[k];
    if (d.source != d.sink || !reductionWrite(statements[d.source], d.container)) return false;
    for (std::size_t s : loop.statements) {
      if (s == d.source) continue;
      for (const auto& a : statements[s].accesses)
        if (a.container == d.container) return false;
    }
  }
  return true;
}

void summariseLoops(const std::vector<DepStatement>& statements, const LoopTree& tree, Dependences& out) {
  for (const auto& loop : tree.loops) {
    LoopDependences l;
    l.loop = loop.id;
    l.depth = loop.depth;
    for (std::size_t k = 0; k < out.dependences.size(); ++k) {
      const Dependence& d = out.dependences[k];
      if (d.level && *d.level == loop.depth && inside(statements[d.source], loop)) l.carried.push_back(k);
    }
    l.parallel = l.carried.empty();
    l.reduction = !l.parallel && onlyAccumulators(statements, out, loop, l.carried);
    out.loops.push_back(std::move(l));
  }
}

NestLegality bandLegality(const std::vector<DepStatement>& statements, const LoopTree& tree, const LoopInfo& outer,
                          const Dependences& out) {
  NestLegality nest;
  for (const LoopInfo* loop = &outer;; loop = &tree.at(loop->children.front())) {
    nest.band.push_back(loop->id);
    if (loop->children.size() != 1) break;
  }
  nest.permutable = true;
  nest.interchangeLegal.assign(nest.band.size() - 1, true);
  for (const auto& d : out.dependences) {
    if (!inside(statements[d.source], outer) || !inside(statements[d.sink], outer)) continue;
    std::size_t n = std::min(nest.band.size(), d.distance.size());
    for (std::size_t m = 0; m < n; ++m)
      if (!d.distance[m].nonNegative()) nest.permutable = false;
    if (d.level && *d.level + 1 < n && !d.distance[*d.level + 1].nonNegative()) nest.interchangeLegal[*d.level] = false;
  }
  return nest;
}

std::set<std::string> containersIn(const std::vector<DepStatement>& statements, const LoopInfo& loop) {
  std::set<std::string> out;
  for (std::size_t s : loop.statements)
    for (const auto& a : statements[s].accesses) out.insert(a.container);
  return out;
}

/* { [i0, ..., i(depth)] } over which "loop" and the loops around it run. */
isl::set iterationRange(const isl_adapter::Ctx& ctx, const std::vector<DepStatement>& statements, const LoopInfo& loop) {
  std::optional<isl::set> range;
  for (std::size_t s : loop.statements) {
    IntegerSet domain = statements[s].domain;
    domain.name.clear();
    isl::set points = isl_adapter::toSet(ctx, domain)
                          .apply(isl_adapter::projection(ctx, static_cast<unsigned>(domain.dims.size()), 0,
                                                         static_cast<unsigned>(loop.depth + 1)));
    range = range ? range->unite(points) : points;
  }
  return *range;
}

FusionCandidate fusion(const isl_adapter::Ctx& ctx, const std::vector<DepStatement>& statements, const LoopInfo& a,
                       const LoopInfo& b, const std::vector<std::string>& shared, const Dependences& out) {
  FusionCandidate f;
  f.first = a.id;
  f.second = b.id;
  f.shared = shared;
  f.sameBounds = iterationRange(ctx, statements, a).is_equal(iterationRange(ctx, statements, b));
  f.legal = true;
  for (const auto& d : out.dependences) {
    if (d.level || !inside(statements[d.source], a) || !inside(statements[d.sink], b)) continue;
    if (!d.next || !d.next->nonNegative()) {
      f.legal = false;
      f.reason = std::string(toString(d.kind)) + " dependence on " + d.container + " would be reversed (distance " +
                 (d.next ? d.next->str() : "?") + ")";
      break;
    }
  }
  if (!f.sameBounds && f.reason.empty()) f.reason = "the loops run over different ranges";
  return f;
}

void summariseFusion(const isl_adapter::Ctx& ctx, const std::vector<DepStatement>& statements, const LoopTree& tree,
                     const std::set<std::size_t>& skipped, Dependences& out) {
  std::map<std::optional<std::size_t>, std::vector<std::pair<std::int64_t, std::optional<std::size_t>>>> children;
  for (const auto& loop : tree.loops) children[loop.parent].emplace_back(loop.position, loop.id);
  for (std::size_t s = 0; s < statements.size(); ++s) {
    if (skipped.count(s)) continue;
    const auto& loops = statements[s].loops;
    std::optional<std::size_t> parent;
    if (!loops.empty()) parent = loops.back();
    children[parent].emplace_back(position(statements[s], 2 * loops.size()), std::nullopt);
  }
  for (auto& [parent, items] : children) {
    std::stable_sort(items.begin(), items.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (std::size_t k = 0; k + 1 < items.size(); ++k) {
      if (!items[k].second || !items[k + 1].second) continue;
      const LoopInfo& a = tree.at(*items[k].second);
      const LoopInfo& b = tree.at(*items[k + 1].second);
      std::set<std::string> ca = containersIn(statements, a), cb = containersIn(statements, b);
      std::vector<std::string> shared;
      std::set_intersection(ca.begin(), ca.end(), cb.begin(), cb.end(), std::back_inserter(shared));
      if (!shared.empty()) out.fusion.push_back(fusion(ctx, statements, a, b, shared, out));
    }
  }
}

void findRecurrences(std::size_t statementCount, Dependences& out) {
  Graph graph(statementCount);
  std::vector<bool> selfLoop(statementCount, false);
  for (const auto& d : out.dependences) {
    boost::add_edge(d.source, d.sink, graph);
    if (d.source == d.sink) selfLoop[d.source] = true;
  }
  std::vector<std::size_t> component(statementCount);
  if (statementCount)
    boost::strong_components(graph, boost::make_iterator_property_map(component.begin(), boost::get(boost::vertex_index, graph)));
  std::map<std::size_t, std::vector<std::size_t>> members;
  for (std::size_t s = 0; s < statementCount; ++s) members[component[s]].push_back(s);
  for (auto& [c, group] : members)
    if (group.size() > 1 || selfLoop[group.front()]) out.recurrences.push_back(group);
  std::sort(out.recurrences.begin(), out.recurrences.end());
}

void orderNests(const std::vector<DepStatement>& statements, const LoopTree& tree, Dependences& out) {
  std::vector<std::size_t> nests;
  std::map<std::size_t, std::size_t> vertex;
  for (const auto& loop : tree.loops)
    if (loop.depth == 0) {
      vertex.emplace(loop.id, nests.size());
      nests.push_back(loop.id);
    }
  Graph graph(nests.size());
  for (const auto& d : out.dependences) {
    const auto& a = statements[d.source].loops;
    const auto& b = statements[d.sink].loops;
    if (a.empty() || b.empty() || a.front() == b.front()) continue;
    boost::add_edge(vertex.at(a.front()), vertex.at(b.front()), graph);
  }
  std::vector<std::size_t> reversed;
  try {
    boost::topological_sort(graph, std::back_inserter(reversed));
  } catch (const boost::not_a_dag&) {
    out.nestOrder = nests;
    return;
  }
  for (auto it = reversed.rbegin(); it != reversed.rend(); ++it) out.nestOrder.push_back(nests[*it]);
}

}  // namespace

void summarise(const isl_adapter::Ctx& ctx, const std::vector<DepStatement>& statements, Dependences& out) {
  std::set<std::size_t> skipped;
  for (const auto& s : out.skipped) skipped.insert(s.first);
  LoopTree tree = buildTree(statements, skipped);
  summariseLoops(statements, tree, out);
  for (const auto& loop : tree.loops)
    if (loop.depth == 0) out.nests.push_back(bandLegality(statements, tree, loop, out));
  summariseFusion(ctx, statements, tree, skipped, out);
  findRecurrences(statements.size(), out);
  orderNests(statements, tree, out);
}

}  // namespace cats::sym::deps_detail
