// The inliner per call site, as GCC 12 and Clang 14 decide it (docs/register-model.md,
// "Inlining and constants"). Sizes come from FunctionTraits::statements through a calibration
// measured against both compilers' own reports (-fopt-info-inline, -Rpass=inline).
#include "inliner.hpp"

#include <algorithm>
#include <cmath>

namespace cats::sim::compiler {

namespace {

/* GCC's size estimate of a body of "statements" statements and expressions (its "insns"). */
int gccInsns(std::size_t statements) {
  return std::max(1, static_cast<int>(std::lround(kGccInsnsPerStatement * static_cast<double>(statements))) - kGccBodyOffset);
}

/* Clang's inline cost of a body of "operations" (after simplification), before bonuses (5 per
   IR instruction, less what the call itself costs). */
int clangCost(std::size_t operations) {
  return static_cast<int>(std::lround(kClangCostPerOperation * static_cast<double>(operations))) - kClangCallSaving;
}

struct Verdict {
  bool inlined = false;
  std::string reason;
};

/* What inlining "call" adds to its caller's size (GCC: insns less the call and its arguments;
   Clang: the inline cost, which already nets out the call), the callee's own inlined calls included. */
int growthOf(const trace::Scope& call, const ir::FunctionTraits& traits, const CompilerTarget& target, int inlinedSize) {
  if (target.compiler == CompilerKind::Gcc)
    return gccInsns(traits.statements) + inlinedSize - kGccCallInsns - static_cast<int>(call.calleeSymbols.size());
  return clangCost(traits.operations) + inlinedSize;
}

/* The attributes and facts every level and compiler obeys the same way. */
std::optional<Verdict> fixedVerdict(const trace::Scope& call, const ir::FunctionTraits* traits, const CompilerTarget& target) {
  if (call.function == "main") return Verdict{false, "main is never inlined"};
  if (!traits) return Verdict{false, "no body analysed"};
  if (traits->alwaysInline) return Verdict{true, "always_inline"};
  if (traits->noInline) return Verdict{false, "noinline"};
  if (call.reentered) return Verdict{false, "recursive"};
  if (target.optLevel == 0) return Verdict{false, "-O0 inlines only always_inline functions"};
  if (!target.inlining) return Verdict{false, "-fno-inline"};
  return std::nullopt;
}

std::string sitesText(std::size_t sites) { return "called from " + std::to_string(sites) + (sites == 1 ? " site" : " sites"); }

struct GccLimits {
  int early;   // early-inlining-insns: growth the early inliner accepts
  int autoInsns;    // max-inline-insns-auto: functions not declared inline
  int singleInsns;  // max-inline-insns-single: functions declared inline
};

GccLimits gccLimits(int optLevel) {
  if (optLevel >= 3) return {14, 30, 200};
  return {6, 15, 70};
}

Verdict gccVerdict(const trace::Scope& call, const ir::FunctionTraits& traits, const CompilerTarget& target, const CallSites& sites,
                   int inlinedInsns) {
  std::size_t n = sites.sites(call.function);
  int insns = gccInsns(traits.statements) + inlinedInsns;
  int growth = growthOf(call, traits, target, inlinedInsns);
  bool cold = call.parent && sites.runsOnce(*call.parent, true);
  std::string size = std::to_string(traits.statements) + " statements" + (inlinedInsns > 0 ? " and inlined calls" : "") + ", ~" +
                     std::to_string(insns) + " insns";
  GccLimits limits = gccLimits(target.optLevel);
  if (target.optLevel == 1) {
    bool unlikely = call.parent && sites.runsOnce(*call.parent, false);
    if (traits.declaredInline && (growth <= 0 || (!unlikely && insns <= limits.singleInsns)))
      return {true, "declared inline, within max-inline-insns-single " + std::to_string(limits.singleInsns) + " (" + size + ")"};
    return {false, std::string("-O1 inlines only functions declared inline") + (unlikely ? ", and in main outside loops only those no larger than the call" : "") +
                       " (" + size + ")"};
  }
  // The IPA inliner sees a call in main outside any loop as executed once (frequency below 1.5).
  bool once = call.parent && sites.runsOnce(*call.parent, false);
  std::string grows = "grows the caller by ~" + std::to_string(growth) + " insns";
  if (growth <= limits.early) return {true, "early inliner: " + grows + ", within early-inlining-insns " + std::to_string(limits.early) + " (" + size + ")"};
  if (traits.isStatic && n == 1) return {true, "static, called once"};
  // Such a call is inlined only when the code does not grow beyond what the early inliner
  // accepts: "call is cold and code would grow", then "call is unlikely and code size would grow".
  if (once) return {false, "call executed once (main, outside loops) and " + grows + ", over early-inlining-insns " + std::to_string(limits.early) + " (" + size + ", " + sitesText(n) + ")"};
  // A cold call (main runs once) gets the limit for functions not declared inline, whatever the keyword says.
  int limit = traits.declaredInline && !cold ? limits.singleInsns : limits.autoInsns;
  std::string param = traits.declaredInline && !cold ? "max-inline-insns-single" : "max-inline-insns-auto";
  std::string where = cold ? "cold call (main runs once): " : "";
  if (insns <= limit) return {true, where + "small: " + size + " within " + param + " " + std::to_string(limit)};
  return {false, where + "too large: " + size + " over " + param + " " + std::to_string(limit) + ", " + sitesText(n)};
}

Verdict clangVerdict(const trace::Scope& call, const ir::FunctionTraits& traits, const CompilerTarget& target, const CallSites& sites,
                     int inlinedCost) {
  std::size_t n = sites.sites(call.function);
  int cost = growthOf(call, traits, target, inlinedCost);
  int threshold = target.optLevel >= 3 ? 250 : 225;
  if (traits.declaredInline) threshold = std::max(threshold, 325);
  std::string size = std::to_string(traits.operations) + " operations" + (inlinedCost > 0 ? " and inlined calls" : "");
  if (traits.isStatic && n == 1) return {true, "last call to a static function (cost " + std::to_string(cost) + " - 15000, " + size + ")"};
  std::string verdict = "cost " + std::to_string(cost) + (cost < threshold ? " < " : " >= ") + "threshold " + std::to_string(threshold) + " (" + size + ")";
  return {cost < threshold, verdict};
}

}  // namespace

/* Bottom-up, as both compilers inline: a callee is priced with the calls already inlined into it
   (Clang's CGSCC walk, GCC's early inliner on callees first), so a thin wrapper around a large
   inlined helper is large. Scopes open before their children, so reverse order visits callees first. */
std::vector<CallDecision> decideInlining(const CallSites& sites, const CompilerTarget& target) {
  const std::vector<trace::Scope>& scopes = sites.contexts.scopes;
  std::vector<int> inlinedSize(scopes.size(), 0);  // per Call scope: what its inlined calls add to the callee
  std::vector<CallDecision> decisions;
  for (std::size_t i = scopes.size(); i-- > 0;) {
    const trace::Scope& s = scopes[i];
    if (s.kind != trace::ScopeKind::Call) continue;
    auto found = sites.contexts.functions.find(s.function);
    const ir::FunctionTraits* traits = found == sites.contexts.functions.end() ? nullptr : &found->second;
    std::optional<Verdict> verdict = fixedVerdict(s, traits, target);
    if (!verdict)
      verdict = target.compiler == CompilerKind::Gcc ? gccVerdict(s, *traits, target, sites, inlinedSize[i])
                                                    : clangVerdict(s, *traits, target, sites, inlinedSize[i]);
    if (verdict->inlined && traits && s.parent)
      if (std::size_t caller = sites.entryOf(*s.parent); scopes[caller].kind == trace::ScopeKind::Call)
        inlinedSize[caller] += std::max(0, growthOf(s, *traits, target, inlinedSize[i]));
    CallDecision d;
    d.scope = s.id;
    d.inlined = verdict->inlined;
    d.reason = std::move(verdict->reason);
    decisions.push_back(std::move(d));
  }
  std::reverse(decisions.begin(), decisions.end());
  return decisions;
}

}  // namespace cats::sim::compiler
