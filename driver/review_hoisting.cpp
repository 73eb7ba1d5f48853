// `hoisting` findings (docs/review.md): accesses that do not move in their loop but that the
// compiler model keeps in memory, every iteration, because another access may alias them;
// `restrict` on the pointer parameters involved would let the compiler keep them in registers.
#include "review_findings.hpp"

#include "tracer/hoisting.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

namespace cats::driver {

namespace {

/* The pointer parameters to declare restrict so that the compiler may promote access "e" out
   of "loop": its own, else those of the accesses of the loop that may conflict with it. */
std::set<std::size_t> parametersFor(const ReviewInput& in, std::size_t e, std::size_t loop) {
  const trace::Trace& t = in.run.contexts;
  const trace::Trace& summaries = *in.run.summaries;
  if (auto own = trace::parameterOf(t, summaries, e)) return {*own};
  std::set<std::size_t> out;
  const bool store = t.events[e].mode == ir::AccessMode::Write;
  for (std::size_t f = 0; f < t.events.size(); ++f) {
    const trace::Event& other = t.events[f];
    if (f == e || other.kind != trace::EventKind::Access || !t.encloses(loop, other.scope)) continue;
    if (!store && other.mode != ir::AccessMode::Write) continue;
    if (auto p = trace::parameterOf(t, summaries, f)) out.insert(*p);
  }
  return out;
}

std::string declarations(const trace::Trace& summaries, const std::set<std::size_t>& parameters) {
  std::string out;
  for (std::size_t p : parameters) {
    const trace::Container& c = summaries.containers[p];
    out += fmt::format("{}`{} *restrict {}`", out.empty() ? "" : ", ", c.elementType, c.declaredName);
  }
  return out;
}

/* The reloaded accesses of one fix: the same function, the same parameters to declare restrict
   (none: not evaluable), each source access once, in plan order. */
struct HoistGroup {
  std::vector<const sim::AccessDecision*> decisions;
  std::set<std::size_t> parameters;
};

std::vector<HoistGroup> hoistGroups(const ReviewInput& in) {
  const trace::Trace& t = in.run.contexts;
  std::vector<HoistGroup> groups;
  std::map<std::string, std::size_t> byFix;
  std::set<std::string> seen;
  for (const sim::AccessDecision& d : in.run.plan.accesses) {
    if (d.kind != sim::AccessDecision::Kind::Reloaded || !d.loop) continue;
    const trace::Event& e = t.events[d.event];
    if (!e.classification.invariantInInnermostLoop || !seen.insert(e.loc.str() + "|" + e.text).second) continue;
    std::set<std::size_t> parameters = parametersFor(in, d.event, *d.loop);
    std::string key = t.functionOf(e.scope) + "|";
    for (std::size_t p : parameters) key += std::to_string(p) + ",";
    auto [found, isNew] = byFix.try_emplace(key, groups.size());
    if (isNew) groups.push_back(HoistGroup{{}, std::move(parameters)});
    groups[found->second].decisions.push_back(&d);
  }
  return groups;
}

/* ", and 3 more accesses of f() the same fix keeps in registers (lines 12, 14, 20)" for a group
   of more than one. */
std::string othersText(const trace::Trace& t, const HoistGroup& g, const std::string& function) {
  constexpr std::size_t kListed = 6;
  if (g.decisions.size() < 2) return {};
  std::vector<unsigned> lines;
  for (std::size_t k = 1; k < g.decisions.size(); ++k) {
    const unsigned line = t.events[g.decisions[k]->event].loc.line;
    if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
  }
  const std::size_t shown = std::min(lines.size(), kListed);
  return fmt::format("; likewise {} more access(es) of {}() (line{} {}{})", g.decisions.size() - 1, function, lines.size() > 1 ? "s" : "",
                     fmt::join(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(shown), ", "),
                     shown < lines.size() ? fmt::format(" and {} more", lines.size() - shown) : std::string());
}

}  // namespace

/* The accesses the plan reloads or stores every iteration of a loop they do not move in, one
   finding per fix (the function and the parameters to declare restrict: every access that fix
   lets the compiler keep in registers together), at the first of them; the restrict variant
   re-planned and simulated, kept when it saves D1 accesses or misses. Legal only when every call
   is seen to pass distinct arrays. */
std::vector<report::Finding> hoistingFindings(const ReviewInput& in) {
  std::vector<report::Finding> out;
  if (!in.run.summaries) return out;
  const trace::Trace& t = in.run.contexts;
  for (const HoistGroup& g : hoistGroups(in)) {
    const sim::AccessDecision& d = *g.decisions.front();
    const trace::Event& e = t.events[d.event];
    report::Finding f = findingAt("hoisting", t.functionOf(e.scope), e.loc);
    const bool store = e.mode == ir::AccessMode::Write;
    f.message = fmt::format("{} does not move in {} but is {} every iteration: {}", e.text, t.scopes[*d.loop].label(),
                            store ? "stored" : "loaded", d.reason) +
                othersText(t, g, f.function);
    if (g.parameters.empty()) {
      f.message += "; not evaluated: no pointer parameter to declare restrict (the accesses go through loaded pointers or named objects)";
      out.push_back(std::move(f));
      continue;
    }
    const std::string restrictDeclarations = declarations(*in.run.summaries, g.parameters);
    if (!predictAccessGain(f, in, trace::withRestrict(t, *in.run.summaries, g.parameters))) continue;  // no gain: nothing to say
    f.message += fmt::format("; with {} the {} accesses would be {} instead of {} ({} misses {} -> {})", restrictDeclarations,
                             f.accesses->level, f.accesses->after, f.accesses->before, f.predicted.front().level,
                             f.predicted.front().before, f.predicted.front().after);
    std::string why;
    f.legal = trace::restrictHolds(t, *in.run.summaries, g.parameters, &why);
    f.message += f.legal ? "; every call seen passes distinct arrays, but restrict is a promise the programmer must check"
                         : fmt::format("; restrict is a promise the programmer must check, and the model cannot: {}", why);
    if (f.legal)
      f.recommendation = fmt::format("declare {} in {}() so that the compiler keeps {}{} in a register across {} (a promise: nothing else "
                                     "the function reaches may overlap what the pointer points to)",
                                     restrictDeclarations, f.function, e.text,
                                     g.decisions.size() > 1 ? fmt::format(" (and the {} others)", g.decisions.size() - 1) : std::string(),
                                     t.scopes[*d.loop].label());
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace cats::driver
