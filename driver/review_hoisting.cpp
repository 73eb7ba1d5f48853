// `hoisting` findings (docs/review.md): accesses that do not move in their loop but that the
// compiler model keeps in memory, every iteration, because another access may alias them;
// `restrict` on the pointer parameters involved would let the compiler keep them in registers.
#include "review_findings.hpp"

#include "tracer/hoisting.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
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

/* An access the plan reloads or stores every iteration of a loop it does not move in, with the
   fix that would keep it in a register: the parameters to declare restrict (none: not
   evaluable) in its function. */
struct Reloaded {
  const sim::AccessDecision* decision = nullptr;
  std::set<std::size_t> parameters;
  std::string fix;  // the function and the parameters: one finding per fix
};

/* Each source access once, in plan order. */
std::vector<Reloaded> reloadedAccesses(const ReviewInput& in) {
  const trace::Trace& t = in.run.contexts;
  std::vector<Reloaded> out;
  std::set<std::string> seen;
  for (const sim::AccessDecision& d : in.run.plan.accesses) {
    if (d.kind != sim::AccessDecision::Kind::Reloaded || !d.loop) continue;
    const trace::Event& e = t.events[d.event];
    if (!e.classification.invariantInInnermostLoop || !seen.insert(e.loc.str() + "|" + e.text).second) continue;
    Reloaded r{&d, parametersFor(in, d.event, *d.loop), t.functionOf(e.scope) + "|"};
    for (std::size_t p : r.parameters) r.fix += std::to_string(p) + ",";
    out.push_back(std::move(r));
  }
  return out;
}

/* "; likewise 3 more access(es) of f() (lines 12, 14, 20)" for a group of more than one. */
std::string othersText(const trace::Trace& t, const std::vector<const Reloaded*>& group, const std::string& function) {
  constexpr std::size_t kListed = 6;
  if (group.size() < 2) return {};
  std::vector<unsigned> lines;
  for (std::size_t k = 1; k < group.size(); ++k) {
    const unsigned line = t.events[group[k]->decision->event].loc.line;
    if (std::find(lines.begin(), lines.end(), line) == lines.end()) lines.push_back(line);
  }
  const std::size_t shown = std::min(lines.size(), kListed);
  return fmt::format("; likewise {} more access(es) of {}() (line{} {}{})", group.size() - 1, function, lines.size() > 1 ? "s" : "",
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
  const std::vector<Reloaded> reloaded = reloadedAccesses(in);
  for (const auto& group : groupedBy(reloaded, [](const Reloaded& r) { return r.fix; })) {
    const sim::AccessDecision& d = *group.front()->decision;
    const std::set<std::size_t>& parameters = group.front()->parameters;
    const trace::Event& e = t.events[d.event];
    report::Finding f = findingAt("hoisting", t.functionOf(e.scope), e.loc);
    const bool store = e.mode == ir::AccessMode::Write;
    f.message = fmt::format("{} does not move in {} but is {} every iteration: {}", e.text, t.scopes[*d.loop].label(),
                            store ? "stored" : "loaded", d.reason) +
                othersText(t, group, f.function);
    if (parameters.empty()) {
      f.message += "; not evaluated: no pointer parameter to declare restrict (the accesses go through loaded pointers or named objects)";
      out.push_back(std::move(f));
      continue;
    }
    const std::string restrictDeclarations = declarations(*in.run.summaries, parameters);
    if (!predictAccessGain(f, in, trace::withRestrict(t, *in.run.summaries, parameters))) continue;  // no gain: nothing to say
    f.message += fmt::format("; with {} the {} accesses would be {} instead of {} ({} misses {} -> {})", restrictDeclarations,
                             f.accesses->level, f.accesses->after, f.accesses->before, f.predicted.front().level,
                             f.predicted.front().before, f.predicted.front().after);
    std::string why;
    f.legal = trace::restrictHolds(t, *in.run.summaries, parameters, &why);
    f.message += f.legal ? "; every call seen passes distinct arrays, but restrict is a promise the programmer must check"
                         : fmt::format("; restrict is a promise the programmer must check, and the model cannot: {}", why);
    if (f.legal)
      f.recommendation = fmt::format("declare {} in {}() so that the compiler keeps {}{} in a register across {} (a promise: nothing else "
                                     "the function reaches may overlap what the pointer points to)",
                                     restrictDeclarations, f.function, e.text,
                                     group.size() > 1 ? fmt::format(" (and the {} others)", group.size() - 1) : std::string(),
                                     t.scopes[*d.loop].label());
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace cats::driver
