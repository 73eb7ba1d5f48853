// Call sites come from the Call scopes; contexts are counted over the call graph without its
// recursive edges, which is a DAG, by memoised sums.
#include "tracer/call_sites.hpp"

#include <limits>
#include <optional>

namespace cats::trace {

std::string CallSite::label() const { return caller + "@" + std::to_string(loc.line); }

std::string FunctionContexts::summary(std::size_t shown) const {
  std::string out = entry ? "entry" : "";
  if (!sites.empty()) {
    out += out.empty() ? "called from " : "; called from ";
    for (std::size_t i = 0; i < sites.size() && i < shown; ++i) out += (i ? ", " : "") + sites[i].label() + (sites[i].recursive ? " (recursive)" : "");
    if (sites.size() > shown) out += " (+" + std::to_string(sites.size() - shown) + ")";
  }
  if (contexts != sites.size() + (entry ? 1 : 0)) out += "; " + std::to_string(contexts) + (contexts == 1 ? " context" : " contexts");
  return out.empty() ? "not called" : out;
}

namespace {

std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

std::uint64_t contextsOf(const std::string& f, std::map<std::string, FunctionContexts>& all, std::map<std::string, std::optional<std::uint64_t>>& memo) {
  auto& m = memo[f];
  if (m) return *m;
  m = 0;  // a cycle that slipped past the recursion flags counts nothing more
  const FunctionContexts& fc = all[f];
  std::uint64_t n = fc.entry ? 1 : 0;
  for (const auto& s : fc.sites)
    if (!s.recursive) n = saturatingAdd(n, contextsOf(s.caller, all, memo));
  memo[f] = n;
  return n;
}

}  // namespace

std::map<std::string, FunctionContexts> callSites(const Trace& t) {
  std::map<std::string, FunctionContexts> out;
  if (t.form != TraceForm::Summaries) return out;
  for (const auto& s : t.scopes)
    if (s.kind == ScopeKind::Function && s.parent == std::size_t{0}) out[s.function];
  for (const auto& e : t.entries) out[e].entry = true;
  for (const auto& s : t.scopes)
    if (s.kind == ScopeKind::Call) out[s.function].sites.push_back(CallSite{t.functionOf(*s.parent), s.loc, s.recursive});
  std::map<std::string, std::optional<std::uint64_t>> memo;
  for (auto& [name, fc] : out) fc.contexts = contextsOf(name, out, memo);
  return out;
}

}  // namespace cats::trace
