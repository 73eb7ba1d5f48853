// The expansion walks the summaries like the inlining tracer walked the IR: an Activation maps
// one summary's symbols to context expressions and its containers to context containers plus
// a base offset. Names, ids and the order of events come out as inlining made them.
#include "tracer/expand.hpp"

#include "tracer/classify.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace cats::trace {

namespace {

struct Binding {
  std::size_t container = 0;
  sym::Expr base = 0;
};

struct Activation {
  std::size_t root = 0;               // the summary's Function scope
  GiNaC::exmap scalars;               // summary symbol -> context expression
  std::map<std::size_t, Binding> containers;  // summary container -> context binding
};

/// The children of one summary scope in program order: events and scopes interleaved.
struct Item {
  bool isScope = false;
  std::size_t index = 0;
};

class Expander {
 public:
  Expander(const Trace& summaries, const ExpansionLimits& limits) : in_(summaries), limits_(limits) {
    out_.form = TraceForm::Contexts;
    out_.context = in_.context.prefix(in_.programSymbols);
    out_.programSymbols = in_.programSymbols;
    out_.files = in_.files;
    out_.bindings = in_.bindings;
    out_.defaults = in_.defaults;
    out_.functions = in_.functions;
    out_.diagnostics = in_.diagnostics;
    out_.sourceDiagnostics = in_.sourceDiagnostics;
    for (const auto& d : out_.diagnostics) reported_.insert(d.str());
    indexChildren();
    for (const auto& c : in_.containers) containerSymbols_[c.name] = c.id;
    for (const auto& s : in_.scopes)
      if (s.kind == ScopeKind::Function && s.parent == std::size_t{0}) roots_.emplace(s.function, s.id);
  }

  Trace run(const std::vector<std::string>& entries) {
    out_.entries = entries.empty() ? in_.entries : entries;
    out_.scopes.push_back(Scope{});
    Activation globals;
    for (const auto& c : in_.containers)
      if (!c.owner) globals.containers[c.id] = Binding{addContainer(c, c.declaredName.empty() ? c.name : c.declaredName, globals), 0};
    globals_ = globals.containers;
    for (const auto& item : items_[0])
      if (!item.isScope) event(in_.events[item.index], globals, 0);
    for (const auto& name : out_.entries)
      if (auto root = roots_.find(name); root != roots_.end()) enterEntry(root->second);
    for (const auto& d : out_.diagnostics)
      if (d.severity != ir::Severity::Note) out_.approximate = true;
    for (const auto& e : out_.events)
      if (e.kind == EventKind::Access && e.classification.approximate) out_.approximate = true;
    return std::move(out_);
  }

 private:
  const Trace& in_;
  const ExpansionLimits& limits_;
  Trace out_;
  std::vector<std::vector<Item>> items_;
  std::map<std::string, std::size_t> containerSymbols_;  // summary container name -> id
  std::map<std::size_t, Binding> globals_;
  std::map<std::string, std::size_t> roots_;  // function -> its summary's Function scope
  std::vector<sym::Symbol> outSymbols_;  // context container id -> its symbol
  std::set<std::string> takenNames_;
  std::set<std::string> reported_;
  std::vector<std::string> callStack_;
  std::vector<EnclosingLoop> loops_;
  std::map<std::string, std::size_t> dedup_;
  std::optional<std::size_t> lastIn_, lastOut_;  // the last access copied: its summary event and its copy

  /* The copy of the read event a Copy write "in" names, when it was the access copied just before. */
  std::optional<std::size_t> copiedIn(const Event& in) const {
    if (in.copyOf && lastIn_ && *lastIn_ == *in.copyOf) return lastOut_;
    return std::nullopt;
  }
  bool stopped_ = false;

  void indexChildren() {
    items_.assign(in_.scopes.size(), {});
    std::vector<std::vector<std::size_t>> children(in_.scopes.size()), events(in_.scopes.size());
    for (const auto& s : in_.scopes)
      if (s.parent) children[*s.parent].push_back(s.id);
    for (std::size_t e = 0; e < in_.events.size(); ++e) events[in_.events[e].scope].push_back(e);
    for (std::size_t s = 0; s < in_.scopes.size(); ++s) {
      std::size_t c = 0, e = 0;
      while (c < children[s].size() || e < events[s].size()) {
        bool scopeFirst = e == events[s].size() || (c < children[s].size() && in_.scopes[children[s][c]].firstEvent <= events[s][e]);
        items_[s].push_back(scopeFirst ? Item{true, children[s][c++]} : Item{false, events[s][e++]});
      }
    }
  }

  void diagnose(ir::Severity severity, const ir::SourceLoc& loc, const std::string& message) {
    ir::Diagnostic d{severity, loc, message};
    if (reported_.insert(d.str()).second) out_.diagnostics.push_back(std::move(d));
  }

  /* A context container copied from summary container "c", named after "base" as the
     inlining tracer named it; expressions in it are resolved in "a". */
  std::size_t addContainer(const Container& c, const std::string& base, const Activation& a) {
    Container out = c;
    out.id = out_.containers.size();
    sym::Symbol symbol = takenNames_.count(base) ? out_.context.freshSymbol(base, sym::SymbolKind::Container)
                                                 : out_.context.symbol(base, sym::SymbolKind::Container);
    out.name = symbol.get_name();
    takenNames_.insert(out.name);
    outSymbols_.push_back(symbol);
    out.sizeBytes = resolve(c.sizeBytes, a);
    for (auto& d : out.dims) d = resolve(d, a);
    out.declaredName.clear();
    out.owner.reset();
    out.parameter.reset();
    out_.containers.push_back(std::move(out));
    return out_.containers.back().id;
  }

  /// Rewrites a summary expression into context symbols, loads included.
  class Resolver : public GiNaC::map_function {
   public:
    Resolver(Expander& x, const Activation& a) : x_(x), a_(a) {}
    sym::Expr operator()(const sym::Expr& e) override {
      if (GiNaC::is_a<GiNaC::symbol>(e)) {
        auto it = a_.scalars.find(e);
        return it == a_.scalars.end() ? e : it->second;
      }
      if (sym::isLoad(e)) {
        auto [container, offset] = sym::loadParts(e);
        sym::Expr resolved = (*this)(offset);
        const Binding* b = x_.boundContainer(container.get_name(), a_);
        if (!b) return sym::load(container, resolved);
        return sym::load(x_.outSymbols_.at(b->container), (b->base + resolved).expand());
      }
      return e.map(*this);
    }

   private:
    Expander& x_;
    const Activation& a_;
  };

  const Binding* boundContainer(const std::string& summaryName, const Activation& a) const {
    auto id = containerSymbols_.find(summaryName);
    if (id == containerSymbols_.end()) return nullptr;
    if (auto it = a.containers.find(id->second); it != a.containers.end()) return &it->second;
    if (auto it = globals_.find(id->second); it != globals_.end()) return &it->second;
    return nullptr;
  }

  sym::Expr resolve(const sym::Expr& e, const Activation& a) {
    Resolver r(*this, a);
    return r(e).expand();
  }

  /* The context binding of summary container "id" in "a": a global, a parameter bound by the
     call, or a local made fresh for this activation at its first use. */
  Binding bind(std::size_t id, Activation& a, const ir::SourceLoc& loc) {
    if (auto it = a.containers.find(id); it != a.containers.end()) return it->second;
    if (auto it = globals_.find(id); it != globals_.end()) return it->second;
    const Container& c = in_.containers.at(id);
    std::string base = c.declaredName.empty() ? c.name : c.declaredName;
    if (c.parameter) {
      const std::string& function = in_.scopes.at(a.root).function;
      diagnose(ir::Severity::Warning, loc, "pointer parameter '" + base + "' of " + function +
                                               " is bound to memory the analysis cannot follow; its accesses are approximate");
      Container placeholder = c;
      placeholder.kind = ir::ContainerKind::Pointee;
      Binding b{addContainer(placeholder, function + "_" + base, a), 0};
      return a.containers[id] = b;
    }
    Binding b{addContainer(c, base, a), 0};
    return a.containers[id] = b;
  }

  std::size_t addScope(Scope s, std::size_t parent) {
    s.id = out_.scopes.size();
    s.parent = parent;
    s.firstEvent = out_.events.size();
    s.params.clear();
    s.bindings.clear();
    s.recursive = false;
    s.sourceIterator.clear();
    s.iteratorBase.clear();
    s.varyingSources.clear();
    out_.scopes.push_back(std::move(s));
    return out_.scopes.back().id;
  }

  GiNaC::exmap parameterValues() const {
    GiNaC::exmap values;
    for (const auto& [name, value] : in_.bindings) {
      const sym::SymbolInfo* info = in_.context.info(name);
      if (!info || info->kind != sym::SymbolKind::Parameter) continue;
      try {
        values[*in_.context.find(name)] = in_.context.parse(value);
      } catch (const sym::ParseError&) {
      }
    }
    return values;
  }

  void enterEntry(std::size_t root) {
    const Scope& summary = in_.scopes[root];
    Scope s;
    s.kind = ScopeKind::Function;
    s.function = summary.function;
    s.loc = summary.loc;
    s.summary = root;
    std::size_t scope = addScope(std::move(s), 0);
    Activation a;
    a.root = root;
    GiNaC::exmap values = parameterValues();
    for (const auto& p : summary.params) {
      if (p.isPointer) {
        if (p.container) a.containers[*p.container] = Binding{addContainer(in_.containers[*p.container], p.name, a), 0};
        continue;
      }
      auto symbol = in_.context.find(p.symbol);
      if (symbol && values.count(*symbol)) a.scalars[*symbol] = values[*symbol];
    }
    callStack_.push_back(summary.function);
    body(root, a, scope);
    callStack_.pop_back();
  }

  void body(std::size_t summaryScope, Activation& a, std::size_t scope) {
    for (const auto& item : items_[summaryScope]) {
      if (stopped_) return;
      if (!item.isScope) {
        event(in_.events[item.index], a, scope);
        continue;
      }
      const Scope& child = in_.scopes[item.index];
      switch (child.kind) {
        case ScopeKind::Loop: loop(child, a, scope); break;
        case ScopeKind::Branch: branch(child, a, scope); break;
        case ScopeKind::Parallel: parallel(child, a, scope); break;
        case ScopeKind::Call: call(child, a, scope); break;
        case ScopeKind::Program:
        case ScopeKind::Function: break;
      }
    }
  }

  void event(const Event& in, Activation& a, std::size_t scope) {
    if (limits_.maxEvents && out_.events.size() >= limits_.maxEvents) {
      stopped_ = true;
      diagnose(ir::Severity::Warning, in.loc, "calling contexts expanded up to " + std::to_string(limits_.maxEvents) +
                                                  " events; the rest are not simulated and the result is approximate");
      return;
    }
    Binding b = bind(in.container, a, in.loc);
    Event e = in;
    e.summary = static_cast<std::size_t>(&in - in_.events.data());
    e.viaRestrict = in_.containers.at(in.container).isRestrict;
    e.scope = scope;
    e.container = b.container;
    switch (in.kind) {
      case EventKind::Access: {
        e.offset = (b.base + resolve(in.offset, a)).expand();
        e.subscripts.clear();
        if (b.base.is_zero())
          for (const auto& s : in.subscripts) e.subscripts.push_back(resolve(s, a).expand());
        if (e.mode == ir::AccessMode::Write) setStored(e, in.stored, copiedIn(in), out_.events);
        if (in.storedFormula) e.storedFormula = resolve(*in.storedFormula, a).expand();
        std::string key = std::to_string(scope) + "|" + std::to_string(e.container) + "|" + sym::print(e.offset) + "|" +
                          std::string(ir::toString(e.mode)) + "|" + std::to_string(e.bytes) + (e.loopHeader ? "|header" : "");
        lastIn_ = e.summary;
        if (auto it = dedup_.find(key); it != dedup_.end()) {
          out_.events[it->second].multiplicity += in.multiplicity;
          foldStored(out_.events[it->second], e);
          lastOut_ = it->second;
          return;
        }
        e.classification = classify(e.offset, e.bytes, loops_, out_.context, limits_.budget);
        dedup_[key] = out_.events.size();
        lastOut_ = out_.events.size();
        break;
      }
      case EventKind::Alloc:
        e.sizeBytes = resolve(in.sizeBytes, a);
        out_.containers[b.container].sizeBytes = e.sizeBytes;
        break;
      case EventKind::Free: break;
    }
    out_.events.push_back(std::move(e));
    if (limits_.progress && out_.events.size() % 65536 == 0) limits_.progress(out_.events.size());
  }

  void loop(const Scope& in, Activation& a, std::size_t parent) {
    Scope s = in;
    s.start = resolve(in.start, a);
    s.bound = resolve(in.bound, a);
    s.step = resolve(in.step, a);
    s.summary = in.id;
    s.sourceStart = in.start;
    s.sourceBound = in.bound;
    s.sourceStep = in.step;
    s.varying.clear();
    EnclosingLoop active;
    std::optional<sym::Symbol> summaryIterator;
    std::optional<sym::Expr> previous;
    if (!in.iterator.empty()) {
      summaryIterator = in_.context.find(in.iterator);
      bool clash = std::any_of(loops_.begin(), loops_.end(), [&](const EnclosingLoop& l) {
        return l.iterator && l.iterator->get_name() == in.sourceIterator;
      });
      auto source = in_.context.find(in.sourceIterator);
      sym::Symbol iterator = clash || !source ? out_.context.freshSymbol(in.iteratorBase, sym::SymbolKind::Iterator) : *source;
      if (auto it = a.scalars.find(*summaryIterator); it != a.scalars.end()) previous = it->second;
      a.scalars[*summaryIterator] = iterator;
      s.iterator = iterator.get_name();
      active.iterator = iterator;
    }
    for (std::size_t k = 0; k < in.recurrences.size(); ++k) {
      s.recurrences[k].start = resolve(in.recurrences[k].start, a);
      s.recurrences[k].next = resolve(in.recurrences[k].next, a);
    }
    s.test = in.test.mapSides([&](const sym::Expr& e) { return resolve(e, a); });
    active.step = s.step;
    for (const auto& v : in.varyingSources) {
      sym::Expr resolved = resolve(v, a);
      for (const auto& symbol : sym::symbolsOfKind(resolved, out_.context, sym::SymbolKind::Iterator)) active.varying.push_back(symbol);
      for (const auto& symbol : sym::symbolsOfKind(resolved, out_.context, sym::SymbolKind::Unknown)) active.varying.push_back(symbol);
    }
    for (const auto& v : active.varying) s.varying.push_back(v.get_name());
    std::size_t scope = addScope(std::move(s), parent);
    loops_.push_back(active);
    body(in.id, a, scope);
    loops_.pop_back();
    if (summaryIterator) {
      if (previous) a.scalars[*summaryIterator] = *previous;
      else a.scalars.erase(*summaryIterator);
    }
  }

  void branch(const Scope& in, Activation& a, std::size_t parent) {
    Scope s = in;
    s.summary = in.id;
    s.condition = in.condition.substitute(a.scalars);
    s.decided = s.condition.evaluate();
    body(in.id, a, addScope(std::move(s), parent));
  }

  void parallel(const Scope& in, Activation& a, std::size_t parent) {
    Scope s = in;
    s.summary = in.id;
    body(in.id, a, addScope(std::move(s), parent));
  }

  /* Marks the Call scope at or above "scope" that entered "function" as recursive. */
  void markReentered(const std::string& function, std::size_t scope) {
    for (std::optional<std::size_t> s = scope; s; s = out_.scopes[*s].parent) {
      Scope& here = out_.scopes[*s];
      if (here.kind == ScopeKind::Call && here.function == function) {
        here.reentered = true;
        return;
      }
    }
  }

  /* "s" (a copy of summary Call "in") keeps the callee's integer parameters and what the
     caller passes for them as its source writes it, for the compiler model. */
  void recordSourceArguments(const Scope& in, const Scope& callee, Scope& s) const {
    s.summary = in.id;
    for (std::size_t i = 0; i < callee.params.size(); ++i) {
      const SummaryParameter& p = callee.params[i];
      s.calleeSymbols.push_back(p.isPointer ? std::string() : p.symbol);
      bool scalar = !p.isPointer && i < in.bindings.size() && in.bindings[i].kind == CallBinding::Kind::Scalar;
      s.sourceArguments.push_back(scalar ? std::optional<sym::Expr>(in.bindings[i].value) : std::nullopt);
    }
  }

  void call(const Scope& in, Activation& a, std::size_t parent) {
    auto found = roots_.find(in.function);
    if (found == roots_.end()) return;
    std::optional<std::size_t> root = found->second;
    if (std::find(callStack_.begin(), callStack_.end(), in.function) != callStack_.end()) {
      diagnose(ir::Severity::Warning, in.loc, "recursive call to '" + in.function + "' is not followed; the result is approximate");
      markReentered(in.function, parent);
      return;
    }
    const Scope& summary = in_.scopes[*root];
    Scope s = in;
    recordSourceArguments(in, summary, s);
    std::size_t scope = addScope(std::move(s), parent);
    Activation inner;
    inner.root = *root;
    for (std::size_t i = 0; i < summary.params.size(); ++i) {
      const SummaryParameter& p = summary.params[i];
      CallBinding b = i < in.bindings.size() ? in.bindings[i] : CallBinding{};
      if (p.isPointer) {
        if (b.kind == CallBinding::Kind::Pointer && p.container) {
          Binding caller = bind(b.container, a, in.loc);
          inner.containers[*p.container] = Binding{caller.container, (caller.base + resolve(b.value, a)).expand()};
        }
        continue;
      }
      auto symbol = in_.context.find(p.symbol);
      if (!symbol) continue;
      if (b.kind == CallBinding::Kind::Scalar) inner.scalars[*symbol] = resolve(b.value, a);
      else
        inner.scalars[*symbol] = out_.context.freshSymbol("unknown_" + p.name, sym::SymbolKind::Unknown,
                                                          "argument of " + in.function + " at " + in.loc.str());
    }
    callStack_.push_back(in.function);
    body(*root, inner, scope);
    callStack_.pop_back();
  }
};

}  // namespace

Trace expandContexts(const Trace& summaries, const std::vector<std::string>& entries, const ExpansionLimits& limits) {
  if (summaries.form == TraceForm::Contexts) return summaries;
  return Expander(summaries, limits).run(entries);
}

}  // namespace cats::trace
