// buildPolyModel: the contexts trace's scope tree walked in program order (the order
// sim/concretize.cpp gives it), consecutive access events of one scope and source line grouped
// into statements, domains from the enclosing loops and branch arms (poly_domain.cpp),
// subscripts checked for affinity (poly_affine.cpp), a 2d+1 schedule from the walk.
#include "tracer/poly_model.hpp"

#include "poly_affine.hpp"
#include "poly_domain.hpp"
#include "poly_subscripts.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace cats::trace {

std::string_view toString(PolyAccessKind kind) {
  switch (kind) {
    case PolyAccessKind::Read: return "read";
    case PolyAccessKind::MustWrite: return "must-write";
    case PolyAccessKind::MayWrite: return "may-write";
  }
  return "read";
}

double PolyModel::coverage() const {
  std::set<std::size_t> in, out;
  for (const auto& s : statements)
    for (const auto& a : s.accesses) in.insert(a.event);
  for (const auto& n : nonAffine) out.insert(n.event);
  std::size_t described = in.size(), all = described + out.size();
  return all == 0 ? 1.0 : static_cast<double>(described) / static_cast<double>(all);
}

namespace {

/// One child of a scope in program order: an event or a nested scope.
struct Item {
  std::size_t firstEvent;
  bool isScope;
  std::size_t index;
};

/// What the path from the root to a scope contributes to the domains below it.
struct Path {
  std::vector<std::size_t> loops;
  std::vector<sym::Symbol> dims;
  std::set<std::string> dimNames;
  std::map<std::string, const Scope*> loopsByIterator;
  std::vector<sym::Symbol> existentials;
  std::vector<sym::Constraint> constraints;
  std::vector<sym::Expr> schedule;  // [p0, i1, p1, ..., id] without the last position
  bool exact = true;
  std::optional<std::string> reason;  // why statements below have no affine domain
  std::size_t copies = 1;             // walks of this path: product of the pieces of the arms above
};

/// Most walks of one scope through the pieces of the branch arms above it; beyond, an arm is
/// over-approximated by its enclosing domain (inexact) so that nested guards cannot multiply
/// statements without bound.
constexpr std::size_t kMaxCopies = 64;

class Builder {
 public:
  explicit Builder(const Trace& t) : t_(t) {}

  PolyModel run() {
    buildChildren();
    std::size_t position = 0;
    Path root;
    walk(0, root, position);
    collectParams();
    return std::move(model_);
  }

 private:
  const Trace& t_;
  PolyModel model_;
  std::vector<std::vector<Item>> children_;
  std::set<std::size_t> listed_;  // events in model_.nonAffine

  /* Children of every scope, ordered by the first event of their subtree (as the concretiser). */
  void buildChildren() {
    std::size_t n = t_.scopes.size();
    std::vector<std::size_t> first(n, SIZE_MAX);
    for (std::size_t e = t_.events.size(); e-- > 0;)
      for (std::optional<std::size_t> s = t_.events[e].scope; s && *s < n; s = t_.scopes[*s].parent) first[*s] = e;
    children_.assign(n, {});
    for (std::size_t e = 0; e < t_.events.size(); ++e)
      if (t_.events[e].scope < n) children_[t_.events[e].scope].push_back({e, false, e});
    for (std::size_t s = 1; s < n; ++s)
      if (first[s] != SIZE_MAX && t_.scopes[s].parent) children_[*t_.scopes[s].parent].push_back({first[s], true, s});
    for (auto& list : children_)
      std::stable_sort(list.begin(), list.end(), [](const Item& a, const Item& b) {
        return a.firstEvent != b.firstEvent ? a.firstEvent < b.firstEvent : (a.isScope < b.isScope);
      });
  }

  bool isAccess(const Item& item) const { return !item.isScope && t_.events[item.index].kind == EventKind::Access; }

  /* Statements and nested scopes of "scope" (its header events excluded when it is a loop). */
  void walk(std::size_t scope, const Path& path, std::size_t& position) {
    const auto& items = children_[scope];
    bool loop = t_.scopes[scope].kind == ScopeKind::Loop;
    for (std::size_t k = 0; k < items.size(); ++k) {
      const Item& item = items[k];
      if (!item.isScope) {
        if (!isAccess(item) || (loop && t_.events[item.index].loopHeader)) continue;
        std::vector<std::size_t> group = groupFrom(items, k, false);
        statement(path, group, position++);
        continue;
      }
      const Scope& s = t_.scopes[item.index];
      switch (s.kind) {
        case ScopeKind::Loop: loopScope(item.index, path, position++); break;
        case ScopeKind::Branch: k = branch(items, k, path, position); break;
        case ScopeKind::Program:
        case ScopeKind::Function:
        case ScopeKind::Call:
        case ScopeKind::Parallel: walk(item.index, path, position); break;
      }
    }
  }

  /* Events items[k..] of one source line, header flag "header", not interrupted by a scope or
     another line; moves "k" to the last one. */
  std::vector<std::size_t> groupFrom(const std::vector<Item>& items, std::size_t& k, bool header) {
    std::vector<std::size_t> group{items[k].index};
    const Event& first = t_.events[items[k].index];
    while (k + 1 < items.size() && isAccess(items[k + 1])) {
      const Event& next = t_.events[items[k + 1].index];
      if (next.loopHeader != header || next.loc.line != first.loc.line || next.loc.file != first.loc.file) break;
      group.push_back(items[++k].index);
    }
    return group;
  }

  void loopScope(std::size_t id, const Path& outer, std::size_t position) {
    const Scope& s = t_.scopes[id];
    Path body = outer;
    auto iterator = s.iterator.empty() ? std::nullopt : t_.context.find(s.iterator);
    sym::Symbol i = iterator ? *iterator : sym::Symbol("__opaque_" + std::to_string(id));
    body.loops.push_back(id);
    body.dims.push_back(i);
    body.schedule.push_back(static_cast<long>(position));
    body.schedule.push_back(i);
    Path header = body;
    if (!outer.reason) {
      LoopDomain d;
      try {
        d = loopDomain(s, i, outer.dimNames, t_.context);
      } catch (const std::exception& ex) {
        d.reason = "loop " + s.iterator + " at " + s.loc.str() + " cannot be analysed (" + ex.what() + ")";
      }
      if (!d.reason && outer.dimNames.count(i.get_name()))
        d.reason = "loop " + s.iterator + " at " + s.loc.str() + " reuses the iterator of an enclosing loop";
      body.reason = header.reason = d.reason;
      for (auto* p : {&body, &header}) {
        for (const auto& e : d.existentials) p->existentials.push_back(e);
        p->dimNames.insert(i.get_name());
        p->loopsByIterator[i.get_name()] = &s;
      }
      for (auto& c : d.body) body.constraints.push_back(std::move(c));
      for (auto& c : d.header) header.constraints.push_back(std::move(c));
    }
    std::size_t inner = 0;
    const auto& items = children_[id];
    for (std::size_t k = 0; k < items.size(); ++k)
      if (isAccess(items[k]) && t_.events[items[k].index].loopHeader) statement(header, groupFrom(items, k, true), inner++);
    walk(id, body, inner);
  }

  /* The arms of the branch starting at items[k] (consecutive Branch scopes of one location, as
     the concretiser groups them); returns the index of the last arm. An arm runs where its
     condition holds and no earlier exact arm's does; an arm whose condition depends on data
     runs (with --branch both) where it is not decided false and no exact arm's condition
     holds. An arm whose condition is a union of several pieces is walked once per piece. */
  std::size_t branch(const std::vector<Item>& items, std::size_t k, const Path& path, std::size_t& position) {
    std::vector<std::size_t> arms;
    const ir::SourceLoc& loc = t_.scopes[items[k].index].loc;
    std::size_t j = k;
    while (j < items.size() && items[j].isScope && t_.scopes[items[j].index].kind == ScopeKind::Branch && t_.scopes[items[j].index].loc == loc)
      arms.push_back(items[j++].index);
    std::vector<ConditionPieces> held, failed;
    for (std::size_t a : arms) {
      held.push_back(armCondition(t_.scopes[a], false, path));
      failed.push_back(armCondition(t_.scopes[a], true, path));
    }
    for (std::size_t a = 0; a < arms.size(); ++a) {
      ConditionPieces where = held[a];
      for (std::size_t other = 0; other < arms.size(); ++other) {
        if (other == a || (other > a && held[a].exact)) continue;
        if (held[other].exact) where = ConditionPieces::both(where, failed[other]);
        else if (other < a) where.exact = false;  // where that arm is decided true is not excluded
      }
      if (where.pieces.empty()) where.pieces.push_back({sym::Constraint{-1, false}});
      if (path.copies * where.pieces.size() > kMaxCopies) where = ConditionPieces{{{}}, false, "too many pieces"};
      std::size_t start = position, end = position;
      for (const auto& piece : where.pieces) {
        Path inside = path;
        inside.exact = path.exact && where.exact;
        inside.copies = path.copies * where.pieces.size();
        inside.constraints.insert(inside.constraints.end(), piece.begin(), piece.end());
        std::size_t p = start;
        walk(arms[a], inside, p);
        end = std::max(end, p);
      }
      position = end;
    }
    return j - 1;
  }

  ConditionPieces armCondition(const Scope& arm, bool negated, const Path& path) const {
    if (arm.decided) {
      bool holds = *arm.decided != negated;
      return ConditionPieces{holds ? std::vector<std::vector<sym::Constraint>>{{}} : std::vector<std::vector<sym::Constraint>>{}, true, {}};
    }
    try {
      return conditionPieces(arm.condition, negated, path.dimNames, t_.context);
    } catch (const std::exception& ex) {
      return ConditionPieces{{{}}, false, std::string("the condition cannot be analysed (") + ex.what() + ")"};
    }
  }

  /* The array form of "e", or a reason when GiNaC fails on it (budgets, poles). */
  ArrayForm formOf(const Event& e, const Path& path) const {
    try {
      return arrayForm(e, t_.containers.at(e.container), path.dimNames, path.loopsByIterator, t_.context);
    } catch (const std::exception& ex) {
      ArrayForm f;
      f.reason = "'" + e.text + "': the subscripts cannot be analysed (" + ex.what() + ")";
      return f;
    }
  }

  /* Event "e" is not affine: listed once, though an arm split into pieces is walked again. */
  void notAffine(std::size_t e, const std::string& reason) {
    if (listed_.insert(e).second) model_.nonAffine.push_back({e, reason});
  }

  void statement(const Path& path, const std::vector<std::size_t>& events, std::size_t position) {
    if (path.reason) {
      for (std::size_t e : events) notAffine(e, *path.reason);
      return;
    }
    PolyStatement st;
    st.id = model_.statements.size();
    st.name = "S" + std::to_string(st.id);
    const Event& first = t_.events[events.front()];
    st.scope = first.scope;
    st.function = t_.functionOf(first.scope);
    st.loc = first.loc;
    st.loops = path.loops;
    st.exactDomain = path.exact;
    st.schedule = path.schedule;
    st.schedule.push_back(static_cast<long>(position));
    st.domain.name = st.name;
    st.domain.dims = path.dims;
    st.domain.existentials = path.existentials;
    st.domain.constraints = path.constraints;
    for (std::size_t e : events) {
      const Event& ev = t_.events[e];
      ArrayForm form = formOf(ev, path);
      if (form.reason) {
        notAffine(e, *form.reason);
        continue;
      }
      PolyAccess a;
      a.event = e;
      a.container = ev.container;
      a.kind = ev.mode == ir::AccessMode::Read ? PolyAccessKind::Read : path.exact ? PolyAccessKind::MustWrite : PolyAccessKind::MayWrite;
      a.subscripts = std::move(form.subscripts);
      a.extents = std::move(form.extents);
      a.elementBytes = form.elementBytes;
      a.bytes = ev.bytes;
      a.multiplicity = ev.multiplicity;
      a.loopHeader = ev.loopHeader;
      st.accesses.push_back(std::move(a));
    }
    if (st.accesses.empty()) return;
    model_.statements.push_back(std::move(st));
  }

  /* Parameters of every domain (constraints and subscripts), per statement and for the model. */
  void collectParams() {
    std::map<std::string, sym::Symbol> all;
    for (auto& st : model_.statements) {
      std::map<std::string, sym::Symbol> mine;
      auto add = [&](const sym::Expr& e) {
        for (const auto& s : sym::symbolsOfKind(e, t_.context, sym::SymbolKind::Parameter)) mine.emplace(s.get_name(), s);
      };
      for (const auto& c : st.domain.constraints) add(c.expr);
      for (const auto& a : st.accesses)
        for (const auto& s : a.subscripts) add(s);
      for (const auto& [name, symbol] : mine) {
        st.domain.params.push_back(symbol);
        all.emplace(name, symbol);
      }
    }
    for (const auto& [name, symbol] : all) model_.params.push_back(symbol);
  }
};

}  // namespace

PolyModel buildPolyModel(const Trace& contexts) { return Builder(contexts).run(); }

}  // namespace cats::trace
