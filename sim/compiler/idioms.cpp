// The loops GCC and Clang replace by memset or memcpy (docs/register-model.md, "memset and
// memcpy for loops"). Measured with `gcc -O1|-O2|-O3 -fopt-info-loop` ("Loop 1 distributed:
// split to 0 loops and 1 library calls") and `clang -O1|-O2 -Rpass=loop-idiom` on
// tests/inputs/compiler/idioms.c: GCC from -O2, Clang from -O1; a byte-splat constant (0, -1,
// 0.0) only; a copy only when the compiler can tell the two ranges apart.
#include "idioms.hpp"

#include <ginac/ginac.h>

#include <algorithm>
#include <limits>

namespace cats::sim::compiler {

namespace {

class IdiomFinder {
 public:
  IdiomFinder(const trace::Trace& t, const CompilerView& v, CompilationPlan& p)
      : trace_(t), view_(v), plan_(p), eventsOf_(t.scopes.size()), scopesIn_(t.scopes.size()) {
    // Indexed once: a scan of the trace per loop was quadratic on real programs (16 % of simulate on lz4hc.c).
    for (std::size_t e = 0; e < t.events.size(); ++e) eventsOf_[t.events[e].scope].push_back(e);
    for (const trace::Scope& s : t.scopes)
      if (s.parent) scopesIn_[*s.parent].push_back(s.id);
  }

  void run() {
    if (!enabled()) return;
    for (LoopDecision& d : plan_.loops) {
      std::string why;
      auto library = replacement(d.scope, why);
      if (library && expandedInline(d.scope, d.scope, coveredBytes(d.scope, storeBytes(d.scope)), *library)) continue;
      if (library) replace(d, *library, why);
    }
    removeDeadMemsets();
    if (plan_.target.compiler == CompilerKind::Clang) forwardCopies();
    distributeStores();
  }

 private:
  const trace::Trace& trace_;
  const CompilerView& view_;
  CompilationPlan& plan_;
  std::vector<std::vector<std::size_t>> eventsOf_;  // scope -> its own events, in order
  std::vector<std::vector<std::size_t>> scopesIn_;  // scope -> the scopes directly in it

  bool enabled() const {
    const CompilerTarget& t = plan_.target;
    return t.distributePatterns && t.optLevel >= (t.compiler == CompilerKind::Gcc ? 2 : 1);
  }

  /* The byte stride of access "e" per iteration of loop "loop", when its offset is affine in the
     iterator and moves with nothing else the loop changes. */
  std::optional<std::int64_t> strideOf(std::size_t e, std::size_t loop) const {
    const trace::Scope& s = trace_.scopes[loop];
    const sym::Expr offset = trace_.events[e].offset.expand();
    auto it = trace_.context.find(s.iterator);
    if (!it || !sym::containersIn(offset).empty() || sym::containsUnknown(offset, trace_.context) || offset.degree(*it) != 1) return std::nullopt;
    for (const std::string& name : s.varying)
      if (auto v = trace_.context.find(name); v && *v != *it && sym::contains(offset, *v)) return std::nullopt;
    return sym::toInteger(offset.coeff(*it, 1));
  }

  bool contiguous(std::size_t e, std::size_t loop) const {
    auto stride = strideOf(e, loop);
    return stride && *stride == trace_.events[e].bytes;
  }

  /* A loop the idiom takes: an iterator counting up by one, no early exit, nothing below it
     but its own accesses (no inner loop, branch or call). */
  bool simpleLoop(std::size_t loop) const {
    const trace::Scope& s = trace_.scopes[loop];
    if (s.iterator.empty() || s.earlyExit || !s.opaqueReason.empty()) return false;
    if (s.comparison != ir::Comparison::Less && s.comparison != ir::Comparison::LessEqual) return false;
    auto step = sym::toInteger(s.step.expand());
    if (!step || *step != 1) return false;
    return scopesIn_[loop].empty();
  }

  /* "memset" or "memcpy" when "loop" is nothing but such a store; "why" says what it stores. */
  std::optional<std::string> replacement(std::size_t loop, std::string& why) const {
    if (!simpleLoop(loop)) return std::nullopt;
    std::vector<std::size_t> writes, reads;
    for (std::size_t e : eventsOf_[loop]) {
      const trace::Event& ev = trace_.events[e];
      if (ev.kind != trace::EventKind::Access) continue;
      if (ev.loopHeader) return std::nullopt;
      (ev.mode == ir::AccessMode::Write ? writes : reads).push_back(e);
    }
    if (writes.size() != 1 || reads.size() > 1 || !contiguous(writes[0], loop)) return std::nullopt;
    const trace::Event& w = trace_.events[writes[0]];
    if (w.stored.kind == ir::StoredValue::Kind::Constant && w.stored.splat && reads.empty()) {
      why = w.text + " stores the byte " + std::to_string(*w.stored.splat) + " in every byte of a contiguous range";
      return "memset";
    }
    if (w.stored.kind != ir::StoredValue::Kind::Copy || reads.size() != 1 || w.copyOf != reads[0]) return std::nullopt;
    if (!contiguous(reads[0], loop) || view_.mayAlias(trace_, writes[0], reads[0])) return std::nullopt;
    why = w.text + " copies " + trace_.events[reads[0]].text + ", two contiguous ranges the compiler can tell apart";
    return "memcpy";
  }

  /// A replaced loop as a call: the event it stores with, the bytes it covers (in the
  /// contexts' symbols) and the compiled function it runs in.
  struct CallFacts {
    std::size_t write = 0;
    sym::Expr first = 0, end = 0;  // byte offsets of the first stored byte and one past the last
    std::size_t entry = 0;
    std::optional<std::size_t> read;    // memcpy: the event it copies from ...
    sym::Expr readFirst = 0, readEnd = 0;  // ... and the bytes it reads
  };

  /* The facts of replaced loop "d" when it is a call the compiler sees in straight-line code of
     its function (no loop or branch around it there). */
  std::optional<CallFacts> callFacts(const LoopDecision& d) const {
    if (d.replacedBy.empty() || d.removed) return std::nullopt;
    const trace::Scope& s = trace_.scopes[d.scope];
    CallFacts f;
    f.entry = compiledEntry(trace_, plan_.calls, d.scope);
    for (std::optional<std::size_t> p = s.parent; p && *p != f.entry; p = trace_.scopes[*p].parent) {
      const trace::Scope& up = trace_.scopes[*p];
      if (up.kind == trace::ScopeKind::Loop || up.kind == trace::ScopeKind::Parallel || (up.kind == trace::ScopeKind::Branch && !up.decided)) return std::nullopt;
    }
    bool found = false;
    for (std::size_t e : eventsOf_[d.scope]) {
      const trace::Event& ev = trace_.events[e];
      if (ev.kind != trace::EventKind::Access) continue;
      if (ev.mode == ir::AccessMode::Read) f.read = e;
      else if (!found) f.write = e, found = true;
    }
    auto it = trace_.context.find(s.iterator);
    if (!found || !it) return std::nullopt;
    sym::Expr last = s.comparison == ir::Comparison::LessEqual ? s.bound + 1 : s.bound;
    auto at = [&](std::size_t e, const sym::Expr& i) { return trace_.events[e].offset.subs(GiNaC::lst{*it == i}).expand(); };
    f.first = at(f.write, s.start);
    f.end = at(f.write, last);
    if (f.read) {
      f.readFirst = at(*f.read, s.start);
      f.readEnd = at(*f.read, last);
    }
    return f;
  }

  static bool same(const sym::Expr& a, const sym::Expr& b) { return (a - b).expand().is_zero(); }

  /* Whether an event strictly between "from" and "to" (program order) may read what write "w"
     stored, or frees or reallocates its container. */
  bool readBetween(std::size_t from, std::size_t to, std::size_t w) const {
    for (std::size_t e = from + 1; e < to; ++e) {
      const trace::Event& ev = trace_.events[e];
      if (ev.kind != trace::EventKind::Access) {
        if (ev.container == trace_.events[w].container) return true;
        continue;
      }
      if (ev.mode == ir::AccessMode::Read && (ev.container == trace_.events[w].container || view_.mayAlias(trace_, e, w))) return true;
    }
    return false;
  }

  /* Dead-store elimination of a memset whose bytes a later memset or memcpy of the same
     function overwrites, exactly, before anything may read them (GCC's dse5 and Clang's DSE
     both drop `memset(dst, 0, n)` before `memcpy(dst, src, n)` in zero_copy.c). */
  void removeDeadMemsets() {
    std::vector<std::pair<LoopDecision*, CallFacts>> calls;
    for (LoopDecision& d : plan_.loops)
      if (auto f = callFacts(d)) calls.emplace_back(&d, *f);
    for (auto& [dead, f] : calls) {
      if (dead->replacedBy != "memset") continue;
      for (auto& [later, g] : calls) {
        const trace::Event& w = trace_.events[f.write];
        const trace::Event& v = trace_.events[g.write];
        if (g.write <= f.write || g.entry != f.entry || v.container != w.container || !same(f.first, g.first) || !same(f.end, g.end)) continue;
        if (readBetween(f.write, g.write, f.write)) break;
        dead->removed = true;
        dead->reason += "; then removed as a dead store: " + later->replacedBy + " at " + trace_.scopes[later->scope].loc.str() +
                        " overwrites the same bytes before they are read";
        break;
      }
    }
  }

  /* Whether an event strictly between "from" and "to" may write the memory of access "e", or
     frees or reallocates its container. */
  bool writeBetween(std::size_t from, std::size_t to, std::size_t e) const {
    for (std::size_t k = from + 1; k < to; ++k) {
      const trace::Event& ev = trace_.events[k];
      if (ev.kind != trace::EventKind::Access) {
        if (ev.container == trace_.events[e].container) return true;
        continue;
      }
      if (ev.mode == ir::AccessMode::Write && (ev.container == trace_.events[e].container || view_.mayAlias(trace_, k, e))) return true;
    }
    return false;
  }

  /* Clang's MemCpyOpt: `memcpy(b, a, n); memcpy(c, b, n)` with nothing writing a or b in between
     becomes `memcpy(c, a, n)` (-print-after=memcpyopt on zero_copy.c: the second call's source
     is src, not dst; objdump: both calls take %rsi from the same register). GCC 12 keeps
     `memcpy(tmp, dst)` there. */
  void forwardCopies() {
    std::vector<std::pair<LoopDecision*, CallFacts>> copies;
    for (LoopDecision& d : plan_.loops)
      if (auto f = callFacts(d); f && d.replacedBy == "memcpy" && f->read) copies.emplace_back(&d, *f);
    for (auto& [later, g] : copies)
      for (auto it = copies.rbegin(); it != copies.rend(); ++it) {  // the nearest earlier copy first
        auto& [earlier, f] = *it;
        if (f.write >= *g.read || f.entry != g.entry) continue;
        if (trace_.events[*g.read].container != trace_.events[f.write].container) continue;
        if (!same(g.readFirst, f.first) || !same(g.readEnd, f.end)) break;  // MemCpyOpt wants the same bytes
        std::size_t root = earlier->copiesFrom.value_or(earlier->scope);  // a chain copies from the first source
        std::size_t source = *std::find_if(copies.begin(), copies.end(), [&](const auto& c) { return c.first->scope == root; })->second.read;
        if (writeBetween(f.write, *g.read, f.write) || writeBetween(f.write, *g.read, source)) break;
        later->copiesFrom = root;
        later->reason += "; it copies what memcpy at " + trace_.scopes[earlier->scope].loc.str() + " just wrote: Clang's MemCpyOpt reads that copy's source (" +
                         trace_.events[source].text + ") instead";
        break;
      }
  }

  /* The bytes one run of loop "loop" covers with a store "bytes" wide at a stride of "bytes". */
  sym::Expr coveredBytes(std::size_t loop, std::int64_t bytes) const {
    const trace::Scope& s = trace_.scopes[loop];
    sym::Expr trips = (s.comparison == ir::Comparison::LessEqual ? s.bound + 1 : s.bound) - s.start;
    return sym::Expr(bytes * trips).expand();
  }

  /* Whether the compiler writes a "library" call (memset or memcpy) of "bytes" over loop "inner"
     (and the loops up to "nest") as moves instead of a call, the size being known when compiling.
     Measured with gcc -O2 -S and clang -O2 -S on clears and copies of each size
     (tests/inputs/compiler/constant_idioms.c): GCC 12 moves up to 8192 bytes inline (vector
     moves, then `rep movsq`/`rep stosq`); Clang 14 stores 16 vectors inline for a memset and 8 for
     a memcpy, then calls. The moves are then the loop's own accesses, counted in its function. */
  bool expandedInline(std::size_t inner, std::size_t nest, const sym::Expr& bytes, const std::string& library) const {
    for (std::optional<std::size_t> s = inner;; s = trace_.scopes[*s].parent) {
      const LoopDecision* d = s ? plan_.loop(*s) : nullptr;
      if (!d || !d->constantTrips) return false;
      if (*s == nest) break;
    }
    auto n = sym::toInteger(bytes);
    const std::int64_t vectors = library == "memset" ? 16 : 8;
    return n && *n <= (plan_.target.compiler == CompilerKind::Gcc ? 8192 : vectors * plan_.target.vectorBytes);
  }

  /* The bytes of the store of loop "loop" that replacement() made a memset. */
  std::int64_t storeBytes(std::size_t loop) const {
    for (std::size_t e : eventsOf_[loop])
      if (trace_.events[e].kind == trace::EventKind::Access && trace_.events[e].mode == ir::AccessMode::Write) return trace_.events[e].bytes;
    return 0;
  }

  /* Whether any access of scope "scope" and the scopes in it, other than "store", may touch
     what "store" writes; with "readsBehind", reads of what the store wrote in this or an
     earlier iteration (a constant distance behind it) do not count. */
  bool touchedBesides(std::size_t scope, std::size_t store, bool readsBehind) const {
    const trace::Event& w = trace_.events[store];
    for (std::size_t e : eventsOf_[scope]) {
      const trace::Event& ev = trace_.events[e];
      if (e == store || (readsBehind && readBehind(e, store))) continue;
      if (ev.container == w.container || (ev.kind == trace::EventKind::Access && view_.mayAlias(trace_, e, store))) return true;
    }
    for (std::size_t inner : scopesIn_[scope])
      if (touchedBesides(inner, store, false)) return true;
    return false;
  }

  /* Whether access "e" reads the container of store "w" a constant number of bytes behind it
     (`s += row[i - 1]` after `row[i] = 0`): a memset run first gives it the same value. */
  bool readBehind(std::size_t e, std::size_t w) const {
    const trace::Event& ev = trace_.events[e];
    if (ev.kind != trace::EventKind::Access || ev.mode != ir::AccessMode::Read || ev.container != trace_.events[w].container) return false;
    auto distance = sym::toInteger((trace_.events[w].offset - ev.offset).expand());
    return distance && *distance >= 0;
  }

  /* GCC's loop distribution and Clang's loop idiom recognition split a byte-splat store out of
     a loop that does other work too, when nothing else in the loop may touch its bytes: one
     memset over the bytes the loop stores, widened to an enclosing loop whose iterations store
     the next bytes (`gcc -O2 -fopt-info-loop`: "Loop nest 1 distributed: split to 1 loops and 1
     library calls"; objdump: one memset call for a two-deep nest, both compilers). Clang puts
     the call before the loop (its preheader); GCC keeps the statements' order, so the call
     comes after the loop when the store is not the loop's first access. */
  void distributeStores() {
    for (LoopDecision& d : plan_.loops) {
      if ((!d.replacedBy.empty() && d.replacedBy != "memset") || d.removed || !simpleLoop(d.scope)) continue;
      std::vector<std::size_t> accesses;
      for (std::size_t e : eventsOf_[d.scope])
        if (trace_.events[e].kind == trace::EventKind::Access) accesses.push_back(e);
      for (std::size_t w : accesses) {
        const trace::Event& ev = trace_.events[w];
        if (ev.mode != ir::AccessMode::Write || ev.loopHeader || ev.stored.kind != ir::StoredValue::Kind::Constant || !ev.stored.splat) continue;
        // GCC's partitions keep the statements' order, so a memset run first (the store comes
        // first) may be read behind (`gcc -fopt-info-loop` distributes read_back in
        // tests/inputs/compiler/distribute.c); Clang's idiom wants nothing else on those bytes.
        bool clang = plan_.target.compiler == CompilerKind::Clang;
        if (!contiguous(w, d.scope) || touchedBesides(d.scope, w, w == accesses.front() && !clang)) continue;
        sym::Expr covered = coveredBytes(d.scope, ev.bytes);
        std::size_t nest = d.scope;
        while (true) {
          std::optional<std::size_t> up = trace_.scopes[nest].parent;
          if (!up || trace_.scopes[*up].kind != trace::ScopeKind::Loop || !plan_.loop(*up) || !plan_.loop(*up)->replacedBy.empty()) break;
          if (!widens(*up, nest, w, covered)) break;
          covered = sym::Expr(covered * coveredBytes(*up, 1)).expand();
          nest = *up;
        }
        // A loop of nothing but the store is replaced() whole, unless an enclosing loop widens it.
        if ((accesses.size() == 1 && nest == d.scope) || expandedInline(d.scope, nest, covered, "memset")) break;
        if (!d.replacedBy.empty()) {
          d.replacedBy.clear();
          d.reason = "its memset is widened over the loop nest at " + trace_.scopes[nest].loc.str();
        }
        DistributedStore store;
        store.store = w;
        store.nest = nest;
        store.before = clang || firstAccessIn(nest) == w;
        store.reason = ev.text + " at " + ev.loc.str() + " stores the byte " + std::to_string(*ev.stored.splat) + " over " +
                       (nest == d.scope ? "its loop" : "the loop nest at " + trace_.scopes[nest].loc.str()) +
                       (accesses.size() > 1 ? ", which does other work too" : "") + ": one memset " + (store.before ? "before" : "after") +
                       (nest == d.scope ? " the loop" : " the nest") +
                       (clang ? " (Clang's loop idiom recognition, in the preheader)" : " (GCC's loop distribution, in statement order)");
        if (std::find(plan_.notes.begin(), plan_.notes.end(), store.reason) == plan_.notes.end()) plan_.notes.push_back(store.reason);
        plan_.distributed.push_back(std::move(store));
        break;  // one store per loop: the distributed partitions of several are not modelled
      }
    }
  }

  /* The first access event (program order) in scope "scope" and the scopes in it. */
  std::size_t firstAccessIn(std::size_t scope) const {
    std::size_t first = std::numeric_limits<std::size_t>::max();
    for (std::size_t e : eventsOf_[scope])
      if (trace_.events[e].kind == trace::EventKind::Access) {
        first = e;
        break;
      }
    for (std::size_t inner : scopesIn_[scope]) first = std::min(first, firstAccessIn(inner));
    return first;
  }

  /* Whether loop "outer", around loop "inner" and nothing else, runs the store "w" on the
     bytes right after those of its previous iteration ("covered" per run of "inner"), with
     nothing else in it touching them. */
  bool widens(std::size_t outer, std::size_t inner, std::size_t w, const sym::Expr& covered) const {
    const trace::Scope& o = trace_.scopes[outer];
    const trace::Scope& in = trace_.scopes[inner];
    if (scopesIn_[outer].size() != 1 || o.iterator.empty() || o.earlyExit || !o.opaqueReason.empty()) return false;
    if (o.comparison != ir::Comparison::Less && o.comparison != ir::Comparison::LessEqual) return false;
    auto step = sym::toInteger(o.step.expand());
    auto it = trace_.context.find(o.iterator);
    if (!step || *step != 1 || !it || sym::contains(in.start, *it) || sym::contains(in.bound, *it)) return false;
    for (std::size_t e : eventsOf_[outer])
      if (trace_.events[e].container == trace_.events[w].container || (trace_.events[e].kind == trace::EventKind::Access && view_.mayAlias(trace_, e, w)))
        return false;
    const sym::Expr offset = trace_.events[w].offset.expand();
    if (offset.degree(*it) != 1) return false;
    return (offset.coeff(*it, 1) - covered).expand().is_zero();
  }

  void replace(LoopDecision& d, const std::string& library, const std::string& why) const {
    bool gcc = plan_.target.compiler == CompilerKind::Gcc;
    d.replacedBy = library;
    d.vectorFactor = 1;
    d.vectorBytes = 0;
    d.interleave = 1;
    d.runtimeAliasCheck = d.scalarEpilogue = d.slp = d.inOrderReduction = d.vectorLoads = false;
    d.reason = why + (gcc ? "; GCC's loop distribution, -ftree-loop-distribute-patterns" : "; Clang's loop idiom recognition");
  }
};

}  // namespace

void decideIdioms(const trace::Trace& contexts, const CompilerView& view, CompilationPlan& plan) { IdiomFinder(contexts, view, plan).run(); }

}  // namespace cats::sim::compiler
