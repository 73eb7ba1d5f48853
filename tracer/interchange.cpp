#include "tracer/interchange.hpp"

#include "band.hpp"
#include "tracer/strides.hpp"

#include <algorithm>
#include <cstdlib>

namespace cats::trace {

namespace {

bool mentions(const sym::Expr& e, const std::optional<sym::Symbol>& s) { return s && sym::contains(e, *s); }

/* The loops from "outer" down to "inner", both included; empty when "inner" is not below "outer". */
std::vector<std::size_t> loopsBetween(const Trace& t, std::size_t outer, std::size_t inner) {
  std::vector<std::size_t> path;
  for (std::optional<std::size_t> s = inner; s; s = t.scopes[*s].parent) {
    if (t.scopes[*s].kind == ScopeKind::Loop) path.push_back(*s);
    if (*s == outer) {
      std::reverse(path.begin(), path.end());
      return path;
    }
  }
  return {};
}

struct Legality {
  std::optional<bool> legal;
  std::string why;
};

/* Swapping band[k] with the innermost band[d-1]: adjacent loops have their own verdict, any
   two loops of a fully permutable band may change places; otherwise the model does not say. */
Legality legalityOf(const NestVerdict& nest, std::size_t k) {
  const std::size_t last = nest.band.size() - 1;
  if (!nest.unknown.empty()) return {std::nullopt, "the dependences are unknown: " + nest.unknown};
  if (k + 1 == last) {
    if (nest.interchangeLegal[k]) return {true, "no dependence is reversed by the interchange"};
    return {false, "a dependence carried by the band would be reversed"};
  }
  if (nest.permutable) return {true, "the band is fully permutable"};
  return {std::nullopt, "the band is not fully permutable and the dependences of this non-adjacent interchange were not checked"};
}

std::string swapProblem(const Trace& contexts, std::size_t outer, std::size_t inner);

}  // namespace

std::vector<InterchangeCandidate> findInterchanges(const Trace& contexts, const Trace& modelContexts, const ProgramDependences& deps,
                                                   const std::map<std::string, std::int64_t>& bindings, std::int64_t lineBytes) {
  const std::map<std::string, std::size_t> loops = loopsByPlace(contexts);
  const GiNaC::exmap values = bindingValues(contexts, bindings);
  std::vector<InterchangeCandidate> out;
  for (const NestVerdict& nest : deps.nests) {
    if (nest.band.size() < 2 || nest.interchangeLegal.size() + 1 < nest.band.size()) continue;
    const std::vector<std::size_t> band = bandIn(modelContexts, nest, loops);
    if (band.size() != nest.band.size()) continue;
    const Scope& innermost = contexts.scopes[band.back()];
    if (innermost.iterator.empty()) continue;
    // The access of the innermost loop walked with the largest stride of at least a line.
    const Event* worst = nullptr;
    std::int64_t worstStride = 0;
    for (const Event& e : contexts.events) {
      if (e.kind != EventKind::Access || e.loopHeader || contexts.innermostLoop(e.scope) != band.back()) continue;
      if (e.classification.kind == AccessClass::Indirect || e.classification.kind == AccessClass::Constant) continue;
      auto stride = strideOver(contexts, e, innermost, values);
      if (!stride || std::llabs(*stride) < lineBytes || std::llabs(*stride) <= worstStride) continue;
      worst = &e;
      worstStride = std::llabs(*stride);
    }
    if (!worst) continue;
    // Every other loop of the band that would walk it by its elements (or not move it) is a candidate.
    for (std::size_t k = 0; k + 1 < band.size(); ++k) {
      const Scope& other = contexts.scopes[band[k]];
      if (other.iterator.empty()) continue;
      auto after = strideOver(contexts, *worst, other, values);
      if (!after || std::llabs(*after) > worst->bytes) continue;
      InterchangeCandidate c;
      c.outer = band[k];
      c.inner = band.back();
      c.function = nest.band.back().function;
      c.loc = innermost.loc;
      c.outerIterator = nest.band[k].iterator;
      c.innerIterator = nest.band.back().iterator;
      c.container = contexts.containers[worst->container].name;
      c.access = worst->text;
      c.event = static_cast<std::size_t>(worst - contexts.events.data());
      c.strideBefore = worstStride;
      c.strideAfter = std::llabs(*after);
      Legality legality = legalityOf(nest, k);
      c.legal = legality.legal;
      c.legality = legality.why;
      c.notEvaluated = swapProblem(contexts, c.outer, c.inner);
      out.push_back(std::move(c));
    }
  }
  return out;
}

namespace {

/* Why "outer" and "inner" cannot change places; empty when they can. */
std::string swapProblem(const Trace& contexts, std::size_t outer, std::size_t inner) {
  auto fail = [](const std::string& reason) { return reason; };
  std::vector<std::size_t> loops = loopsBetween(contexts, outer, inner);
  if (loops.size() < 2) return fail("the loops are not nested");
  std::vector<std::optional<sym::Symbol>> iterators;
  for (std::size_t l : loops) {
    const Scope& s = contexts.scopes[l];
    if (s.iterator.empty() || s.earlyExit) return fail(s.label() + " has no iterator or leaves early");
    // A value the body changes per iteration (a pointer bumped, a running index) follows the loop order: swapping would change it.
    for (const std::string& v : s.varying)
      if (v != s.iterator) return fail(s.label() + " also changes '" + v + "' every iteration");
    iterators.push_back(contexts.context.find(s.iterator));
  }
  for (std::size_t l : loops) {
    const Scope& s = contexts.scopes[l];
    for (const auto& it : iterators) {
      if (it && it->get_name() == s.iterator) continue;
      if (mentions(s.start, it) || mentions(s.bound, it) || mentions(s.step, it))
        return fail("the bounds of " + s.label() + " depend on another loop of the band (not a rectangular nest)");
    }
  }
  return {};
}

}  // namespace

std::optional<Trace> interchanged(const Trace& contexts, std::size_t outer, std::size_t inner, std::string* why) {
  std::string problem = swapProblem(contexts, outer, inner);
  if (!problem.empty()) {
    if (why) *why = problem;
    return std::nullopt;
  }
  Trace out = contexts;
  Scope& a = out.scopes[outer];
  Scope& b = out.scopes[inner];
  // The loop's own description moves; its place in the tree (id, parent, first event) stays.
  Scope keptA = a, keptB = b;
  std::swap(a, b);
  for (auto [scope, kept] : {std::pair{&a, &keptA}, std::pair{&b, &keptB}}) {
    scope->id = kept->id;
    scope->parent = kept->parent;
    scope->firstEvent = kept->firstEvent;
  }
  return out;
}

}  // namespace cats::trace
