// Model statements -> the dependence math -> verdicts per loop of the program. The math knows
// statements and loop ids only; names, lines and the accesses it was not given come from here.
#include "tracer/dependences.hpp"

#include "symbolic/dependences.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace cats::trace {

std::string distanceText(const std::vector<DistanceComponent>& distance) {
  std::string out = "(";
  for (std::size_t k = 0; k < distance.size(); ++k) out += (k ? "," : "") + distance[k].str();
  return out + ")";
}

std::string LoopRef::label() const { return iterator + "@" + loc.str(); }

namespace {

sym::DepAccessKind depKind(PolyAccessKind kind) {
  switch (kind) {
    case PolyAccessKind::Read: return sym::DepAccessKind::Read;
    case PolyAccessKind::MustWrite: return sym::DepAccessKind::MustWrite;
    case PolyAccessKind::MayWrite: return sym::DepAccessKind::MayWrite;
  }
  return sym::DepAccessKind::Read;
}

std::vector<sym::DepStatement> mathStatements(const Trace& contexts, const PolyModel& model) {
  std::vector<sym::DepStatement> out;
  for (const auto& s : model.statements) {
    sym::DepStatement d;
    d.name = s.name;
    d.domain = s.domain;
    d.schedule = s.schedule;
    d.loops = s.loops;
    for (const auto& a : s.accesses)
      d.accesses.push_back({contexts.containers.at(a.container).name, depKind(a.kind), a.subscripts, a.multiplicity});
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<DistanceComponent> components(const std::vector<sym::Distance>& distance) {
  std::vector<DistanceComponent> out;
  out.reserve(distance.size());
  for (const auto& d : distance) out.push_back({d.value, d.direction});
  return out;
}

LoopRef loopRef(const Trace& contexts, std::size_t scope) {
  const Scope& s = contexts.scopes.at(scope);
  return {scope, contexts.functionOf(scope), s.loc, s.iterator.empty() ? "(opaque)" : s.iterator};
}

/// Loop scopes with at least one access below them, in scope order.
std::vector<std::size_t> loopsWithAccesses(const Trace& contexts) {
  std::set<std::size_t> loops;
  for (const auto& e : contexts.events) {
    if (e.kind != EventKind::Access) continue;
    for (std::size_t scope : contexts.stack(e.scope))
      if (contexts.scopes[scope].kind == ScopeKind::Loop) loops.insert(scope);
  }
  return {loops.begin(), loops.end()};
}

/// Why each loop has no verdict: the first access below it the model or the math left out.
std::map<std::size_t, std::string> unknownLoops(const Trace& contexts, const PolyModel& model,
                                                const sym::Dependences& math, ProgramDependences& out) {
  std::map<std::size_t, std::string> reasons;
  auto mark = [&](std::size_t scope, const std::string& reason) {
    for (std::size_t s : contexts.stack(scope))
      if (contexts.scopes[s].kind == ScopeKind::Loop) reasons.emplace(s, reason);
  };
  for (const auto& n : model.nonAffine) {
    const Event& e = contexts.events.at(n.event);
    out.unknown.push_back({contexts.functionOf(e.scope), e.loc, e.text, n.reason});
    mark(e.scope, n.reason + " at " + e.loc.str());
  }
  for (const auto& [statement, reason] : math.skipped) {
    const PolyStatement& s = model.statements.at(statement);
    out.unknown.push_back({s.function, s.loc, s.name, reason});
    mark(s.scope, reason + " at " + s.loc.str());
  }
  return reasons;
}

void addDependences(const Trace& contexts, const PolyModel& model, const sym::Dependences& math, ProgramDependences& out) {
  for (const auto& d : math.dependences) {
    DependenceEdge edge;
    edge.kind = std::string(sym::toString(d.kind));
    edge.container = d.container;
    edge.source = d.source;
    edge.sink = d.sink;
    edge.distance = components(d.distance);
    if (d.level) edge.carriedBy = loopRef(contexts, model.statements.at(d.source).loops.at(*d.level));
    out.dependences.push_back(std::move(edge));
  }
}

void addLoops(const Trace& contexts, const sym::Dependences& math, const std::map<std::size_t, std::string>& unknown,
              ProgramDependences& out) {
  std::map<std::size_t, const sym::LoopDependences*> verdicts;
  for (const auto& l : math.loops) verdicts.emplace(l.loop, &l);
  for (std::size_t scope : loopsWithAccesses(contexts)) {
    LoopVerdict v;
    v.loop = loopRef(contexts, scope);
    auto it = verdicts.find(scope);
    if (auto why = unknown.find(scope); why != unknown.end()) {
      v.unknown = why->second;
    } else if (it == verdicts.end()) {
      v.unknown = "no statement of the polyhedral model in this loop";
    } else {
      v.parallel = it->second->parallel;
      v.reduction = it->second->reduction;
    }
    if (it != verdicts.end())
      for (std::size_t k : it->second->carried) {
        const DependenceEdge& e = out.dependences.at(k);
        auto same = [&](const CarriedDependence& c) {
          return c.container == e.container && c.kind == e.kind && distanceText(c.distance) == distanceText(e.distance);
        };
        if (std::none_of(v.carried.begin(), v.carried.end(), same)) v.carried.push_back({e.container, e.kind, e.distance, k});
      }
    out.loops.push_back(std::move(v));
  }
}

sym::Expr containerBytes(const Trace& contexts, const std::string& name) {
  for (const auto& c : contexts.containers)
    if (c.name == name) return c.sizeBytes;
  return 0;
}

void addNestsAndFusion(const Trace& contexts, const sym::Dependences& math, const std::map<std::size_t, std::string>& unknown,
                       ProgramDependences& out) {
  for (const auto& n : math.nests) {
    NestVerdict v;
    for (std::size_t loop : n.band) v.band.push_back(loopRef(contexts, loop));
    v.permutable = n.permutable;
    v.interchangeLegal = n.interchangeLegal;
    for (const auto& [scope, reason] : unknown)
      if (v.unknown.empty() && !n.band.empty()) {
        auto stack = contexts.stack(scope);
        if (std::find(stack.begin(), stack.end(), n.band.front()) != stack.end()) v.unknown = reason;
      }
    if (!v.unknown.empty()) {
      v.permutable = false;
      std::fill(v.interchangeLegal.begin(), v.interchangeLegal.end(), false);
    }
    out.nests.push_back(std::move(v));
  }
  for (const auto& f : math.fusion) {
    if (contexts.scopes.at(f.first).parent != contexts.scopes.at(f.second).parent) continue;  // e.g. two entry functions
    FusionVerdict v;
    v.first = loopRef(contexts, f.first);
    v.second = loopRef(contexts, f.second);
    v.shared = f.shared;
    v.sameBounds = f.sameBounds;
    v.legal = f.legal && !unknown.count(f.first) && !unknown.count(f.second);
    v.reason = f.reason;
    if (f.legal && !v.legal) v.reason = "accesses the model does not describe";
    for (const auto& name : f.shared) v.savedBytes += containerBytes(contexts, name);
    out.fusion.push_back(std::move(v));
  }
}

}  // namespace

ProgramDependences analyseDependences(const Trace& contexts, const PolyModel& model) {
  ProgramDependences out;
  for (const auto& s : model.statements) out.statements.push_back({s.id, s.name, s.function, s.loc});
  sym::Dependences math = sym::computeDependences(mathStatements(contexts, model));
  std::map<std::size_t, std::string> unknown = unknownLoops(contexts, model, math, out);
  addDependences(contexts, model, math, out);
  addLoops(contexts, math, unknown, out);
  addNestsAndFusion(contexts, math, unknown, out);
  out.recurrences = math.recurrences;
  out.coverage = model.coverage();
  if (!model.nonAffine.empty()) out.reasons.push_back(std::to_string(model.nonAffine.size()) + " access(es) outside the polyhedral model");
  if (math.approximate) out.reasons.push_back(math.reason);
  out.approximate = !out.reasons.empty();
  return out;
}

}  // namespace cats::trace
