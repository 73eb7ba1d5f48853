// Reuse within one iteration (docs/register-model.md, "Values already in a register"): GCC's
// and Clang's value numbering (FRE) replace a load of an address the iteration has already
// read or written by that value, unless a store in between may change it; and every arm of a
// complete if/else storing one address is one store, whichever arm runs.
#include "reuse.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

namespace cats::sim::compiler {

namespace {

class ReuseDecider {
 public:
  ReuseDecider(const trace::Trace& t, const CompilerView& v, CompilationPlan& p) : trace_(t), view_(v), plan_(p) {
    for (const AccessDecision& d : plan_.accesses) decided_.insert(d.event);
    for (std::size_t e = 0; e < trace_.events.size(); ++e)
      if (isAccess(e) && isWrite(e)) writesIn_[trace_.events[e].scope].push_back(e);
  }

  void run() {
    if (plan_.target.optLevel == 0) return;
    sinkCommonStores();
    for (std::size_t r = 0; r < trace_.events.size(); ++r) reuseRead(r);
    for (std::size_t r = 0; r < trace_.events.size(); ++r) carryRead(r);
  }

 private:
  const trace::Trace& trace_;
  const CompilerView& view_;
  CompilationPlan& plan_;
  std::set<std::size_t> decided_;

  bool isAccess(std::size_t e) const { return trace_.events[e].kind == trace::EventKind::Access; }
  bool isWrite(std::size_t e) const { return trace_.events[e].mode == ir::AccessMode::Write; }

  /* The same bytes at an address the compiler sees as one: same container, same affine offset. */
  bool sameAddress(std::size_t a, std::size_t b) const {
    const trace::Event& x = trace_.events[a];
    const trace::Event& y = trace_.events[b];
    if (x.container != y.container || x.bytes != y.bytes) return false;
    if (!sym::containersIn(x.offset).empty() || sym::containsUnknown(x.offset, trace_.context)) return false;
    return (x.offset - y.offset).expand().is_zero();
  }

  /* Store "w" may change what "r" reads: not when both are one object a known nonzero distance apart. */
  bool mayOverwrite(std::size_t w, std::size_t r) const {
    const trace::Event& x = trace_.events[w];
    const trace::Event& y = trace_.events[r];
    if (x.container == y.container && sym::containersIn(x.offset).empty() && sym::containersIn(y.offset).empty()) {
      auto distance = sym::toInteger((x.offset - y.offset).expand());
      if (distance && std::abs(*distance) >= std::max(x.bytes, y.bytes)) return false;
    }
    return view_.mayAlias(trace_, w, r);
  }

  /* A call that stays a call between the two events' scopes (it may write anything). */
  bool realCallBelow(std::size_t scope, std::size_t top) const {
    for (std::optional<std::size_t> p = scope; p && *p != top; p = trace_.scopes[*p].parent) {
      if (trace_.scopes[*p].kind != trace::ScopeKind::Call) continue;
      const CallDecision* call = plan_.call(*p);
      if (!call || !call->inlined) return true;
    }
    return false;
  }

  void decide(std::size_t e, AccessDecision::Kind kind, std::string reason) {
    plan_.accesses.push_back(AccessDecision{e, kind, std::nullopt, std::move(reason)});
    decided_.insert(e);
  }

  /* Read "r" takes the value of the last earlier event of its iteration at its address that
     surely ran before it (in a scope around it), when nothing in between may overwrite it. */
  void reuseRead(std::size_t r) {
    if (!isAccess(r) || isWrite(r) || decided_.count(r) || trace_.events[r].loopHeader) return;
    const std::size_t scope = trace_.events[r].scope;
    const auto loop = trace_.innermostLoop(scope);
    const LoopDecision* vector = loop ? plan_.loop(*loop) : nullptr;
    const bool vectorised = vector && (vector->vectorFactor > 1 || vector->slp);
    for (std::size_t k = r; k-- > 0;) {
      if (!isAccess(k)) continue;
      const trace::Event& e = trace_.events[k];
      if (trace_.innermostLoop(e.scope) != loop) {
        if (!trace_.encloses(e.scope, scope) && loop && trace_.encloses(*loop, e.scope)) {
          if (isWrite(k) && mayOverwrite(k, r)) return;  // an inner loop between them writes it
          continue;
        }
        return;  // the iteration starts here
      }
      if (realCallBelow(e.scope, loop ? *loop : 0)) return;
      if (sameAddress(k, r) && trace_.encloses(e.scope, scope) && !e.loopHeader) {
        std::string how = isWrite(k) ? "stored" : "read";
        decide(r, AccessDecision::Kind::Reused, "the value " + how + " by " + e.text + " at " + e.loc.str() + " is still in a register");
        return;
      }
      if (isWrite(k) && (vectorised || mayOverwrite(k, r))) return;  // GCC reloads a vector after any vector store (bicg)
    }
  }

  /* The events in "loop" (nested scopes included), in order; computed once per loop from the
     events of each scope and the scopes inside each scope (a scan of the whole trace per loop
     was quadratic on real programs with thousands of calling contexts). */
  const std::vector<std::size_t>& eventsIn(std::size_t loop) {
    auto [it, fresh] = eventsIn_.try_emplace(loop);
    if (!fresh) return it->second;
    if (eventsOf_.empty()) {
      eventsOf_.resize(trace_.scopes.size());
      scopesIn_.resize(trace_.scopes.size());
      for (std::size_t e = 0; e < trace_.events.size(); ++e) eventsOf_[trace_.events[e].scope].push_back(e);
      for (const trace::Scope& s : trace_.scopes)
        if (s.parent) scopesIn_[*s.parent].push_back(s.id);
    }
    for (std::vector<std::size_t> pending{loop}; !pending.empty();) {
      const std::size_t s = pending.back();
      pending.pop_back();
      it->second.insert(it->second.end(), eventsOf_[s].begin(), eventsOf_[s].end());
      pending.insert(pending.end(), scopesIn_[s].begin(), scopesIn_[s].end());
    }
    std::sort(it->second.begin(), it->second.end());
    return it->second;
  }

  /* Whether a call that stays a call lies in "loop": the scopes around every such call, found once. */
  bool keepsACall(std::size_t loop) {
    if (!aroundRealCalls_) {
      aroundRealCalls_.emplace();
      for (const trace::Scope& s : trace_.scopes) {
        if (s.kind != trace::ScopeKind::Call) continue;
        const CallDecision* call = plan_.call(s.id);
        if (call && call->inlined) continue;
        for (std::optional<std::size_t> p = s.parent; p && aroundRealCalls_->insert(*p).second; p = trace_.scopes[*p].parent) {
        }
      }
    }
    return aroundRealCalls_->count(loop) != 0;
  }

  std::map<std::size_t, std::vector<std::size_t>> eventsIn_;
  std::vector<std::vector<std::size_t>> eventsOf_;  // scope -> its own events
  std::vector<std::vector<std::size_t>> scopesIn_;  // scope -> the scopes directly in it
  std::optional<std::set<std::size_t>> aroundRealCalls_;

  /* Whether "scope" runs in every iteration of "loop" (no undecided branch between them). */
  bool everyIteration(std::size_t scope, std::size_t loop) const {
    for (std::optional<std::size_t> p = scope; p && *p != loop; p = trace_.scopes[*p].parent)
      if (trace_.scopes[*p].kind == trace::ScopeKind::Branch && !trace_.scopes[*p].decided) return false;
    return true;
  }

  /* Read "r" of an innermost scalar loop takes the value an access of the previous iteration
     left in a register: the store of that address (GCC's PRE, Clang's loop-load elimination:
     seidel-2d's A[i][j-1] after A[i][j] was stored), or for GCC also a load of it (PRE: the
     A[i-1][j+1] of one iteration is the A[i-1][j] of the next). The earlier access must run
     in every iteration, and no store after it or before "r" may write that address. */
  void carryRead(std::size_t r) {
    if (!isAccess(r) || isWrite(r) || decided_.count(r) || trace_.events[r].loopHeader) return;
    const trace::Event& read = trace_.events[r];
    const auto loop = trace_.innermostLoop(read.scope);
    if (!loop || !sym::containersIn(read.offset).empty()) return;
    const LoopDecision* d = plan_.loop(*loop);
    if (d && (d->vectorFactor > 1 || d->slp)) return;
    if (keepsACall(*loop)) return;  // a call that stays a call may write anything (small_funcs' noinline put)
    const std::vector<std::size_t>& inLoop = eventsIn(*loop);
    auto iterator = trace_.context.find(trace_.scopes[*loop].iterator);
    const auto step = sym::toInteger(trace_.scopes[*loop].step);
    if (!iterator || !step || *step == 0) return;
    for (const std::string& name : trace_.scopes[*loop].varying)
      if (auto v = trace_.context.find(name); v && *v != *iterator && sym::contains(read.offset, *v)) return;  // not affine in the iterator
    const auto stride = sym::toInteger(read.offset.expand().coeff(*iterator, 1) * *step);
    if (!stride || *stride == 0) return;
    std::optional<std::size_t> source;
    for (auto it = inLoop.rbegin(); it != inLoop.rend() && !source; ++it) {  // the last access of the iteration holds the newest value
      const std::size_t m = *it;
      if (m == r || !isAccess(m) || trace_.events[m].loopHeader || trace_.innermostLoop(trace_.events[m].scope) != loop) continue;
      if (!isWrite(m) && plan_.target.compiler != CompilerKind::Gcc) continue;
      if (!everyIteration(trace_.events[m].scope, *loop)) continue;
      const trace::Event& other = trace_.events[m];
      if (other.container != read.container || other.bytes != read.bytes) continue;
      auto delta = sym::toInteger((other.offset - read.offset).expand());
      if (delta && *delta == *stride) source = m;
    }
    if (!source) return;
    for (std::size_t w : inLoop) {
      if (w == *source || !isAccess(w) || !isWrite(w)) continue;
      auto delta = sym::toInteger((trace_.events[w].offset - read.offset).expand());
      if (trace_.events[w].container != read.container || !delta) {
        if (view_.mayAlias(trace_, w, r)) return;
        continue;
      }
      if ((*delta == 0 && w < r) || (*delta == *stride && w > *source)) return;
    }
    const trace::Event& from = trace_.events[*source];
    decide(r, AccessDecision::Kind::Reused,
           "the value " + std::string(isWrite(*source) ? "stored" : "read") + " by " + from.text + " at " + from.loc.str() + " in the previous iteration of " +
               trace_.scopes[*loop].label() + " is still in a register");
  }

  /* The arms of each if/else chain: sibling Branch scopes of one source position, in order. */
  std::vector<std::vector<std::size_t>> chains() const {
    std::map<std::pair<std::size_t, std::string>, std::vector<std::size_t>> byPlace;
    for (const trace::Scope& s : trace_.scopes)
      if (s.kind == trace::ScopeKind::Branch && !s.decided && s.parent) byPlace[{*s.parent, s.loc.str()}].push_back(s.id);
    std::vector<std::vector<std::size_t>> out;
    out.reserve(byPlace.size());
    for (auto& [place, arms] : byPlace) out.push_back(arms);
    std::sort(out.begin(), out.end(), [&](const auto& a, const auto& b) { return depth(a.front()) > depth(b.front()); });
    return out;
  }

  std::size_t depth(std::size_t scope) const {
    std::size_t d = 0;
    for (std::optional<std::size_t> p = trace_.scopes[scope].parent; p; p = trace_.scopes[*p].parent) ++d;
    return d;
  }

  /* One arm runs whatever the data: the last arm is "else" (the first arm's condition negated, or true). */
  bool complete(const std::vector<std::size_t>& arms) const {
    if (arms.size() < 2) return false;
    const sym::Condition& last = trace_.scopes[arms.back()].condition;
    if (last.op == sym::ConditionOp::True) return true;
    return arms.size() == 2 && last.op == sym::ConditionOp::Not && last.operands.size() == 1 &&
           sym::print(last.operands.front()) == sym::print(trace_.scopes[arms.front()].condition);
  }

  /* The writes an arm makes on every path through it: its own, and those of complete chains in it
     already sunk; in event order. Indexed by scope: a scan of all events per arm was quadratic
     (88 % of simulate on lz4hc.c). */
  std::vector<std::size_t> surelyStored(std::size_t arm) const {
    std::vector<std::size_t> out;
    auto add = [&](const std::map<std::size_t, std::vector<std::size_t>>& index) {
      if (auto it = index.find(arm); it != index.end()) out.insert(out.end(), it->second.begin(), it->second.end());
    };
    add(writesIn_);
    add(sunkIntoScope_);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    std::erase_if(out, [&](std::size_t e) {
      if (decided_.count(e) != 0 && sunk_.count(e) == 0) return true;
      return trace_.events[e].scope != arm && !(sunk_.count(e) && sunkInto_.at(e) == arm);
    });
    return out;
  }

  std::set<std::size_t> sunk_;
  std::map<std::size_t, std::size_t> sunkInto_;  // sunk store -> the scope it now runs in (the chain's parent)
  std::map<std::size_t, std::vector<std::size_t>> writesIn_;          // scope -> the write accesses directly in it
  std::map<std::size_t, std::vector<std::size_t>> sunkIntoScope_;  // scope -> stores ever sunk into it

  /* A store of one address in every arm of a complete chain: one store after the chain, innermost chains first. */
  void sinkCommonStores() {
    for (const auto& arms : chains()) {
      if (!complete(arms)) continue;
      std::vector<std::vector<std::size_t>> stores;
      stores.reserve(arms.size());
      for (std::size_t arm : arms) stores.push_back(surelyStored(arm));
      for (std::size_t w : stores.front()) {
        std::vector<std::size_t> group{w};
        for (std::size_t k = 1; k < arms.size(); ++k) {
          auto it = std::find_if(stores[k].begin(), stores[k].end(), [&](std::size_t x) { return sameAddress(x, w); });
          if (it == stores[k].end()) break;
          group.push_back(*it);
        }
        if (group.size() != arms.size()) continue;
        const std::size_t parent = *trace_.scopes[arms.front()].parent;
        for (std::size_t e : group) {
          if (!sunk_.count(e))
            decide(e, AccessDecision::Kind::Sunk, "every arm of the if/else at " + trace_.scopes[arms.front()].loc.str() + " stores " +
                                                       trace_.events[w].text + ": one store after it, whichever arm runs");
          sunk_.insert(e);
          sunkInto_[e] = parent;
          sunkIntoScope_[parent].push_back(e);
        }
      }
    }
  }
};

}  // namespace

void decideReuse(const trace::Trace& contexts, const CompilerView& view, CompilationPlan& plan) {
  ReuseDecider(contexts, view, plan).run();
  std::sort(plan.accesses.begin(), plan.accesses.end(), [](const AccessDecision& a, const AccessDecision& b) { return a.event < b.event; });
}

}  // namespace cats::sim::compiler
