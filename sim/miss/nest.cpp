// The affine walks of a contexts trace, grouped by container, loops and strides.
#include "miss/nest.hpp"

#include <map>
#include <set>

namespace cats::sim::miss {

namespace {

/* Whether "e" holds a loaded value or a symbol of kind Unknown of "ctx". */
bool dependsOnData(const sym::Expr& e, const sym::Context& ctx) {
  return !sym::containersIn(e).empty() || sym::containsUnknown(e, ctx);
}

/* Whether condition "c" holds a loaded value, an unknown or an opaque part. */
bool conditionOnData(const sym::Condition& c, const sym::Context& ctx) {
  if (c.op == sym::ConditionOp::Opaque) return true;
  if (dependsOnData(c.lhs, ctx) || dependsOnData(c.rhs, ctx)) return true;
  for (const auto& o : c.operands)
    if (conditionOnData(o, ctx)) return true;
  return false;
}

std::string where(const trace::Scope& s) { return s.loc.file + ":" + std::to_string(s.loc.line); }

/* The loop of scope "s" as the model sees it, with the reason it cannot be used, if any. */
LoopInfo loopOf(const trace::Trace& t, const trace::Scope& s) {
  LoopInfo loop;
  loop.scope = s.id;
  loop.label = "loop " + (s.iterator.empty() ? std::string("(opaque)") : s.iterator) + " at " + where(s);
  loop.start = s.start;
  loop.bound = s.bound;
  loop.step = s.step;
  loop.comparison = s.comparison;
  std::optional<sym::Symbol> it = s.iterator.empty() ? std::nullopt : t.context.find(s.iterator);
  if (!it) loop.reason = "opaque loop at " + where(s) + (s.opaqueReason.empty() ? "" : " (" + s.opaqueReason + ")");
  else if (dependsOnData(s.start, t.context) || dependsOnData(s.bound, t.context) || dependsOnData(s.step, t.context))
    loop.reason = "the bounds of the loop at " + where(s) + " depend on data";
  else if (s.comparison == ir::Comparison::NotEqual)
    loop.reason = "the loop at " + where(s) + " ends on != (trip count not affine)";
  if (it) loop.iterator = *it;
  return loop;
}

/* Splits "offset" into a constant and one coefficient per iterator of "iterators"; the reason
   when it is not affine in them with coefficients in the parameters. */
std::string affineParts(const sym::Expr& offset, const std::vector<sym::Symbol>& iterators, const sym::Context& ctx,
                        std::vector<sym::Expr>& coefficients, sym::Expr& constant) {
  sym::Expr e = offset.expand();
  if (auto via = sym::containersIn(e); !via.empty()) return "indirect subscript via " + via.front();
  if (sym::containsUnknown(e, ctx)) return "the offset holds a value the analysis could not follow";
  GiNaC::exmap zero;
  for (const auto& it : iterators) zero[it] = 0;
  constant = e.subs(zero).expand();
  sym::Expr rest = e - constant;
  coefficients.clear();
  for (const auto& it : iterators) {
    sym::Expr c = e.coeff(it, 1).expand();
    for (const auto& other : iterators)
      if (sym::contains(c, other)) return "non-affine offset " + sym::print(e);
    coefficients.push_back(c);
    rest -= c * it;
  }
  if (!rest.expand().is_zero()) return "non-affine offset " + sym::print(e);
  for (const auto& s : sym::symbolsOfKind(constant, ctx, sym::SymbolKind::Iterator))
    return "the offset uses the iterator " + s.get_name() + " of no enclosing loop";
  return {};
}

/* Byte strides per iteration of each of "loops" and the constant byte offset of "offset": in the
   loops' counters when the offset stays affine in them (a tile loop's start then moves the walk),
   else in the iterators times the steps (starts with min/max: the walk of one tile). */
std::string walkOf(const sym::Expr& offset, const std::vector<std::size_t>& loops, const std::vector<LoopInfo>& all,
                   const sym::Context& ctx, std::vector<sym::Expr>& strides, sym::Expr& constant) {
  std::vector<sym::Symbol> iterators, counters;
  GiNaC::exmap normalized;
  for (std::size_t k : loops) {
    iterators.push_back(all[k].iterator);
    counters.push_back(all[k].counter);
    normalized[all[k].iterator] = all[k].normalized;
  }
  if (affineParts(offset.subs(normalized), counters, ctx, strides, constant).empty()) return {};
  std::string reason = affineParts(offset, iterators, ctx, strides, constant);
  for (std::size_t k = 0; k < loops.size() && reason.empty(); ++k) strides[k] = (strides[k] * all[loops[k]].step).expand();
  return reason;
}

}  // namespace

Nest extractNest(const trace::Trace& t, const trace::PolyModel& model) {
  Nest nest;
  std::map<std::size_t, std::size_t> loopIndex;
  for (const auto& s : t.scopes) {
    if (s.kind != trace::ScopeKind::Loop) continue;
    LoopInfo loop = loopOf(t, s);
    for (std::optional<std::size_t> p = s.parent; p; p = t.scopes[*p].parent)
      if (auto found = loopIndex.find(*p); found != loopIndex.end()) {
        loop.parent = found->second;
        break;
      }
    loop.counter = sym::Symbol("counter_" + std::to_string(nest.loops.size()));
    GiNaC::exmap outer;
    for (auto p = loop.parent; p; p = nest.loops[*p].parent) outer[nest.loops[*p].iterator] = nest.loops[*p].normalized;
    loop.normalized = (loop.start.subs(outer) + loop.step * loop.counter).expand();
    loopIndex[s.id] = nest.loops.size();
    nest.loops.push_back(std::move(loop));
  }
  std::map<std::size_t, std::string> nonAffine;
  for (const auto& n : model.nonAffine) nonAffine[n.event] = n.reason;
  std::map<std::string, std::size_t> groupOf;
  for (std::size_t e = 0; e < t.events.size(); ++e) {
    const trace::Event& ev = t.events[e];
    if (ev.kind != trace::EventKind::Access) continue;
    auto undecided = [&](const std::string& reason) { nest.undecided.push_back({ev.container, e, reason}); };
    std::vector<std::size_t> loops;
    std::string reason;
    bool neverRuns = false;
    for (std::size_t id : t.stack(ev.scope)) {
      const trace::Scope& s = t.scopes[id];
      if (s.kind == trace::ScopeKind::Branch) {
        if (s.decided == false) neverRuns = true;
        else if (!s.decided && reason.empty() && conditionOnData(s.condition, t.context))
          reason = "under a data-dependent branch at " + where(s);
      } else if (s.kind == trace::ScopeKind::Loop) {
        const LoopInfo& loop = nest.loops[loopIndex.at(id)];
        if (!loop.reason.empty() && reason.empty()) reason = loop.reason;
        loops.push_back(loopIndex.at(id));
      }
    }
    if (neverRuns) continue;
    std::vector<sym::Expr> strides;
    sym::Expr constant = 0;
    if (reason.empty()) reason = walkOf(ev.offset, loops, nest.loops, t.context, strides, constant);
    if (!reason.empty()) {
      auto named = nonAffine.find(e);
      undecided(named != nonAffine.end() ? named->second : reason);
      continue;
    }
    Group g;
    g.container = ev.container;
    g.loops = loops;
    std::string key = std::to_string(ev.container);
    for (std::size_t k = 0; k < loops.size(); ++k) {
      g.strides.push_back(strides[k]);
      key += "|" + std::to_string(loops[k]) + ":" + sym::print(g.strides.back());
    }
    auto [it, fresh] = groupOf.emplace(key, nest.groups.size());
    if (fresh) nest.groups.push_back(std::move(g));
    Group& group = nest.groups[it->second];
    group.events.push_back(e);
    group.elementBytes = std::max(group.elementBytes, ev.bytes);
    group.writeOnly = group.writeOnly && ev.mode == ir::AccessMode::Write;
    group.accessesPerIteration += ev.multiplicity;
    bool known = false;
    for (const auto& o : group.offsets) known = known || (o - constant).expand().is_zero();
    if (!known) group.offsets.push_back(constant);
  }
  return nest;
}

}  // namespace cats::sim::miss
