// The IR walk, once per reachable function. A Frame maps the function's IR symbols to
// summary expressions and its containers to summary containers: pointer parameters are
// Parameter containers, integer parameters stay symbols. A call records its bindings and is
// not followed; expandContexts (expand.cpp) makes the calling contexts.
#include "tracer/tracer.hpp"

#include "call_graph.hpp"
#include "tracer/classify.hpp"
#include "tracer/expand.hpp"

#include <algorithm>
#include <set>
#include <utility>
#include <variant>

namespace cats::trace {

namespace {

/// Where an IR container reference lands in the trace.
struct Binding {
  std::size_t container = 0;
  sym::Expr base = 0;
};

struct Frame {
  const ir::Function* function = nullptr;
  GiNaC::exmap scalars;                       // IR symbol -> trace expression
  std::map<std::string, Binding> containers;  // IR container symbol name -> binding
  std::vector<std::optional<Binding>> params;
  std::vector<std::optional<Binding>> locals;
};

/// Rewrites an IR expression of one frame into trace symbols, loads included.
class Resolver : public GiNaC::map_function {
 public:
  Resolver(const Frame& frame, const std::vector<sym::Symbol>& containerSymbols)
      : frame_(frame), containerSymbols_(containerSymbols) {}
  sym::Expr operator()(const sym::Expr& e) override {
    if (GiNaC::is_a<GiNaC::symbol>(e)) {
      auto it = frame_.scalars.find(e);
      return it == frame_.scalars.end() ? e : it->second;
    }
    if (sym::isLoad(e)) {
      auto [container, offset] = sym::loadParts(e);
      auto binding = frame_.containers.find(container.get_name());
      sym::Expr resolved = (*this)(offset);
      if (binding == frame_.containers.end()) return sym::load(container, resolved);
      return sym::load(containerSymbols_.at(binding->second.container), (binding->second.base + resolved).expand());
    }
    return e.map(*this);
  }

 private:
  const Frame& frame_;
  const std::vector<sym::Symbol>& containerSymbols_;
};

struct ActiveLoop {
  EnclosingLoop classification;
  std::string irIterator;
};

class Tracer {
 public:
  Tracer(const ir::Program& program, const sym::Context& ctx, const TracerOptions& options) : program_(program), options_(options) {
    trace_.context = ctx;
  }

  Trace run() {
    trace_.form = TraceForm::Summaries;
    trace_.programSymbols = trace_.context.size();
    trace_.files = program_.files;
    trace_.diagnostics = program_.diagnostics;
    trace_.bindings = options_.bindings;
    trace_.defaults = program_.defaults;
    for (const auto& f : program_.functions) trace_.functions[f.name] = f.traits;
    bindParameters();
    trace_.sourceDiagnostics = trace_.diagnostics.size();
    trace_.scopes.push_back(Scope{});
    for (const auto& g : program_.globals) {
      std::size_t id = addContainer(g, g.name);
      globals_.push_back(id);
      if (g.kind == ir::ContainerKind::Global || g.kind == ir::ContainerKind::Static) {
        Event e;
        e.kind = EventKind::Alloc;
        e.scope = 0;
        e.container = id;
        e.loc = g.loc;
        e.function = ir::AllocFunction::StaticArray;
        e.sizeBytes = bind(g.sizeBytes);
        e.alignment = g.alignment;
        trace_.events.push_back(std::move(e));
      }
    }
    trace_.entries = entryPoints(program_, options_.entries);
    for (const auto& name : trace_.entries) summarize(*program_.findFunction(name), true);
    for (std::size_t f : graph_.reachable(trace_.entries))
      if (std::find(trace_.entries.begin(), trace_.entries.end(), program_.functions[f].name) == trace_.entries.end())
        summarize(program_.functions[f], false);
    diagnoseUnfollowedPointers();
    for (const auto& d : trace_.diagnostics)
      if (d.severity != ir::Severity::Note) trace_.approximate = true;
    for (const auto& e : trace_.events)
      if (e.kind == EventKind::Access && e.classification.approximate) trace_.approximate = true;
    return std::move(trace_);
  }

 private:
  const ir::Program& program_;
  const TracerOptions& options_;
  CallGraph graph_{program_};
  Trace trace_;
  GiNaC::exmap parameterValues_;
  std::vector<std::size_t> globals_;
  std::vector<ActiveLoop> loops_;
  struct UnfollowedPointer {
    std::string callee;
    std::size_t parameter = 0;
  };
  std::vector<UnfollowedPointer> unfollowed_;
  std::map<std::string, std::size_t> dedup_;
  std::optional<std::size_t> lastAccess_;  // the access event emitted for the previous node of the block
  std::set<std::string> reported_;

  void bindParameters() {
    for (const auto& [name, value] : options_.bindings) {
      const sym::SymbolInfo* info = trace_.context.info(name);
      if (!info || info->kind != sym::SymbolKind::Parameter) continue;
      try {
        parameterValues_[*trace_.context.find(name)] = trace_.context.parse(value);
      } catch (const sym::ParseError&) {
        diagnose(ir::Severity::Warning, {}, "-D " + name + "=" + value + " is not a number; the symbol stays free");
      }
    }
  }

  sym::Expr bind(const sym::Expr& e) const { return parameterValues_.empty() ? e : e.subs(parameterValues_).expand(); }

  void diagnose(ir::Severity severity, const ir::SourceLoc& loc, const std::string& message) {
    ir::Diagnostic d{severity, loc, message};
    if (reported_.insert(d.str()).second) trace_.diagnostics.push_back(std::move(d));
  }

  std::size_t addContainer(const ir::Container& c, const std::string& base) {
    Container out;
    out.declaredName = base;
    out.id = trace_.containers.size();
    sym::Symbol symbol = takenNames_.count(base) ? trace_.context.freshSymbol(base, sym::SymbolKind::Container)
                                                 : trace_.context.symbol(base, sym::SymbolKind::Container);
    out.name = symbol.get_name();
    takenNames_.insert(out.name);
    containerSymbols_.push_back(symbol);
    out.kind = c.kind;
    out.elementType = c.elementType;
    out.elementBytes = c.elementBytes;
    out.sizeBytes = c.sizeBytes;
    out.dims = c.dims;
    out.fields = c.fields;
    out.alignment = c.alignment;
    out.isScalar = c.isScalar;
    out.isRestrict = c.isRestrict;
    out.loc = c.loc;
    trace_.containers.push_back(std::move(out));
    return trace_.containers.back().id;
  }
  std::set<std::string> takenNames_;
  std::vector<sym::Symbol> containerSymbols_;

  std::size_t addScope(Scope s, std::size_t parent) {
    s.id = trace_.scopes.size();
    s.parent = parent;
    s.firstEvent = trace_.events.size();
    trace_.scopes.push_back(std::move(s));
    return trace_.scopes.back().id;
  }

  Frame newFrame(const ir::Function& f) {
    Frame frame;
    frame.function = &f;
    frame.params.resize(f.params.size());
    frame.locals.resize(f.locals.size());
    for (std::size_t i = 0; i < program_.globals.size(); ++i)
      frame.containers[program_.globals[i].symbol.get_name()] = Binding{globals_[i], 0};
    for (const auto& [symbol, value] : parameterValues_) frame.scalars[symbol] = value;
    for (const auto& p : f.params)
      if (!p.isPointer) frame.scalars.erase(p.symbol);
    return frame;
  }

  void setParam(Frame& frame, std::size_t index, const Binding& b) {
    frame.params[index] = b;
    frame.containers[frame.function->params[index].symbol.get_name()] = b;
  }

  /* One summary: a Function scope under the root; pointer parameters become Parameter
     containers (sizes with -D applied; named "f_p" unless f is an entry, so that the callers'
     arrays keep their plain names), integer parameters keep their own symbols. */
  void summarize(const ir::Function& f, bool entry) {
    Scope s;
    s.kind = ScopeKind::Function;
    s.function = f.name;
    s.loc = f.loc;
    std::size_t scope = addScope(std::move(s), 0);
    Frame frame = newFrame(f);
    for (std::size_t i = 0; i < f.params.size(); ++i) {
      const ir::Parameter& p = f.params[i];
      SummaryParameter param{p.name, p.isPointer, p.isPointer ? std::string() : p.symbol.get_name(), std::nullopt};
      if (p.isPointer && p.container) {
        const ir::Container& pointee = f.locals.at(*p.container);
        ir::Container bound = pointee;
        bound.sizeBytes = bind(pointee.sizeBytes);
        for (auto& d : bound.dims) d = bind(d);
        std::size_t id = addContainer(bound, entry ? p.name : f.name + "_" + p.name);
        trace_.containers[id].declaredName = p.name;
        trace_.containers[id].owner = scope;
        trace_.containers[id].parameter = i;
        setParam(frame, i, Binding{id, 0});
        param.container = id;
      }
      trace_.scopes[scope].params.push_back(std::move(param));
    }
    currentRoot_ = scope;
    block(f.body, frame, scope);
  }
  std::size_t currentRoot_ = 0;

  /* The inlining tracer warned where a callee first used a pointer parameter that a call
     could not bind; the summary says the same at the same place, once per parameter. */
  void diagnoseUnfollowedPointers() {
    for (const auto& u : unfollowed_) {
      auto root = trace_.summaryOf(u.callee);
      if (!root) continue;
      const SummaryParameter& p = trace_.scopes[*root].params.at(u.parameter);
      if (!p.container) continue;
      for (const auto& e : trace_.events)
        if (e.container == *p.container) {
          diagnose(ir::Severity::Warning, e.loc, "pointer parameter '" + p.name + "' of " + u.callee +
                                                     " is bound to memory the analysis cannot follow; its accesses are approximate");
          break;
        }
    }
  }

  sym::Expr resolve(const sym::Expr& e, const Frame& frame) {
    Resolver resolver(frame, containerSymbols_);
    return resolver(e).expand();
  }

  std::optional<Binding> binding(const ir::ContainerRef& ref, Frame& frame, const ir::SourceLoc& loc) {
    switch (ref.scope) {
      case ir::ContainerRef::Scope::Global: return Binding{globals_.at(ref.index), 0};
      case ir::ContainerRef::Scope::Parameter:
        if (!frame.params.at(ref.index)) {
          const ir::Parameter& p = frame.function->params.at(ref.index);
          ir::Container placeholder = frame.function->locals.at(*p.container);
          placeholder.kind = ir::ContainerKind::Pointee;
          diagnose(ir::Severity::Warning, loc, "pointer parameter '" + p.name + "' of " + frame.function->name +
                                                   " is bound to memory the analysis cannot follow; its accesses are approximate");
          setParam(frame, ref.index, Binding{addContainer(placeholder, frame.function->name + "_" + p.name), 0});
        }
        return frame.params.at(ref.index);
      case ir::ContainerRef::Scope::Local:
        if (!frame.locals.at(ref.index)) {
          const ir::Container& c = frame.function->locals.at(ref.index);
          ir::Container bound = c;
          bound.sizeBytes = resolve(c.sizeBytes, frame);
          for (auto& d : bound.dims) d = resolve(d, frame);
          std::size_t id = addContainer(bound, c.name);
          trace_.containers[id].owner = currentRoot_;
          frame.locals[ref.index] = Binding{id, 0};
          frame.containers[c.symbol.get_name()] = *frame.locals[ref.index];
        }
        return frame.locals.at(ref.index);
    }
    return std::nullopt;
  }

  void block(const ir::Block& b, Frame& frame, std::size_t scope) {
    for (const auto& node : b) {
      if (!std::holds_alternative<ir::Access>(node.value)) lastAccess_.reset();
      std::visit([&](const auto& n) { visit(n, frame, scope); }, node.value);
    }
  }

  std::vector<EnclosingLoop> enclosingLoops() const {
    std::vector<EnclosingLoop> out;
    for (const auto& l : loops_) out.push_back(l.classification);
    return out;
  }

  void emitAccess(const ir::Access& a, Frame& frame, std::size_t scope, bool header) {
    std::optional<std::size_t> previous = std::exchange(lastAccess_, std::nullopt);
    auto b = binding(a.container, frame, a.loc);
    if (!b) return;
    Event e;
    e.kind = EventKind::Access;
    e.scope = scope;
    e.container = b->container;
    e.loc = a.loc;
    e.mode = a.mode;
    e.offset = (b->base + resolve(a.offset, frame)).expand();
    if (b->base.is_zero())
      for (const auto& s : a.subscripts) e.subscripts.push_back(resolve(s, frame).expand());
    e.bytes = a.bytes;
    e.name = a.name;
    e.field = a.field;
    e.text = a.text;
    e.loopHeader = header;
    if (a.mode == ir::AccessMode::Write) setStored(e, a.stored, previous, trace_.events);
    if (a.mode == ir::AccessMode::Write && a.storedFormula) e.storedFormula = resolve(*a.storedFormula, frame);
    std::string key = std::to_string(scope) + "|" + std::to_string(e.container) + "|" + sym::print(e.offset) + "|" +
                      std::string(ir::toString(e.mode)) + "|" + std::to_string(e.bytes) + (header ? "|header" : "");
    if (auto it = dedup_.find(key); it != dedup_.end()) {
      ++trace_.events[it->second].multiplicity;
      foldStored(trace_.events[it->second], e);
      lastAccess_ = it->second;
      return;
    }
    lastAccess_ = trace_.events.size();
    e.classification = classify(e.offset, e.bytes, enclosingLoops(), trace_.context, options_.budget);
    dedup_[key] = trace_.events.size();
    trace_.events.push_back(std::move(e));
  }

  void visit(const ir::Access& a, Frame& frame, std::size_t scope) { emitAccess(a, frame, scope, false); }

  void visit(const ir::Alloc& a, Frame& frame, std::size_t scope) {
    std::optional<Binding> old = a.reallocFrom ? binding(*a.reallocFrom, frame, a.loc) : std::nullopt;
    if (a.container.scope == ir::ContainerRef::Scope::Local) frame.locals.at(a.container.index).reset();
    auto b = binding(a.container, frame, a.loc);
    Event e;
    e.kind = EventKind::Alloc;
    e.scope = scope;
    e.container = b->container;
    e.loc = a.loc;
    e.function = a.function;
    e.sizeBytes = resolve(a.sizeBytes, frame);
    e.alignment = a.alignment;
    trace_.containers[b->container].sizeBytes = e.sizeBytes;
    trace_.events.push_back(std::move(e));
    if (old) emitFree(old->container, scope, a.loc);
  }

  void emitFree(std::size_t container, std::size_t scope, const ir::SourceLoc& loc) {
    Event e;
    e.kind = EventKind::Free;
    e.scope = scope;
    e.container = container;
    e.loc = loc;
    trace_.events.push_back(std::move(e));
  }

  void visit(const ir::Free& f, Frame& frame, std::size_t scope) {
    if (auto b = binding(f.container, frame, f.loc)) emitFree(b->container, scope, f.loc);
  }
  void visit(const ir::Loop& l, Frame& frame, std::size_t parent) {
    Scope s;
    s.kind = ScopeKind::Loop;
    s.loc = l.loc;
    s.parallel = l.parallel;
    s.scheduleChunk = l.scheduleChunk;
    s.opaqueReason = l.opaqueReason;
    s.earlyExit = l.hasEarlyExit;
    s.carried = l.carried;
    s.staticBounds = l.iterator && GiNaC::is_a<GiNaC::numeric>(l.start) && GiNaC::is_a<GiNaC::numeric>(l.bound) &&
                     GiNaC::is_a<GiNaC::numeric>(l.step);
    s.comparison = l.comparison;
    s.start = resolve(l.start, frame);
    s.bound = resolve(l.bound, frame);
    s.step = resolve(l.step, frame);
    ActiveLoop active;
    std::optional<sym::Expr> previous;
    if (l.iterator) {
      bool clash = std::any_of(loops_.begin(), loops_.end(), [&](const ActiveLoop& a) {
        return a.classification.iterator && a.classification.iterator->get_name() == l.iterator->get_name();
      });
      sym::Symbol iterator = clash ? trace_.context.freshSymbol(l.iteratorName, sym::SymbolKind::Iterator) : *l.iterator;
      if (auto it = frame.scalars.find(*l.iterator); it != frame.scalars.end()) previous = it->second;
      frame.scalars[*l.iterator] = iterator;
      s.iterator = iterator.get_name();
      s.sourceIterator = l.iterator->get_name();
      s.iteratorBase = l.iteratorName;
      active.classification.iterator = iterator;
      active.irIterator = l.iteratorName;
    }
    for (const ir::Recurrence& r : l.recurrences)
      s.recurrences.push_back({r.variable.get_name(), resolve(r.start, frame), resolve(r.next, frame)});
    s.test = l.test.mapSides([&](const sym::Expr& e) { return resolve(e, frame); });
    s.testAfterBody = l.testAfterBody;
    active.classification.step = s.step;
    for (const auto& v : l.varying) {
      sym::Expr resolved = resolve(v, frame);
      s.varyingSources.push_back(resolved);
      for (const auto& symbol : sym::symbolsOfKind(resolved, trace_.context, sym::SymbolKind::Iterator))
        active.classification.varying.push_back(symbol);
      for (const auto& symbol : sym::symbolsOfKind(resolved, trace_.context, sym::SymbolKind::Unknown))
        active.classification.varying.push_back(symbol);
    }
    for (const auto& v : active.classification.varying) s.varying.push_back(v.get_name());
    std::size_t scope = addScope(std::move(s), parent);
    loops_.push_back(active);
    for (const auto& node : l.header)
      if (const auto* a = std::get_if<ir::Access>(&node.value)) emitAccess(*a, frame, scope, true);
    block(l.body, frame, scope);
    loops_.pop_back();
    if (l.iterator) {
      if (previous) frame.scalars[*l.iterator] = *previous;
      else frame.scalars.erase(*l.iterator);
    }
  }

  void visit(const ir::Branch& b, Frame& frame, std::size_t parent) {
    for (const auto& arm : b.arms) {
      Scope s;
      s.kind = ScopeKind::Branch;
      s.loc = b.loc;
      s.arm = arm.label;
      GiNaC::exmap all = frame.scalars;
      s.condition = arm.condition.substitute(all);
      s.decided = s.condition.evaluate();
      std::size_t scope = addScope(std::move(s), parent);
      block(arm.body, frame, scope);
    }
  }

  void visit(const ir::ParallelRegion& p, Frame& frame, std::size_t parent) {
    Scope s;
    s.kind = ScopeKind::Parallel;
    s.loc = p.loc;
    block(p.body, frame, addScope(std::move(s), parent));
  }

  void visit(const ir::Call& c, Frame& frame, std::size_t parent) {
    const ir::Function* callee = program_.findFunction(c.callee);
    if (!callee) {
      diagnose(ir::Severity::Warning, c.loc, "call to unknown function '" + c.callee + "' is not followed: its memory accesses are missing; the result is approximate");
      return;
    }
    Scope s;
    s.kind = ScopeKind::Call;
    s.function = callee->name;
    s.loc = c.loc;
    s.recursive = graph_.inRecursion(frame.function->name, callee->name);
    if (s.recursive)
      diagnose(ir::Severity::Warning, c.loc, "recursive call to '" + c.callee + "' is not followed; the result is approximate");
    for (std::size_t i = 0; i < callee->params.size(); ++i) s.bindings.push_back(bindArgument(*callee, i, c, frame));
    addScope(std::move(s), parent);
  }

  /* What call "c" passes for parameter "index" of "callee", in this summary's symbols. */
  CallBinding bindArgument(const ir::Function& callee, std::size_t index, const ir::Call& c, Frame& frame) {
    const ir::Parameter& p = callee.params[index];
    const ir::Argument* arg = index < c.arguments.size() ? &c.arguments[index] : nullptr;
    CallBinding out;
    if (p.isPointer) {
      if (arg && arg->kind == ir::Argument::Kind::Pointer)
        if (auto b = binding(arg->container, frame, c.loc)) {
          out.kind = CallBinding::Kind::Pointer;
          out.container = b->container;
          out.value = (b->base + resolve(arg->value, frame)).expand();
          return out;
        }
      unfollowed_.push_back({callee.name, index});
      return out;
    }
    if (arg && arg->kind == ir::Argument::Kind::Scalar) {
      out.kind = CallBinding::Kind::Scalar;
      out.value = resolve(arg->value, frame);
    } else {
      out.kind = CallBinding::Kind::Unknown;
    }
    return out;
  }
};

/* Names of the functions some analysed function calls. */
void collectCallees(const ir::Block& b, std::set<std::string>& out) {
  for (const auto& node : b) {
    if (const auto* c = std::get_if<ir::Call>(&node.value)) out.insert(c->callee);
    else if (const auto* l = std::get_if<ir::Loop>(&node.value)) collectCallees(l->body, out);
    else if (const auto* br = std::get_if<ir::Branch>(&node.value)) {
      for (const auto& arm : br->arms) collectCallees(arm.body, out);
    } else if (const auto* p = std::get_if<ir::ParallelRegion>(&node.value)) collectCallees(p->body, out);
  }
}

}  // namespace

std::vector<std::string> entryPoints(const ir::Program& program, const std::vector<std::string>& requested) {
  if (!requested.empty()) {
    for (const auto& name : requested)
      if (!program.findFunction(name)) throw EntryError("--entry " + name + ": no analysed function has that name");
    return requested;
  }
  if (program.findFunction("main")) return {"main"};
  std::set<std::string> calledByAnother;
  for (const auto& f : program.functions) {
    std::set<std::string> callees;
    collectCallees(f.body, callees);
    callees.erase(f.name);
    calledByAnother.insert(callees.begin(), callees.end());
  }
  std::vector<std::string> out;
  for (const auto& f : program.functions)
    if (!calledByAnother.count(f.name)) out.push_back(f.name);
  if (out.empty() && !program.functions.empty()) out.push_back(program.functions.front().name);  // every function is in a cycle
  return out;
}

Trace buildSummaries(const ir::Program& program, const sym::Context& ctx, const TracerOptions& options) {
  return Tracer(program, ctx, options).run();
}

Trace buildTrace(const ir::Program& program, const sym::Context& ctx, const TracerOptions& options) {
  ExpansionLimits limits;
  limits.budget = options.budget;
  return expandContexts(buildSummaries(program, ctx, options), {}, limits);
}

}  // namespace cats::trace
