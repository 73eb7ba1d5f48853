// The loop decisions of GCC 12 and Clang 14 (docs/register-model.md, "Vectorisation: GCC",
// "Vectorisation: Clang", "Promotion and reloads"), made on the contexts trace with the
// compiler's view of aliasing: promotion or reload of invariant accesses first, then, per loop
// nest, the innermost loop the target's vectoriser takes.
#include "loops.hpp"

#include <ginac/ginac.h>

#include <algorithm>
#include <set>

namespace cats::sim::compiler {

namespace {

/// What one loop scope holds, as the vectoriser looks at it.
struct LoopFacts {
  std::vector<std::size_t> accesses;  // access events anywhere below it
  bool blocked = false;               // a branch, a real call or an opaque loop below it
  std::string blockedWhy;
  std::optional<std::int64_t> trips;  // known here: numbers, or parameters with values
  bool unitStep = false;
};

class LoopDecider {
 public:
  LoopDecider(const trace::Trace& t, const CompilerView& v, CompilationPlan& p) : trace_(t), view_(v), plan_(p) {}

  void run() {
    indexInnerLoops();
    bindValues();
    collectFacts();
    decidePromotion();
    for (std::size_t s = 0; s < trace_.scopes.size(); ++s)
      if (isNestRoot(s)) vectorizeNest(s);
  }

 private:
  const trace::Trace& trace_;
  const CompilerView& view_;
  CompilationPlan& plan_;
  GiNaC::exmap values_;
  std::vector<LoopFacts> facts_;                        // by scope id (non-loops empty)
  std::vector<std::vector<std::size_t>> innerLoops_;     // by scope id: the loops directly inside it, in scope order
  std::vector<std::optional<std::size_t>> promotedOut_;  // per event: outermost loop it is promoted out of
  std::vector<std::optional<std::size_t>> reloadedIn_;   // per event: loop it is reloaded in

  const CompilerTarget& target() const { return plan_.target; }

  LoopDecision& decision(std::size_t scope) { return *findByScope(plan_.loops, scope); }

  /* Values of parameters the program or the command line fixes (-D, initialised globals). */
  void bindValues() {
    for (const auto& [name, value] : trace_.defaults)
      if (auto s = trace_.context.find(name)) values_[*s] = GiNaC::numeric(static_cast<long>(value));
    for (const auto& [name, text] : trace_.bindings) {
      auto s = trace_.context.find(name);
      if (!s) continue;
      try {
        values_[*s] = GiNaC::numeric(static_cast<long>(std::stoll(text)));
      } catch (const std::exception&) {
      }
    }
  }

  std::optional<std::int64_t> number(const sym::Expr& e) const { return sym::toInteger(e.subs(values_).expand()); }

  std::optional<sym::Symbol> iteratorOf(std::size_t loop) const {
    const trace::Scope& s = trace_.scopes[loop];
    if (s.iterator.empty()) return std::nullopt;
    return trace_.context.find(s.iterator);
  }

  /* Whether "e" holds the iterator of "loop" or a value that changes with its iterations. */
  bool movesWith(const sym::Expr& e, std::size_t loop) const {
    const trace::Scope& s = trace_.scopes[loop];
    if (auto it = iteratorOf(loop); it && sym::contains(e, *it)) return true;
    for (const std::string& name : s.varying)
      if (auto v = trace_.context.find(name); v && sym::contains(e, *v)) return true;
    return false;
  }

  bool fromData(const sym::Expr& e) const { return !sym::containersIn(e).empty() || sym::containsUnknown(e, trace_.context); }

  /* The byte stride of access event "e" per iteration of "loop": 0 when invariant, none when not affine in it. */
  std::optional<std::int64_t> strideOf(std::size_t e, std::size_t loop) const {
    const trace::Event& ev = trace_.events[e];
    if (fromData(ev.offset)) return std::nullopt;
    auto it = iteratorOf(loop);
    sym::Expr offset = ev.offset.expand();
    if (!it) return movesWith(offset, loop) ? std::nullopt : std::optional<std::int64_t>(0);
    if (offset.degree(*it) > 1) return std::nullopt;
    sym::Expr rest = (offset - offset.coeff(*it, 1) * *it).expand();
    for (const std::string& name : trace_.scopes[loop].varying)
      if (auto v = trace_.context.find(name); v && *v != *it && sym::contains(rest, *v)) return std::nullopt;
    return sym::toInteger(offset.coeff(*it, 1));
  }

  void collectFacts() {
    facts_.assign(trace_.scopes.size(), {});
    for (const trace::Scope& s : trace_.scopes) {
      if (s.kind != trace::ScopeKind::Loop) continue;
      LoopFacts& f = facts_[s.id];
      auto start = number(s.start), bound = number(s.bound), step = number(s.step);
      f.unitStep = step && *step == 1 && (s.comparison == ir::Comparison::Less || s.comparison == ir::Comparison::LessEqual);
      if (start && bound && f.unitStep) f.trips = std::max<std::int64_t>(0, *bound - *start + (s.comparison == ir::Comparison::LessEqual ? 1 : 0));
      if (s.iterator.empty()) block(s.id, "its bounds are not understood");
      if (s.earlyExit) block(s.id, "it has an early exit");
    }
    for (const trace::Scope& s : trace_.scopes) markBlockersAbove(s);
    for (std::size_t e = 0; e < trace_.events.size(); ++e) {
      if (trace_.events[e].kind != trace::EventKind::Access) continue;
      for (std::optional<std::size_t> p = trace_.events[e].scope; p; p = trace_.scopes[*p].parent)
        if (trace_.scopes[*p].kind == trace::ScopeKind::Loop) facts_[*p].accesses.push_back(e);
    }
  }

  void block(std::size_t loop, const std::string& why) {
    if (!facts_[loop].blocked) facts_[loop].blockedWhy = why;
    facts_[loop].blocked = true;
  }

  /* A branch, a call that stays a call, or a loop whose bounds move with an outer iterator
     stops the vectoriser in every loop around it. */
  void markBlockersAbove(const trace::Scope& s) {
    std::string why;
    if (s.kind == trace::ScopeKind::Branch && !s.decided) why = "a branch in its body (" + s.loc.str() + ")";
    if (s.kind == trace::ScopeKind::Call) {
      const CallDecision* call = plan_.call(s.id);
      if (!call || !call->inlined) why = "a call of " + s.function + " that is not inlined";
    }
    if (s.kind == trace::ScopeKind::Loop && s.iterator.empty()) why = "an opaque loop in its body (" + s.loc.str() + ")";
    for (std::optional<std::size_t> p = s.parent; p; p = trace_.scopes[*p].parent) {
      if (trace_.scopes[*p].kind != trace::ScopeKind::Loop) continue;
      if (!why.empty()) block(*p, why);
      if (s.kind == trace::ScopeKind::Loop && (movesWith(s.start, *p) || movesWith(s.bound, *p) || movesWith(s.step, *p)))
        block(*p, "an inner loop's bounds move with its iterator");
    }
  }

  /* Accesses under a branch arm below "loop" may not run: never promoted out of it. */
  bool underBranchBelow(std::size_t scope, std::size_t loop) const {
    for (std::optional<std::size_t> p = scope; p && *p != loop; p = trace_.scopes[*p].parent)
      if (trace_.scopes[*p].kind == trace::ScopeKind::Branch && !trace_.scopes[*p].decided) return true;
    return false;
  }

  bool sameAddress(std::size_t a, std::size_t b) const {
    const trace::Event& x = trace_.events[a];
    const trace::Event& y = trace_.events[b];
    return x.container == y.container && x.bytes == y.bytes && !fromData(x.offset) && (x.offset - y.offset).expand().is_zero();
  }

  /* What keeps access "e" of an invariant location in "loop": for a load, a store elsewhere
     that may change the location; for a store, any access elsewhere that may read or overwrite
     it before the loop ends (the value in a register is reused, the store is not). */
  std::optional<std::size_t> aliasingAccess(std::size_t e, std::size_t loop) const {
    bool store = trace_.events[e].mode == ir::AccessMode::Write;
    for (std::size_t f : facts_[loop].accesses) {
      if (f == e || sameAddress(f, e)) continue;
      if ((store || trace_.events[f].mode == ir::AccessMode::Write) && view_.mayAlias(trace_, f, e)) return f;
    }
    return std::nullopt;
  }

  /* Walks each access out of its loops while it is invariant and no store may alias it. */
  void decidePromotion() {
    promotedOut_.assign(trace_.events.size(), std::nullopt);
    reloadedIn_.assign(trace_.events.size(), std::nullopt);
    if (target().optLevel == 0) return;
    for (std::size_t e = 0; e < trace_.events.size(); ++e) {
      const trace::Event& ev = trace_.events[e];
      if (ev.kind != trace::EventKind::Access || fromData(ev.offset)) continue;
      for (std::optional<std::size_t> p = trace_.innermostLoop(ev.scope); p; p = trace_.innermostLoop(*trace_.scopes[*p].parent)) {
        if (underBranchBelow(ev.scope, *p) || movesWith(ev.offset, *p)) break;
        if (auto w = aliasingAccess(e, *p)) {
          reloadedIn_[e] = *p;
          record(e, AccessDecision::Kind::Reloaded, *p,
                 "invariant in " + trace_.scopes[*p].label() + ", but " + trace_.events[*w].text + " may overlap it");
          break;
        }
        promotedOut_[e] = *p;
        if (!trace_.scopes[*p].parent) break;
      }
      if (promotedOut_[e])
        record(e, AccessDecision::Kind::Promoted, *promotedOut_[e], "invariant and no store of the loop may alias it");
    }
  }

  void record(std::size_t e, AccessDecision::Kind kind, std::size_t loop, std::string reason) {
    auto it = std::find_if(plan_.accesses.begin(), plan_.accesses.end(), [&](const AccessDecision& d) { return d.event == e; });
    if (it == plan_.accesses.end()) {
      plan_.accesses.push_back(AccessDecision{e, kind, loop, std::move(reason)});
      return;
    }
    if (kind == AccessDecision::Kind::Reloaded) *it = AccessDecision{e, kind, loop, std::move(reason)};
  }

  bool isLoop(std::size_t s) const { return trace_.scopes[s].kind == trace::ScopeKind::Loop; }

  bool isNestRoot(std::size_t s) const {
    if (!isLoop(s)) return false;
    for (std::optional<std::size_t> p = trace_.scopes[s].parent; p; p = trace_.scopes[*p].parent)
      if (isLoop(*p)) return false;
    return true;
  }

  /* Once for all loops: asking per loop walked every scope (quadratic in a trace of many
     calling contexts: minutes on lz4hc.c). */
  void indexInnerLoops() {
    innerLoops_.assign(trace_.scopes.size(), {});
    for (const trace::Scope& s : trace_.scopes) {
      if (!isLoop(s.id) || !s.parent) continue;
      if (auto outer = trace_.innermostLoop(*s.parent); outer && *outer != s.id) innerLoops_[*outer].push_back(s.id);
    }
  }

  const std::vector<std::size_t>& innerLoops(std::size_t loop) const { return innerLoops_[loop]; }

  /* "loop" and every loop inside it, in scope order. */
  std::vector<std::size_t> loopsWithin(std::size_t loop) const {
    std::vector<std::size_t> out{loop};
    for (std::size_t k = 0; k < out.size(); ++k) out.insert(out.end(), innerLoops_[out[k]].begin(), innerLoops_[out[k]].end());
    std::sort(out.begin(), out.end());
    return out;
  }

  /* Vectorises the innermost loop of each nest that qualifies; true if one below "loop" (or it) did. */
  bool vectorizeNest(std::size_t loop) {
    if (vectorizeAroundInvariantBody(loop)) return true;
    bool inner = false;
    for (std::size_t child : innerLoops(loop)) inner = vectorizeNest(child) || inner;
    LoopDecision& d = decision(loop);
    if (inner) {
      if (d.reason.empty()) d.reason = "an inner loop is vectorised";
      return true;
    }
    decide(loop, d);
    return d.vectorFactor > 1 || d.slp;
  }

  /* GCC's outer-loop vectorisation of a loop around one innermost loop whose accesses do not
     move with it: `for (r < 4) total += sum(n, a)` after inlining. GCC analyses the outer loop
     first; each inner pass then computes VF iterations of the outer loop at once (the loads
     broadcast), so the array is read trips/VF times ("outer-loop already vectorized" for the
     inner loop). The outer loop must hand its result out through a reduction, store nothing
     that stays in it, carry no recurrence (nor its inner loop), and have a compile-time trip
     count that is a multiple of VF (VF from the smallest access), at -O3 too: GCC 12 peels no
     epilogue for it (with 3 iterations it vectorises the inner loop instead). */
  bool vectorizeAroundInvariantBody(std::size_t loop) {
    if (!vectorizerOn() || target().compiler != CompilerKind::Gcc) return false;
    const LoopFacts& f = facts_[loop];
    std::vector<std::size_t> inner = innerLoops(loop);
    if (f.blocked || !f.unitStep || inner.size() != 1 || !innerLoops(inner.front()).empty() || facts_[inner.front()].blocked) return false;
    if (refusedRecurrence(loop) || facts_[loop].accesses.empty()) return false;
    const auto& carried = trace_.scopes[loop].carried;
    bool reduction = carriedReduction(loop) || std::any_of(carried.begin(), carried.end(), [](const ir::CarriedScalar& c) { return isReduction(c.kind); });
    if (!reduction) return false;
    std::int64_t element = 0;
    for (std::size_t e : f.accesses) {
      const trace::Event& ev = trace_.events[e];
      if (promotedFrom(e, loop)) continue;
      if (ev.mode == ir::AccessMode::Write || (reloadedIn_[e] && trace_.encloses(loop, *reloadedIn_[e]))) return false;
      auto stride = strideOf(e, loop);
      if (!stride || *stride != 0) return false;
      element = element == 0 ? ev.bytes : std::min<std::int64_t>(element, ev.bytes);
    }
    if (element == 0) return false;
    LoopDecision& d = decision(loop);
    for (int bytes = target().vectorBytes; bytes >= 16; bytes /= 2) {
      std::int64_t factor = bytes / element;
      if (factor < 2 || !d.constantTrips || !f.trips || *f.trips % factor != 0) continue;
      d.vectorBytes = bytes;
      d.vectorFactor = static_cast<int>(factor);
      d.interleave = 1;
      d.scalarEpilogue = false;
      d.reason = "vectorised: " + std::to_string(bytes) + "-byte vectors, " + std::to_string(factor) +
                 " iteration(s) each, around its inner loop (outer-loop vectorisation): the inner loop's accesses do not move with " +
                 trace_.scopes[loop].label() + ", so one inner pass serves " + std::to_string(factor) + " of its iterations";
      for (std::size_t inner : loopsWithin(loop))
        if (inner != loop) setReason(decision(inner), "not vectorised: the loop around it is vectorised (outer-loop vectorisation)");
      return true;
    }
    return false;
  }

  /* GCC 12 enables -ftree-vectorize from -O2; Clang 14's loop vectoriser does not run at -O1 either. */
  bool vectorizerOn() const { return target().vectorize && target().optLevel >= 2; }

  bool isFloating(std::size_t e) const {
    const std::string& type = trace_.containers[trace_.events[e].container].elementType;
    return type.find("double") != std::string::npos || type.find("float") != std::string::npos;
  }

  /// The accesses of one loop as the vectoriser groups them.
  struct Shape {
    std::int64_t element = 0;                // bytes of the strided accesses (one size)
    std::int64_t group = 1;                  // elements one iteration walks per access group (SLP)
    std::vector<std::size_t> leaders, merged;  // group leaders (widened), other members (merged into them)
    std::string problem;
  };

  Shape shapeOf(std::size_t loop) const {
    Shape shape;
    std::vector<std::size_t> strided;
    for (std::size_t e : facts_[loop].accesses) {
      if (promotedOut_[e] && trace_.encloses(*promotedOut_[e], loop)) continue;
      auto stride = strideOf(e, loop);
      const trace::Event& ev = trace_.events[e];
      if (!stride) return fail(shape, ev.text + " is not affine in the iterator");
      if (*stride == 0) continue;
      if (*stride < 0 || *stride % ev.bytes != 0) return fail(shape, ev.text + " walks backwards or not in whole elements");
      if (shape.element != 0 && shape.element != ev.bytes) return fail(shape, "elements of different sizes");
      shape.element = ev.bytes;
      shape.group = std::max(shape.group, *stride / ev.bytes);
      strided.push_back(e);
    }
    if (strided.empty()) return fail(shape, "no access moves with the iterator");
    for (std::size_t e : strided) {
      auto stride = *strideOf(e, loop);
      if (stride / shape.element != shape.group) return fail(shape, trace_.events[e].text + " has another stride than the rest");
    }
    if (shape.group > 1 && !groupsComplete(strided, shape)) return fail(shape, "strided accesses that do not fill their groups");
    if (shape.group == 1) shape.leaders = strided;
    return shape;
  }

  static Shape fail(Shape shape, std::string why) {
    shape.problem = std::move(why);
    return shape;
  }

  /* Every group of stride-g accesses (same container and mode) covers g consecutive elements. */
  bool groupsComplete(const std::vector<std::size_t>& strided, Shape& shape) const {
    std::set<std::size_t> used;
    for (std::size_t e : strided) {
      if (used.count(e)) continue;
      std::set<std::int64_t> members;
      std::vector<std::pair<std::int64_t, std::size_t>> byDelta;
      for (std::size_t f : strided) {
        const trace::Event& a = trace_.events[e];
        const trace::Event& b = trace_.events[f];
        if (a.container != b.container || a.mode != b.mode) continue;
        auto delta = sym::toInteger((b.offset - a.offset).expand());
        if (!delta) continue;
        byDelta.emplace_back(*delta, f);
      }
      std::sort(byDelta.begin(), byDelta.end());
      std::int64_t low = byDelta.front().first;
      for (auto& [delta, f] : byDelta) {
        if ((delta - low) % shape.element != 0 || (delta - low) / shape.element >= shape.group) continue;
        members.insert((delta - low) / shape.element);
        used.insert(f);
        (delta == low ? shape.leaders : shape.merged).push_back(f);
      }
      if (static_cast<std::int64_t>(members.size()) != shape.group) return false;
    }
    return true;
  }

  /* Writes promoted out of "loop": a reduction carried across its iterations (a traced
     accumulator; a traced local that the frontend found to be a recurrence is none). */
  std::optional<std::size_t> carriedReduction(std::size_t loop) const {
    for (std::size_t e : facts_[loop].accesses)
      if (trace_.events[e].mode == ir::AccessMode::Write && promotedFrom(e, loop) && !carriedRecurrence(loop, trace_.events[e].text)) return e;
    return std::nullopt;
  }

  /* Whether "name" is a local scalar "loop" carries as a recurrence (first-order or other). */
  bool carriedRecurrence(std::size_t loop, const std::string& name) const {
    const auto& carried = trace_.scopes[loop].carried;
    return std::any_of(carried.begin(), carried.end(), [&](const ir::CarriedScalar& c) { return c.name == name && !isReduction(c.kind); });
  }

  static bool isReduction(ir::CarriedScalar::Kind kind) {
    return kind == ir::CarriedScalar::Kind::IntegerReduction || kind == ir::CarriedScalar::Kind::FloatReduction;
  }

  /* The name of a floating-point reduction "loop" carries: a traced accumulator or a local scalar. */
  std::optional<std::string> floatReduction(std::size_t loop) const {
    if (auto e = carriedReduction(loop); e && isFloating(*e)) return trace_.events[*e].text;
    for (const ir::CarriedScalar& c : trace_.scopes[loop].carried)
      if (c.kind == ir::CarriedScalar::Kind::FloatReduction) return c.name;
    return std::nullopt;
  }

  /* A recurrence that "loop" or a loop inside it carries and the target's vectoriser refuses:
     GCC 12 none (neither in the loop nor below it, "unsupported use in stmt", "unsupported use
     of nested cycle"); Clang 14 all but first-order ones of the loop itself. */
  std::optional<std::string> refusedRecurrence(std::size_t loop) const {
    bool gcc = target().compiler == CompilerKind::Gcc;
    for (std::size_t inner : loopsWithin(loop)) {
      const trace::Scope& s = trace_.scopes[inner];
      for (const ir::CarriedScalar& c : s.carried) {
        if (isReduction(c.kind)) continue;
        if (!gcc && c.kind == ir::CarriedScalar::Kind::FirstOrder) continue;
        std::string what = c.kind == ir::CarriedScalar::Kind::FirstOrder ? "a first-order recurrence" : "a recurrence";
        return c.name + " is carried from one iteration of " + s.label() + " to the next (" + what + ")";
      }
    }
    return std::nullopt;
  }

  /* Whether access "e" (below "loop") is promoted out of "loop" itself, not only out of a loop inside it. */
  bool promotedFrom(std::size_t e, std::size_t loop) const { return promotedOut_[e] && trace_.encloses(*promotedOut_[e], loop); }

  /* The stores and loads of "loop" at different addresses that may overlap: versioning needed. */
  std::optional<std::pair<std::size_t, std::size_t>> mayOverlap(std::size_t loop) const {
    const auto& list = facts_[loop].accesses;
    for (std::size_t w : list) {
      if (trace_.events[w].mode != ir::AccessMode::Write || promotedFrom(w, loop)) continue;
      for (std::size_t e : list)
        if (e != w && !promotedFrom(e, loop) && !sameAddress(e, w) && view_.mayAlias(trace_, w, e) && !knownDistance(w, e))
          return std::make_pair(w, e);
    }
    return std::nullopt;
  }

  /* Two accesses of one container a constant number of bytes apart: the compiler knows their
     dependence distance and needs no run-time check. */
  bool knownDistance(std::size_t a, std::size_t b) const {
    const trace::Event& x = trace_.events[a];
    const trace::Event& y = trace_.events[b];
    return x.container == y.container && !fromData(x.offset) && !fromData(y.offset) && sym::toInteger((x.offset - y.offset).expand()).has_value();
  }

  /* A load of "loop" reading what a store of an earlier iteration wrote (a[i] = a[i-1] + ...): the
     vector would read it before it is written. */
  std::optional<std::size_t> carriedDependence(std::size_t loop) const {
    const auto& list = facts_[loop].accesses;
    for (std::size_t w : list) {
      if (trace_.events[w].mode != ir::AccessMode::Write || promotedFrom(w, loop)) continue;
      auto stride = strideOf(w, loop);
      for (std::size_t r : list) {
        if (trace_.events[r].mode != ir::AccessMode::Read || !knownDistance(w, r) || !stride || *stride <= 0) continue;
        std::int64_t delta = *sym::toInteger((trace_.events[r].offset - trace_.events[w].offset).expand());
        if (delta < 0 && -delta >= *stride) return r;
      }
    }
    return std::nullopt;
  }

  void decide(std::size_t loop, LoopDecision& d) {
    d.vectorFactor = 1;
    if (!vectorizerOn()) {
      d.reason = target().vectorize ? "the vectoriser does not run at " + target().label() : "vectorisation is off";
      return;
    }
    const LoopFacts& f = facts_[loop];
    if (f.blocked) return setReason(d, "not vectorised: " + f.blockedWhy);
    if (!f.unitStep) return setReason(d, "not vectorised: the step is not 1");
    for (std::size_t e : f.accesses)
      if (reloadedIn_[e] && trace_.encloses(loop, *reloadedIn_[e]))
        return setReason(d, "not vectorised: " + trace_.events[e].text + " is reloaded every iteration (a store may alias it)");
    if (auto r = carriedDependence(loop)) return setReason(d, "not vectorised: " + trace_.events[*r].text + " reads a value stored by an earlier iteration");
    if (target().compiler == CompilerKind::Clang && !innerLoops(loop).empty())
      return setReason(d, "not vectorised: Clang's loop vectoriser takes innermost loops only");
    if (auto recurrence = refusedRecurrence(loop)) return setReason(d, "not vectorised: " + *recurrence);
    Shape shape = shapeOf(loop);
    if (!shape.problem.empty()) return setReason(d, "not vectorised: " + shape.problem);
    bool gcc = target().compiler == CompilerKind::Gcc;
    bool veryCheap = gcc && target().optLevel == 2;
    if (auto overlap = mayOverlap(loop)) {
      std::string pair = trace_.events[overlap->first].text + " and " + trace_.events[overlap->second].text;
      if (veryCheap) return setReason(d, "not vectorised: " + pair + " may alias and -O2's very cheap cost model does no run-time alias check");
      d.runtimeAliasCheck = true;
    }
    if (auto reduction = floatReduction(loop); reduction && !target().fastMath) {
      if (!gcc) return setReason(d, "not vectorised: the floating-point reduction into " + *reduction + " needs -ffast-math");
      d.inOrderReduction = true;
    }
    if (!chooseWidth(d, shape, f, veryCheap)) return;
    if (auto chunk = chunkTooShort(loop, d)) return setReason(d, "not vectorised: " + *chunk);
    d.vectorLoads = d.inOrderReduction && combinesLoads(shape);
    d.slp = shape.group > 1;
    for (std::size_t e : shape.merged)
      plan_.accesses.push_back(AccessDecision{e, AccessDecision::Kind::Merged, loop, "packed with its neighbours into one vector access (SLP)"});
    d.reason = "vectorised: " + std::to_string(d.vectorBytes) + "-byte vectors, " + std::to_string(d.vectorFactor) + " iteration(s) each" +
               (d.interleave > 1 ? ", interleaved by " + std::to_string(d.interleave) : "") + (d.slp ? ", groups of " + std::to_string(shape.group) + " packed (SLP)" : "") +
               (d.runtimeAliasCheck ? ", behind a run-time alias check" : "") + (d.scalarEpilogue ? ", scalar epilogue" : "") +
               (d.inOrderReduction ? (d.vectorLoads ? "; the floating-point reduction stays in order, its loads combined in vectors first"
                                                    : "; the floating-point reduction stays in order, so its loads stay scalar")
                                   : "");
  }

  /* schedule(static, c) deals chunks of c iterations: the compilers vectorise the loop over one
     chunk, so a chunk shorter than a vector iteration runs in the scalar epilogue. A longer chunk
     that is not a multiple of it runs partly scalar; the model takes it all scalar there
     (approximate), so that vector iterations never cross the chunks the threads are dealt. */
  std::optional<std::string> chunkTooShort(std::size_t loop, const LoopDecision& d) const {
    const trace::Scope& s = trace_.scopes[loop];
    const std::int64_t perVector = std::int64_t{d.vectorFactor} * d.interleave;
    if (!s.parallel || !target().openmp || s.scheduleChunk <= 0 || perVector <= 1 || s.scheduleChunk % perVector == 0) return std::nullopt;
    return "schedule(static, " + std::to_string(s.scheduleChunk) + ") deals chunks of " + std::to_string(s.scheduleChunk) +
           " iteration(s), not a multiple of the " + std::to_string(perVector) + " a vector iteration does (taken as scalar" +
           (s.scheduleChunk > perVector ? ", approximately: the compiler vectorises most of each chunk)" : ": each chunk runs in the scalar epilogue)");
  }

  static void setReason(LoopDecision& d, std::string why) {
    d.vectorFactor = 1;
    d.vectorBytes = 0;
    d.interleave = 1;
    d.runtimeAliasCheck = false;
    d.inOrderReduction = false;
    d.vectorLoads = false;
    d.reason = std::move(why);
  }

  /* The vector size and factor: GCC tries the widest vectors first and, under the very cheap
     model, takes the first whose factor divides the trip count; otherwise the widest, with a
     scalar epilogue for the rest. Clang takes the widest and interleaves. */
  bool chooseWidth(LoopDecision& d, const Shape& shape, const LoopFacts& f, bool veryCheap) {
    bool gcc = target().compiler == CompilerKind::Gcc;
    std::int64_t perIteration = shape.element * shape.group;
    for (int bytes = target().vectorBytes; bytes >= 16; bytes /= 2) {
      if (bytes % perIteration != 0 && perIteration % bytes != 0) continue;
      std::int64_t factor = gcc ? std::max<std::int64_t>(1, bytes / perIteration) : bytes / shape.element;
      if (factor == 1 && shape.group == 1) continue;
      int interleave = gcc ? 1 : clangInterleave(bytes, shape);
      std::int64_t chunk = factor * interleave;
      bool fits = d.constantTrips && (!f.trips || *f.trips % chunk == 0);  // a value known only at run time (-D n=) is not the compiler's
      if (veryCheap && factor > 1 && !fits) continue;
      d.vectorBytes = bytes;
      d.vectorFactor = static_cast<int>(factor);
      d.interleave = interleave;
      d.scalarEpilogue = !veryCheap && !fits && chunk > 1;
      return true;
    }
    if (veryCheap && !d.constantTrips)
      setReason(d, "not vectorised: the trip count is not known when compiling (" + d.tripsReason + ") and -O2's very cheap cost model allows no epilogue");
    else if (veryCheap && f.trips)
      setReason(d, "not vectorised: the trip count " + std::to_string(*f.trips) +
                       " is not a multiple of the vector factor and -O2's very cheap cost model allows no epilogue");
    else
      setReason(d, "not vectorised: no vector size fits the accesses");
    return false;
  }

  /* GCC's fold-left reduction adds the lanes of one vector in order; the loads feeding it are
     vector loads when the reduced value combines several of them (`s += a[k] * b[k]`: movupd,
     mulpd, then two addsd), and scalar when it is the loaded element itself (`s += a[k]`). */
  bool combinesLoads(const Shape& shape) const {
    return std::count_if(shape.leaders.begin(), shape.leaders.end(), [&](std::size_t e) { return trace_.events[e].mode == ir::AccessMode::Read; }) >= 2;
  }

  /* Clang 14 on x86: small bodies interleaved by 2 with SSE vectors and by 4 with AVX2 ones, halved for SLP groups. */
  static int clangInterleave(int bytes, const Shape& shape) {
    int interleave = bytes >= 32 ? 4 : 2;
    return std::max<int>(1, interleave / static_cast<int>(shape.group));
  }
};

}  // namespace

void decideLoops(const trace::Trace& contexts, const CompilerView& view, CompilationPlan& plan) {
  LoopDecider(contexts, view, plan).run();
  std::sort(plan.accesses.begin(), plan.accesses.end(), [](const AccessDecision& a, const AccessDecision& b) { return a.event < b.event; });
}

}  // namespace cats::sim::compiler
