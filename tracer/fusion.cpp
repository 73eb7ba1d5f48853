#include "tracer/fusion.hpp"

#include "band.hpp"
#include "tracer/strides.hpp"

#include <algorithm>
#include <set>

namespace cats::trace {

namespace {

/* The events of the subtree of "scope", in program order. */
std::vector<std::size_t> eventsBelow(const Trace& t, std::size_t scope) {
  std::vector<std::size_t> out;
  for (std::size_t e = 0; e < t.events.size(); ++e)
    if (t.encloses(scope, t.events[e].scope)) out.push_back(e);
  return out;
}

bool sameValue(const sym::Expr& a, const sym::Expr& b) { return (a - b).expand().is_zero(); }

/* Why "s" cannot take another loop's body; empty when it can. */
std::string loopProblem(const Scope& s) {
  if (s.kind != ScopeKind::Loop) return s.label() + " is not a loop";
  if (s.iterator.empty() || s.earlyExit) return s.label() + " has no iterator or leaves early";
  // A value changed per iteration (a bumped pointer, a running index) or carried across
  // iterations (a sum) is read in an order fusion changes, or read after the loop.
  for (const std::string& v : s.varying)
    if (v != s.iterator) return s.label() + " also changes '" + v + "' every iteration";
  if (!s.carried.empty()) return s.label() + " carries '" + s.carried.front().name + "' from one iteration to the next";
  return {};
}

/* Why "second" cannot be fused into "first"; empty when it can. */
std::string fusionProblem(const Trace& t, std::size_t first, std::size_t second) {
  const Scope& a = t.scopes.at(first);
  const Scope& b = t.scopes.at(second);
  for (const Scope* s : {&a, &b})
    if (std::string problem = loopProblem(*s); !problem.empty()) return problem;
  if (a.parent != b.parent || first == second) return "the loops are not in one body";
  if (a.comparison != b.comparison || !sameValue(a.start, b.start) || !sameValue(a.bound, b.bound) || !sameValue(a.step, b.step))
    return "the loops run over different ranges";
  if (!t.context.find(a.iterator) || !t.context.find(b.iterator)) return "a loop iterator has no symbol";
  std::vector<std::size_t> eventsA = eventsBelow(t, first), eventsB = eventsBelow(t, second);
  if (eventsA.empty() || eventsB.empty()) return "a loop makes no event";
  if (eventsA.back() > eventsB.front()) return "the second loop does not run after the first";
  if (eventsA.back() + 1 == eventsB.front()) return {};
  const Event& between = t.events[eventsA.back() + 1];
  return "'" + (between.text.empty() ? std::string(toString(between.kind)) : between.text) + "' (line " +
         std::to_string(between.loc.line) + ") between the loops would run after the second loop's body";
}

/* "t" without scope "gone" (no event lies in it; no scope has it as parent): later ids shift down. */
void eraseScope(Trace& t, std::size_t gone) {
  auto renumber = [gone](std::size_t id) { return id > gone ? id - 1 : id; };
  t.scopes.erase(t.scopes.begin() + static_cast<std::ptrdiff_t>(gone));
  for (Scope& s : t.scopes) {
    s.id = renumber(s.id);
    if (s.parent) s.parent = renumber(*s.parent);
  }
  for (Event& e : t.events) e.scope = renumber(e.scope);
}

/* "t" without the events "gone": later indices (copyOf, the scopes' first events) shift down. */
void eraseEvents(Trace& t, const std::set<std::size_t>& gone) {
  if (gone.empty()) return;
  std::vector<std::size_t> newIndex(t.events.size() + 1);
  std::vector<Event> kept;
  for (std::size_t e = 0; e < t.events.size(); ++e) {
    newIndex[e] = kept.size();
    if (!gone.count(e)) kept.push_back(std::move(t.events[e]));
  }
  newIndex[t.events.size()] = kept.size();
  for (Event& e : kept)
    if (e.copyOf) e.copyOf = gone.count(*e.copyOf) ? std::nullopt : std::optional<std::size_t>(newIndex[*e.copyOf]);
  for (Scope& s : t.scopes) s.firstEvent = newIndex[std::min(s.firstEvent, t.events.size())];
  t.events = std::move(kept);
}

/* Every expression of an event moved into the first loop, in the first loop's iterator. */
void substitute(Event& e, const GiNaC::exmap& map, const std::string& from, const std::string& to) {
  e.offset = e.offset.subs(map);
  for (sym::Expr& s : e.subscripts) s = s.subs(map);
  e.sizeBytes = e.sizeBytes.subs(map);
  if (e.classification.strideBytes) e.classification.strideBytes = e.classification.strideBytes->subs(map);
  if (e.classification.strideIterator == from) e.classification.strideIterator = to;
}

/* The same for a scope moved with the second loop's body. */
void substitute(Scope& s, const GiNaC::exmap& map, const std::string& from, const std::string& to) {
  s.start = s.start.subs(map);
  s.bound = s.bound.subs(map);
  s.step = s.step.subs(map);
  s.condition = s.condition.substitute(map);
  std::replace(s.varying.begin(), s.varying.end(), from, to);
}

}  // namespace

std::vector<FusionCandidate> findFusions(const Trace& contexts, const Trace& modelContexts, const ProgramDependences& deps,
                                         const std::map<std::string, std::int64_t>& bindings) {
  const std::map<std::string, std::size_t> loops = loopsByPlace(contexts);
  std::map<std::size_t, std::string> unknownLoops;  // model loop scope -> why its dependences are unknown
  for (const LoopVerdict& l : deps.loops)
    if (!l.unknown.empty()) unknownLoops.emplace(l.loop.scope, l.unknown);
  const GiNaC::exmap values = bindingValues(contexts, bindings);
  std::vector<FusionCandidate> out;
  for (const FusionVerdict& v : deps.fusion) {
    auto first = loops.find(placeKey(modelContexts, v.first.scope));
    auto second = loops.find(placeKey(modelContexts, v.second.scope));
    if (first == loops.end() || second == loops.end()) continue;
    FusionCandidate c;
    c.first = first->second;
    c.second = second->second;
    c.function = v.first.function;
    c.firstLoc = contexts.scopes[c.first].loc;
    c.secondLoc = contexts.scopes[c.second].loc;
    c.firstIterator = v.first.iterator;
    c.secondIterator = v.second.iterator;
    c.shared = v.shared;
    c.sharedBytes = 0;
    for (const std::string& name : v.shared) {
      auto container = std::find_if(contexts.containers.begin(), contexts.containers.end(), [&](const Container& k) { return k.name == name; });
      std::optional<std::int64_t> bytes;
      if (container != contexts.containers.end()) bytes = sym::toInteger(container->sizeBytes.subs(values).expand());
      c.sharedBytes = bytes && c.sharedBytes ? std::optional<std::int64_t>(*c.sharedBytes + *bytes) : std::nullopt;
    }
    for (std::size_t loop : {v.first.scope, v.second.scope})
      if (auto unknown = unknownLoops.find(loop); unknown != unknownLoops.end() && c.legality.empty())
        c.legality = "the dependences are unknown: " + unknown->second;
    if (c.legality.empty()) {
      c.legal = v.legal;
      c.legality = v.legal ? "no dependence between the loops would be reversed" : v.reason;
    }
    if (!v.sameBounds) c.notEvaluated = "the loops run over different ranges";
    if (c.notEvaluated.empty()) c.notEvaluated = fusionProblem(contexts, c.first, c.second);
    out.push_back(std::move(c));
  }
  return out;
}

std::optional<Trace> fused(const Trace& contexts, std::size_t first, std::size_t second, std::string* why) {
  std::string problem = fusionProblem(contexts, first, second);
  if (!problem.empty()) {
    if (why) *why = problem;
    return std::nullopt;
  }
  Trace out = contexts;
  const std::string from = contexts.scopes[second].iterator, to = contexts.scopes[first].iterator;
  GiNaC::exmap map;
  if (from != to) map[*contexts.context.find(from)] = *contexts.context.find(to);
  // The second body's events keep their place in program order, right after the first body's:
  // as children of the first loop they run after its own events in every iteration.
  std::set<std::size_t> condition;  // the second loop's own condition: the fused loop tests the first's
  for (std::size_t e : eventsBelow(contexts, second)) {
    Event& event = out.events[e];
    if (event.scope == second && event.loopHeader) {
      condition.insert(e);
      continue;
    }
    if (event.scope == second) event.scope = first;
    substitute(event, map, from, to);
  }
  for (Scope& s : out.scopes) {
    if (s.id == second || !contexts.encloses(second, s.id)) continue;
    if (s.parent == second) s.parent = first;
    substitute(s, map, from, to);
  }
  eraseEvents(out, condition);
  eraseScope(out, second);
  return out;
}

}  // namespace cats::trace
