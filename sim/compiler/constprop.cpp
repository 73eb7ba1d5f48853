// Compile-time values through inlining and interprocedural constant propagation, and the loop
// trip counts they make known.
#include "constprop.hpp"

#include "view.hpp"

#include <algorithm>

namespace cats::sim::compiler {

namespace {

constexpr int kMaxCallDepth = 64;  // value chains through more inlined calls than this are left unknown
constexpr int kMaxRounds = 16;     // constant propagation rounds (each may fix constants of callees deeper down)

}  // namespace

const CallDecision* CompileTimeValues::decision(std::size_t scope) const { return findByScope(calls_, scope); }

CompileTimeValue CompileTimeValues::valueOf(const sym::Expr& e, std::size_t entry, int depth) const {
  if (!sym::containersIn(e).empty()) return {std::nullopt, sym::print(e) + " is read from memory"};
  GiNaC::exmap numbers;
  for (auto it = e.preorder_begin(); it != e.preorder_end(); ++it) {
    if (!GiNaC::is_a<GiNaC::symbol>(*it)) continue;
    CompileTimeValue v = symbolValue(GiNaC::ex_to<GiNaC::symbol>(*it).get_name(), entry, depth);
    if (!v.number) return v;
    numbers[*it] = *v.number;
  }
  auto value = sym::toInteger(e.subs(numbers).expand());
  if (!value) return {std::nullopt, sym::print(e) + " is not an integer"};
  return {value, ""};
}

CompileTimeValue CompileTimeValues::symbolValue(const std::string& name, std::size_t entry, int depth) const {
  const trace::Scope& in = sites_.contexts.scopes[entry];
  auto index = std::find(in.calleeSymbols.begin(), in.calleeSymbols.end(), name);
  if (in.kind != trace::ScopeKind::Call || index == in.calleeSymbols.end())
    return {std::nullopt, name + " is not a compile-time constant in " + in.function};
  std::size_t i = static_cast<std::size_t>(index - in.calleeSymbols.begin());
  if (auto f = constants_.find(in.function); f != constants_.end())
    if (auto c = f->second.find(i); c != f->second.end()) return {c->second, ""};
  const CallDecision* d = decision(entry);
  if (!d || !d->inlined) {
    std::size_t n = sites_.sites(in.function);
    return {std::nullopt, name + " is a parameter of " + in.function + ", which is not inlined (called from " + std::to_string(n) +
                              (n == 1 ? " site)" : " sites)")};
  }
  if (!in.sourceArguments[i]) return {std::nullopt, name + " of " + in.function + " takes a value the analysis cannot follow"};
  if (depth >= kMaxCallDepth || !in.parent) return {std::nullopt, name + " comes through too many calls"};
  return valueOf(*in.sourceArguments[i], sites_.entryOf(*in.parent), depth + 1);
}

bool CompileTimeValues::propagates(const CompilerTarget& target, const std::string& function) const {
  if (target.optLevel == 0 || (target.compiler == CompilerKind::Gcc && target.optLevel < 2)) return false;  // -fipa-cp is -O2
  auto traits = sites_.contexts.functions.find(function);
  bool isStatic = traits != sites_.contexts.functions.end() && traits->second.isStatic;
  // Measured (tests/compiler_ipa_test.cpp): GCC 12 clones a non-static function as
  // name.constprop.0 at -O3 but not at -O2; Clang's IPSCCP changes internal functions only.
  return isStatic || (target.compiler == CompilerKind::Gcc && target.optLevel >= 3);
}

void CompileTimeValues::propagateConstants(const CompilerTarget& target, std::vector<CallDecision>& calls) {
  for (int round = 0; round < kMaxRounds; ++round) {
    bool changed = false;
    for (const auto& [function, scopes] : sites_.callsOf) {
      if (!propagates(target, function)) continue;
      std::vector<std::size_t> outOfLine;
      for (std::size_t s : scopes)
        if (const CallDecision* d = decision(s); !d || !d->inlined) outOfLine.push_back(s);
      if (outOfLine.empty()) continue;
      const trace::Scope& first = sites_.contexts.scopes[outOfLine.front()];
      for (std::size_t i = 0; i < first.calleeSymbols.size(); ++i) {
        if (first.calleeSymbols[i].empty() || constants_[function].count(i)) continue;
        std::optional<std::int64_t> same;
        bool agree = true;
        for (std::size_t s : outOfLine) {
          const trace::Scope& call = sites_.contexts.scopes[s];
          std::optional<std::int64_t> v;
          if (i < call.sourceArguments.size() && call.sourceArguments[i] && call.parent)
            v = valueOf(*call.sourceArguments[i], sites_.entryOf(*call.parent)).number;
          if (!v || (same && *same != *v)) {
            agree = false;
            break;
          }
          same = v;
        }
        if (!agree) continue;
        constants_[function][i] = *same;
        changed = true;
      }
    }
    if (!changed) break;
  }
  for (CallDecision& d : calls) {
    const trace::Scope& call = sites_.contexts.scopes[d.scope];
    auto f = constants_.find(call.function);
    if (d.inlined || f == constants_.end()) continue;
    for (const auto& [i, value] : f->second) d.constantParameters.push_back(call.calleeSymbols[i] + "=" + std::to_string(value));
  }
}

std::vector<LoopDecision> decideTrips(const CallSites& sites, const CompileTimeValues& values, const CompilerTarget& target) {
  std::vector<LoopDecision> loops;
  for (const trace::Scope& s : sites.contexts.scopes) {
    if (s.kind != trace::ScopeKind::Loop) continue;
    LoopDecision d;
    d.scope = s.id;
    if (s.parallel && target.openmp) {
      // The OpenMP lowering turns the loop into one over this thread's share (or chunk), whose
      // bounds come from omp_get_num_threads() and the thread number: GCC 12 -O2 then reports
      // "number of iterations cannot be computed".
      d.tripsReason = "an OpenMP parallel loop: each thread's share of the iterations is computed at run time";
    } else if (s.iterator.empty()) {
      d.tripsReason = "the loop's trip count is not an expression the analysis follows";
    } else if (!s.summary) {
      d.constantTrips = s.staticBounds;
      d.tripsReason = s.staticBounds ? "start, bound and step are numbers in the loop's function" : "a bound is not a number in the loop's function";
    } else {
      std::size_t entry = sites.entryOf(s.id);
      const std::pair<const char*, const sym::Expr*> parts[] = {{"start", &s.sourceStart}, {"bound", &s.sourceBound}, {"step", &s.sourceStep}};
      d.constantTrips = true;
      for (const auto& [what, e] : parts) {
        CompileTimeValue v = values.valueOf(*e, entry);
        if (v.number) continue;
        d.constantTrips = false;
        d.tripsReason = std::string(what) + " " + sym::print(*e) + ": " + v.why;
        break;
      }
      if (d.constantTrips) d.tripsReason = "start, bound and step are compile-time numbers after inlining and constant propagation";
      if (d.constantTrips && s.earlyExit) {
        d.constantTrips = false;
        d.tripsReason = "the loop may exit early";
      }
    }
    loops.push_back(std::move(d));
  }
  return loops;
}

}  // namespace cats::sim::compiler
