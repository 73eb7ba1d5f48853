// `hoisting` findings (docs/review.md): accesses that do not move in their loop but that the
// compiler model keeps in memory, every iteration, because another access may alias them;
// `restrict` on the pointer parameters involved would let the compiler keep them in registers.
#include "review_findings.hpp"

#include "tracer/hoisting.hpp"

#include <fmt/format.h>

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

}  // namespace

/* Every access the plan reloads or stores every iteration of a loop it does not move in, once
   per source access; the restrict variant re-planned and simulated, kept when it saves D1
   accesses or misses. Legal only when every call is seen to pass distinct arrays. */
std::vector<report::Finding> hoistingFindings(const ReviewInput& in) {
  std::vector<report::Finding> out;
  if (!in.run.summaries) return out;
  const trace::Trace& t = in.run.contexts;
  std::set<std::string> seen;
  for (const sim::AccessDecision& d : in.run.plan.accesses) {
    if (d.kind != sim::AccessDecision::Kind::Reloaded || !d.loop) continue;
    const trace::Event& e = t.events[d.event];
    if (!e.classification.invariantInInnermostLoop || !seen.insert(e.loc.str() + "|" + e.text).second) continue;
    report::Finding f = findingAt("hoisting", t.functionOf(e.scope), e.loc);
    const bool store = e.mode == ir::AccessMode::Write;
    f.message = fmt::format("{} does not move in {} but is {} every iteration: {}", e.text, t.scopes[*d.loop].label(),
                            store ? "stored" : "loaded", d.reason);
    const std::set<std::size_t> parameters = parametersFor(in, d.event, *d.loop);
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
      f.recommendation = fmt::format("declare {} in {}() so that the compiler keeps {} in a register across {} (a promise: nothing else "
                                     "the function reaches may overlap what the pointer points to)",
                                     restrictDeclarations, f.function, e.text, t.scopes[*d.loop].label());
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace cats::driver
