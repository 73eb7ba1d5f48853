// Trace to simulation program: the scope tree in program order, formulas with every
// parameter bound, loop slots by nesting depth, then the register model.
#include "sim/concretize.hpp"

#include "indexed_offset.hpp"
#include "register_model.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>
#include <unordered_set>
#include <variant>

namespace cats::sim {

std::optional<BranchPolicy> parseBranchPolicy(const std::string& text) {
  if (text == "both") return BranchPolicy{BranchPolicy::Kind::Both, 0.5};
  if (text == "then") return BranchPolicy{BranchPolicy::Kind::Then, 1.0};
  if (text == "else") return BranchPolicy{BranchPolicy::Kind::Else, 0.0};
  if (text.rfind("prob:", 0) == 0) {
    try {
      std::size_t used = 0;
      double p = std::stod(text.substr(5), &used);
      if (used == text.size() - 5 && p >= 0.0 && p <= 1.0) return BranchPolicy{BranchPolicy::Kind::Probability, p};
    } catch (const std::exception&) {
    }
  }
  return std::nullopt;
}

std::optional<RegisterModel> parseRegisterModel(const std::string& text) {
  if (text == "O0") return RegisterModel::O0;
  if (text == "O2") return RegisterModel::O2;
  return std::nullopt;
}

std::optional<TripCount> parseTripCount(const std::string& text) {
  auto eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) return std::nullopt;
  auto colon = text.rfind(':', eq);
  if (colon == std::string::npos || colon == 0 || colon + 1 == eq) return std::nullopt;
  std::string line = text.substr(colon + 1, eq - colon - 1);
  if (line.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return TripCount{text.substr(0, eq), text.substr(eq + 1)};
}

namespace {

/// One child of a scope in program order: an event or a nested scope.
struct Item {
  std::size_t firstEvent;
  bool isScope;
  std::size_t index;
};

class Compiler {
 public:
  Compiler(const trace::Trace& t, const ConcretizeOptions& o) : trace_(t), options_(o), formulas_(t.context) {}

  Program run() {
    bindParameters();
    buildChildren();
    planContainers();
    if (options_.model == RegisterModel::O2) choosePlan();
    try {
      for (const Item& item : children_[0]) {
        if (item.isScope) {
          program_.body.push_back(Op{FrameOp{compileBlock(item.index, 0), item.index}});
        } else {
          addEvent(item.index, program_.statics);
        }
      }
      if (options_.model == RegisterModel::O2) applyPlan();
      keepStoredValues();
    } catch (const std::exception&) {
      if (missing_.empty()) throw;  // else the error may come from a stand-in value: name what is missing
    }
    if (!missing_.empty()) throw BindingError(missingParameters());
    checkTripsUsed();
    return std::move(program_);
  }

 private:
  const trace::Trace& trace_;
  const ConcretizeOptions& options_;
  std::optional<CompilationPlan> ownPlan_;
  const CompilationPlan* plan_ = nullptr;
  std::set<std::size_t> callocAllocs_, callocStores_;  // events of the plan's calloc folds
  FormulaCompiler formulas_;
  FormulaScope scope_;
  Program program_;
  std::vector<std::vector<Item>> children_;
  std::unordered_map<std::string, const trace::Container*> containerByName_;  // findContainer's index
  struct OpenLoop {
    std::size_t scope;
    int slot;
    std::string iterator;
  };
  std::vector<OpenLoop> openLoops_;                                  // the loops around the event being compiled
  std::map<std::pair<std::size_t, std::string>, std::uint32_t> drawGroups_;  // (refresh loop scope, index) -> group
  std::set<const TripCount*> usedTrips_;  // --trips entries that named a data-dependent loop
  std::set<std::size_t> dataLoops_;       // loops whose trip count depends on data
  std::vector<std::pair<std::string, std::string>> missing_;  // parameters without a value: name, first use
  std::unordered_set<std::string> notesGiven_;                 // program_.notes, to keep each once

  /* The compiler's decisions: the given plan, or GCC -O2's; its calloc folds, which change
     events as they are compiled. */
  void choosePlan() {
    if (!options_.plan) ownPlan_ = planCompilation(trace_, CompilerTarget{});  // plain gcc -O2
    plan_ = options_.plan ? options_.plan : &*ownPlan_;
    for (const CallocFold& fold : plan_->callocs) {
      callocAllocs_.insert(fold.alloc);
      callocStores_.insert(fold.store);
    }
  }

  /* The compiler's decisions applied to the program. */
  void applyPlan() {
    RegisterPlan registers;
    registers.plan = plan_;
    for (const AccessDecision& d : registers.plan->accesses) {
      auto tag = static_cast<std::uint32_t>(d.event);
      if (d.kind == AccessDecision::Kind::Merged) registers.merged.insert(tag);
      if (d.kind == AccessDecision::Kind::Reused) registers.reused.insert(tag);
      if (d.kind == AccessDecision::Kind::Sunk) registers.sunk.insert(tag);
      if (d.kind != AccessDecision::Kind::Promoted || !d.loop) continue;
      for (std::optional<std::size_t> s = trace_.events[d.event].scope; s; s = trace_.scopes[*s].parent) {
        if (trace_.scopes[*s].kind == trace::ScopeKind::Loop) registers.promotedOutOf[tag].push_back(*s);
        if (*s == *d.loop) break;
      }
    }
    std::vector<std::string> notes;
    applyRegisterModel(program_.body, registers, notes);
    for (const std::string& text : notes) note(text);
  }

  void bindParameters() {
    for (const auto& [name, value] : trace_.defaults) scope_.parameters[name] = value;
    for (const auto& [name, value] : options_.bindings) scope_.parameters[name] = value;
    for (const auto& [name, text] : trace_.bindings) {
      try {
        scope_.parameters[name] = std::stoll(text);
      } catch (const std::exception&) {
      }
    }
  }

  /* Children of every scope, ordered by the first event of their subtree. */
  void buildChildren() {
    std::size_t n = trace_.scopes.size();
    std::vector<std::size_t> first(n, SIZE_MAX);
    for (std::size_t e = trace_.events.size(); e-- > 0;) {
      for (std::optional<std::size_t> s = trace_.events[e].scope; s; s = trace_.scopes[*s].parent) first[*s] = e;
    }
    children_.assign(n, {});
    for (std::size_t e = 0; e < trace_.events.size(); ++e) children_[trace_.events[e].scope].push_back({e, false, e});
    for (std::size_t s = 1; s < n; ++s)
      if (first[s] != SIZE_MAX && trace_.scopes[s].parent) children_[*trace_.scopes[s].parent].push_back({first[s], true, s});
    for (auto& list : children_)
      std::stable_sort(list.begin(), list.end(), [](const Item& a, const Item& b) {
        return a.firstEvent != b.firstEvent ? a.firstEvent < b.firstEvent : (a.isScope < b.isScope);
      });
  }

  std::string where(std::size_t scope) const {
    std::ostringstream out;
    const auto& s = trace_.scopes[scope];
    out << s.loc.str() << " (" << s.label() << ")";
    return out.str();
  }

  /* "e" compiled in the current scope. A missing parameter is noted with "use" (run() names them
     all in one BindingError, so a user binds them in one go) and stands in as 1 meanwhile. */
  Formula compile(const sym::Expr& e, const std::string& use) {
    auto result = formulas_.compile(e, scope_);
    if (auto* f = std::get_if<Formula>(&result)) {
      if (f->truncated()) noteTruncated(use);
      return std::move(*f);
    }
    const FormulaError& error = std::get<FormulaError>(result);
    if (error.symbol.empty()) throw BindingError(error.message + " in " + use);
    const bool known = std::any_of(missing_.begin(), missing_.end(), [&](const auto& m) { return m.first == error.symbol; });
    if (!known) missing_.emplace_back(error.symbol, use);
    return Formula::constant(1);
  }

  /* The BindingError message for missing_: each parameter with its first use, then the -D items. */
  std::string missingParameters() const {
    if (missing_.size() == 1)
      return "no value for parameter '" + missing_[0].first + "', used in " + missing_[0].second + "; bind it with -D " + missing_[0].first + "=VALUE";
    std::string names, defines;
    for (const auto& [symbol, use] : missing_) {
      names += (names.empty() ? "'" : ", '") + symbol + "' (used in " + use + ")";
      defines += " -D " + symbol + "=VALUE";
    }
    return "no value for parameters " + names + "; bind them with" + defines;
  }

  void planContainers() {
    for (const auto& c : trace_.containers) {
      ContainerPlan plan;
      plan.name = c.name;
      plan.kind = c.kind;
      plan.scalar = c.isScalar;
      plan.alignment = std::max<std::int64_t>(c.alignment, 1);
      auto size = formulas_.compile(c.sizeBytes, scope_);
      if (auto* f = std::get_if<Formula>(&size); f && !f->dependsOnData() && f->terms().empty()) {
        plan.sizeBytes = f->evaluate(nullptr);
        if (f->truncated()) noteTruncated("the size of " + c.name);
      }
      if (auto it = options_.place.find(c.name); it != options_.place.end()) plan.fixedAddress = it->second;
      if (auto it = options_.align.find(c.name); it != options_.align.end()) plan.alignment = it->second;
      scope_.containers[c.name] = static_cast<std::uint32_t>(program_.containers.size());
      program_.containers.push_back(std::move(plan));
    }
  }

  /* "use" held fractional terms (sym::Expr keeps (n - 1) / 255 as n/255 - 1/255): evaluated as C
     divides, which is exact when the division is (pointer difference by an element size, trip
     count by a step), but the analysis cannot tell, so the result says it. */
  void noteTruncated(const std::string& use) { note("fractional terms (" + use + ") are evaluated as C integer division, truncated toward zero"); }

  void note(const std::string& text) {
    program_.approximate = true;
    if (notesGiven_.insert(text).second) program_.notes.push_back(text);  // a set: real code gives thousands of notes
  }

  void addEvent(std::size_t index, Block& out) {
    const trace::Event& e = trace_.events[index];
    switch (e.kind) {
      case trace::EventKind::Access: {
        if (callocStores_.count(index)) return;  // calloc zeroed the block
        AccessOp a;
        a.tag = static_cast<std::uint32_t>(index);
        a.container = static_cast<std::uint32_t>(e.container);
        a.offset = compile(e.offset, "the offset of " + e.text + " at " + e.loc.str());
        a.bytes = static_cast<std::uint32_t>(e.bytes);
        a.scalarBytes = a.bytes;
        a.write = e.mode == ir::AccessMode::Write;
        a.repeat = static_cast<std::uint32_t>(e.multiplicity);
        if (a.write && e.storedFormula) {
          // Compiled here, where the loops' slots are known; kept only if some index reads the container.
          auto value = formulas_.compile(*e.storedFormula, scope_);
          if (auto* f = std::get_if<Formula>(&value); f && (!f->dependsOnData() || f->readsMemory())) {
            a.value = std::move(*f);
            a.hasValue = true;
          }
        }
        a.randomOffset = a.offset.dependsOnData();
        if (a.randomOffset) {
          bool distinct = joinDrawGroup(e, a);
          // An index read from stored values is exact; the stream says how often it found none.
          if (!program_.draws[a.draw].fromStoredValues)
            note("data-dependent offsets (" + e.text + " at " + e.loc.str() + ") draw one element per index and iteration" +
               (distinct ? ", distinct within a run of the loop that carries the index (a chase)" : ", uniformly over the container"));
        }
        out.push_back(Op{std::move(a)});
        return;
      }
      case trace::EventKind::Alloc: {
        AllocOp a;
        a.tag = static_cast<std::uint32_t>(index);
        a.container = static_cast<std::uint32_t>(e.container);
        a.sizeBytes = compile(e.sizeBytes, "the size of " + trace_.containers[e.container].name + " at " + e.loc.str());
        // A size loaded from values the program stored is read by the stream (a note says when it finds none).
        if (a.sizeBytes.dependsOnData() && !a.sizeBytes.readsMemory()) note("the size of " + trace_.containers[e.container].name + " depends on data");
        a.alignment = e.alignment;
        a.function = callocAllocs_.count(index) ? ir::AllocFunction::Calloc : e.function;
        if (auto it = options_.align.find(trace_.containers[e.container].name); it != options_.align.end()) a.alignment = it->second;
        out.push_back(Op{std::move(a)});
        return;
      }
      case trace::EventKind::Free:
        out.push_back(Op{FreeOp{static_cast<std::uint32_t>(e.container), static_cast<std::uint32_t>(index)}});
        return;
    }
  }

  /* Marks the writes whose values the stream keeps: those to containers some index or loop bound
     reads (and, in turn, to the containers those values are computed from: prefix sums), so that
     x[col[j]] and rowptr-bounded loops follow the program's own data (docs/register-model.md,
     "Values the program stored"). */
  void keepStoredValues() {
    std::vector<bool>& kept = program_.valueContainers;
    kept.assign(program_.containers.size(), false);
    // Only a container some write stores a known value into can be read back: keeping the
    // others' writes (label[i] = best, best from a data-dependent branch) would only take their
    // loops off the fast paths, and every read of them is drawn all the same.
    std::vector<bool> valued(kept.size(), false);
    program_.forEachOp([&](Op& op) {
      if (auto* a = std::get_if<AccessOp>(&op.value); a && a->write && a->hasValue && a->container < valued.size()) valued[a->container] = true;
    });
    auto keep = [&](const Formula& f) {
      bool added = false;
      if (!f.readsMemory()) return added;
      for (std::uint32_t c : f.loadedContainers())
        if (c < kept.size() && valued[c] && !kept[c]) kept[c] = added = true;
      return added;
    };
    std::function<void(const Condition&)> keepTested = [&](const Condition& c) {
      keep(c.lhs);
      keep(c.rhs);
      for (const Condition& o : c.operands) keepTested(o);
    };
    for (const DrawGroup& g : program_.draws)
      if (g.fromStoredValues) keep(g.indexFormula);
    program_.forEachOp([&](Op& op) {
      if (auto* loop = op.loop()) {
        keep(loop->start);
        keep(loop->end);
        keep(loop->step);
        for (const LoopOp::Carried& c : loop->carried) keep(c.start), keep(c.next);
        if (loop->tested) keepTested(loop->test);
      } else if (auto* alloc = std::get_if<AllocOp>(&op.value)) {
        keep(alloc->sizeBytes);
      }
    });
    for (bool grew = true; grew;) {  // values computed from other kept containers' values
      grew = false;
      program_.forEachOp([&](Op& op) {
        if (auto* a = std::get_if<AccessOp>(&op.value); a && a->write && a->hasValue && a->container < kept.size() && kept[a->container])
          grew |= keep(a->value);
      });
    }
    program_.forEachOp([&](Op& op) {
      if (auto* a = std::get_if<AccessOp>(&op.value); a && a->write) a->recordsValue = a->container < kept.size() && kept[a->container];
    });
  }

  /* "a" (data-dependent) as stride * index + rest: accesses through one index in one iteration
     share its draw and keep their field offsets (docs/register-model.md, "Indirect accesses");
     true when its group draws distinct elements. */
  bool joinDrawGroup(const trace::Event& e, AccessOp& a) {
    IndexedOffset split = splitIndexed(e.offset, trace_.context, e.bytes);
    a.offset = compile(split.rest, "the offset of " + e.text + " at " + e.loc.str());
    a.drawStride = split.stride;
    // Carried values the stream computes are data it reads, like loads (a chase: nodes[cur].next).
    auto unknowns = sym::symbolsOfKind(split.index, trace_.context, sym::SymbolKind::Unknown);
    const bool computed = std::all_of(unknowns.begin(), unknowns.end(), [&](const sym::Symbol& u) { return scope_.carriedSlots.count(u.get_name()) > 0; });
    const OpenLoop* refresh = split.unknown && !openLoops_.empty() ? &openLoops_.back() : nullptr;
    if (!split.unknown) {
      auto iterators = sym::symbolsOfKind(split.index, trace_.context, sym::SymbolKind::Iterator);
      for (auto it = openLoops_.rbegin(); it != openLoops_.rend() && !refresh; ++it)
        for (const auto& symbol : iterators)
          if (symbol.get_name() == it->iterator) refresh = &*it;
    }
    std::string index = sym::print(split.index);
    auto key = std::make_pair(refresh ? refresh->scope : SIZE_MAX, index);
    auto [group, added] = drawGroups_.emplace(key, static_cast<std::uint32_t>(program_.draws.size()));
    if (added) {
      DrawGroup g{refresh ? refresh->slot : -1, split.unknown && refresh, index, false, {}, e.text + " at " + e.loc.str()};
      if (computed) {
        auto compiled = formulas_.compile(split.index, scope_);
        if (auto* f = std::get_if<Formula>(&compiled); f && f->readsMemory()) {
          g.fromStoredValues = true;
          g.indexFormula = std::move(*f);
        }
      }
      program_.draws.push_back(std::move(g));
    }
    a.draw = group->second;
    return program_.draws[a.draw].distinct;
  }

  Block compileBlock(std::size_t scope, int depth) { return compileItems(children_[scope], depth); }

  /* "items" (children of one scope, in program order) as operations. */
  Block compileItems(const std::vector<Item>& items, int depth) {
    Block out;
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Item& item = items[i];
      if (!item.isScope) {
        addEvent(item.index, out);
        continue;
      }
      const trace::Scope& s = trace_.scopes[item.index];
      switch (s.kind) {
        case trace::ScopeKind::Program:
        case trace::ScopeKind::Parallel: {
          Block inner = compileBlock(item.index, depth);
          for (auto& op : inner) out.push_back(std::move(op));
          break;
        }
        case trace::ScopeKind::Function:
        case trace::ScopeKind::Call: out.push_back(Op{FrameOp{compileBlock(item.index, depth), item.index}}); break;
        case trace::ScopeKind::Loop: out.push_back(Op{compileLoop(item.index, depth)}); break;
        case trace::ScopeKind::Branch: {
          BranchOp branch;
          std::size_t j = i;
          while (j < items.size() && items[j].isScope && trace_.scopes[items[j].index].kind == trace::ScopeKind::Branch &&
                 trace_.scopes[items[j].index].loc == s.loc) {
            const trace::Scope& arm = trace_.scopes[items[j].index];
            branch.arms.push_back(Arm{compileCondition(arm.condition, item.index), compileBlock(items[j].index, depth), items[j].index});
            ++j;
          }
          i = j - 1;
          out.push_back(Op{std::move(branch)});
          break;
        }
      }
    }
    return out;
  }

  Condition compileCondition(const sym::Condition& c, std::size_t scope) {
    Condition out;
    switch (c.op) {
      case sym::ConditionOp::True: out.kind = Condition::Kind::Always; break;
      case sym::ConditionOp::Opaque: out.kind = Condition::Kind::FromData; break;
      case sym::ConditionOp::And:
      case sym::ConditionOp::Or:
      case sym::ConditionOp::Not:
        out.kind = c.op == sym::ConditionOp::And ? Condition::Kind::And : c.op == sym::ConditionOp::Or ? Condition::Kind::Or : Condition::Kind::Not;
        for (const auto& o : c.operands) out.operands.push_back(compileCondition(o, scope));
        break;
      default:
        out.kind = Condition::Kind::Relation;
        out.relation = c.op;
        out.lhs = compile(c.lhs, "the condition at " + where(scope));
        out.rhs = compile(c.rhs, "the condition at " + where(scope));
        if (out.lhs.dependsOnData() || out.rhs.dependsOnData()) {
          out.kind = Condition::Kind::FromData;
          out.fromValues = (!out.lhs.dependsOnData() || out.lhs.readsMemory()) && (!out.rhs.dependsOnData() || out.rhs.readsMemory());
        }
    }
    return out;
  }

  LoopOp compileLoop(std::size_t scope, int depth) {
    const trace::Scope& s = trace_.scopes[scope];
    if (depth >= kMaxSlots - static_cast<int>(scope_.carriedSlots.size()))
      throw BindingError("loops nested deeper than " + std::to_string(kMaxSlots - scope_.carriedSlots.size()) + " at " + where(scope));
    LoopOp loop;
    loop.slot = depth;
    loop.scope = scope;
    program_.slots = std::max(program_.slots, depth + 1);
    loop.tripsWhenUnknown = options_.unknownTrips;
    const std::vector<std::string> carried = compileCarried(s, scope, depth, loop);
    std::string use = "the bounds of " + where(scope);
    if (s.iterator.empty()) {
      tripsFromData(scope, loop, loop.tested ? std::string()
                                             : "opaque loops (" + where(scope) + ") run " + std::to_string(options_.unknownTrips) + " iteration(s) (--unknown-trips)");
    } else {
      sym::Expr end = s.bound;
      if (s.comparison == ir::Comparison::LessEqual) end = end + 1;
      if (s.comparison == ir::Comparison::GreaterEqual) end = end - 1;
      loop.start = compile(s.start, use);
      loop.end = compile(end, use);
      loop.step = compile(s.step, use);
      if (loop.step.dependsOnData() || (loop.step.terms().empty() && loop.step.isLinear() && loop.step.constantTerm() == 0)) {
        tripsFromData(scope, loop, "a loop step is unknown or zero at " + where(scope));
      } else {
        std::int64_t step = loop.step.isLinear() && loop.step.terms().empty() ? loop.step.constantTerm() : 1;
        loop.increasing = s.comparison == ir::Comparison::Less || s.comparison == ir::Comparison::LessEqual ||
                          (s.comparison == ir::Comparison::NotEqual && step > 0);
      }
      if ((loop.start.dependsOnData() || loop.end.dependsOnData()) && !givenTrips(scope)) detectSegment(s, scope, loop);
      else if (loop.start.dependsOnData() || loop.end.dependsOnData()) tripsFromData(scope, loop, "");
      scope_.iteratorSlots[s.iterator] = depth;
    }
    if (s.earlyExit) note("loops with an early exit (" + where(scope) + ") run their full trip count");
    openLoops_.push_back(OpenLoop{scope, depth, s.iterator});
    for (const Item& item : children_[scope]) {
      if (!item.isScope && trace_.events[item.index].loopHeader) addEvent(item.index, loop.header);
    }
    std::vector<Item> bodyItems;
    for (const Item& item : children_[scope])
      if (item.isScope || !trace_.events[item.index].loopHeader) bodyItems.push_back(item);
    loop.body = compileItems(bodyItems, depth + 1);
    openLoops_.pop_back();
    if (!s.iterator.empty()) scope_.iteratorSlots.erase(s.iterator);
    for (const std::string& name : carried) scope_.carriedSlots.erase(name);
    return loop;
  }

  /* The values loop "scope" carries that the stream computes (trace::Scope::recurrences), with
     slots from the top of the slot array, and its test (docs/register-model.md, "Values carried
     from one iteration to the next"); the names whose slots it registered in scope_. */
  std::vector<std::string> compileCarried(const trace::Scope& s, std::size_t scope, int depth, LoopOp& loop) {
    constexpr int kRoomForInnerLoops = 8;
    std::vector<std::string> registered;
    std::vector<const trace::Scope::Recurrence*> kept;
    for (const auto& r : s.recurrences) {
      const sym::SymbolInfo* info = trace_.context.info(r.variable);
      const int slot = kMaxSlots - 1 - static_cast<int>(scope_.carriedSlots.size());
      if (!info || info->kind != sym::SymbolKind::Unknown || scope_.carriedSlots.count(r.variable) || slot <= depth + kRoomForInnerLoops) continue;
      auto start = formulas_.compile(r.start, scope_);  // before the loop: its own values are not in scope
      if (!std::holds_alternative<Formula>(start)) continue;
      scope_.carriedSlots[r.variable] = slot;
      registered.push_back(r.variable);
      kept.push_back(&r);
      loop.carried.push_back(LoopOp::Carried{slot, std::get<Formula>(std::move(start)), Formula::unknown()});
    }
    if (!s.iterator.empty()) scope_.iteratorSlots[s.iterator] = depth;
    for (std::size_t k = 0; k < kept.size(); ++k)
      if (auto next = formulas_.compile(kept[k]->next, scope_); auto* f = std::get_if<Formula>(&next)) loop.carried[k].next = std::move(*f);
    if (s.test.op != sym::ConditionOp::True && !s.test.isOpaque()) {
      // Only a help: a test that needs a parameter nobody bound, or does not compile, is dropped.
      const std::size_t missing = missing_.size();
      try {
        loop.test = compileCondition(s.test, scope);
        loop.tested = computable(loop.test) && missing_.size() == missing;
        loop.testAfterBody = s.testAfterBody;
      } catch (const BindingError&) {
        loop.tested = false;
      }
      missing_.resize(missing);
    }
    if (!s.iterator.empty()) scope_.iteratorSlots.erase(s.iterator);
    return registered;
  }

  /* Whether the stream can give "c" a value: no part needs data but loads and carried values. */
  static bool computable(const Condition& c) {
    if (c.kind == Condition::Kind::FromData) return c.fromValues;
    return std::all_of(c.operands.begin(), c.operands.end(), [](const Condition& o) { return computable(o); });
  }

  /* CSR rows: start = load(c, o), end = load(c, o + e) with e the element size of c. */
  void detectSegment(const trace::Scope& s, std::size_t scope, LoopOp& loop) {
    sym::Expr start = s.start.expand(), end = s.bound.expand();
    if (sym::isLoad(start) && sym::isLoad(end)) {
      auto [c1, o1] = sym::loadParts(start);
      auto [c2, o2] = sym::loadParts(end);
      const trace::Container* c = findContainer(c1.get_name());
      if (c && c1.is_equal(c2) && (o2 - o1 - c->elementBytes).expand().is_zero() && c->elementBytes > 0) {
        std::int64_t segments = program_.containers[c->id].sizeBytes / c->elementBytes - 1;
        std::int64_t range = iterationRange(scope, s.iterator);
        if (segments > 0 && range > 0) {
          loop.segment = true;
          dataLoops_.insert(scope);
          loop.segmentIndex = compile(sym::idiv(o1, c->elementBytes), "the bounds of " + where(scope));
          loop.segmentLength = range / segments;
          if (!boundsReadMemory(loop))  // else the stream reads them, and says how often it found none
            note("segment loops (" + where(scope) + ") get equal segments of " + std::to_string(loop.segmentLength) +
               " iterations (no data for " + c->name + ")");
          return;
        }
      }
    }
    tripsFromData(scope, loop, boundsReadMemory(loop) || loop.tested ? std::string()
                                                      : "loop bounds that depend on data (" + where(scope) + ") run " + std::to_string(options_.unknownTrips) +
                                                            " iteration(s) (--unknown-trips)");
  }

  static bool boundsReadMemory(const LoopOp& loop) {
    return (loop.start.readsMemory() || !loop.start.dependsOnData()) && (loop.end.readsMemory() || !loop.end.dependsOnData()) &&
           !loop.step.dependsOnData();
  }

  /* "loop" runs a number of iterations nobody computed: the user's (--trips) or --unknown-trips ("why"). */
  void tripsFromData(std::size_t scope, LoopOp& loop, const std::string& why) {
    loop.tripsFromData = true;
    dataLoops_.insert(scope);
    const TripCount* given = givenTrips(scope);
    if (!given) {
      if (!why.empty()) note(why);
      return;
    }
    usedTrips_.insert(given);
    loop.tripsGiven = true;
    loop.tripsWhenUnknown = evaluateTrips(*given);
    note("the trip count of " + where(scope) + " depends on data: the user gave " + std::to_string(loop.tripsWhenUnknown) +
         " iteration(s) (--trips " + given->loop + "=" + given->count + ")");
  }

  /* The --trips entry naming the loop "scope" (its file:line, or function:line), if any. */
  const TripCount* givenTrips(std::size_t scope) const {
    for (const TripCount& t : options_.trips)
      if (loopNamed(scope, t.loop)) return &t;
    return nullptr;
  }

  bool loopNamed(std::size_t scope, const std::string& name) const {
    const trace::Scope& s = trace_.scopes[scope];
    auto colon = name.rfind(':');
    if (name.substr(colon + 1) != std::to_string(s.loc.line)) return false;
    std::string where = name.substr(0, colon);
    const std::string& file = s.loc.file;
    if (where == file || (file.size() > where.size() && file.compare(file.size() - where.size(), where.size(), where) == 0 &&
                          file[file.size() - where.size() - 1] == '/'))
      return true;
    return where == functionOf(scope);
  }

  std::string functionOf(std::size_t scope) const {
    for (std::optional<std::size_t> p = scope; p; p = trace_.scopes[*p].parent)
      if (trace_.scopes[*p].kind == trace::ScopeKind::Function || trace_.scopes[*p].kind == trace::ScopeKind::Call) return trace_.scopes[*p].function;
    return "";
  }

  /* The user's count: an integer or an expression of the bound parameters. */
  std::int64_t evaluateTrips(const TripCount& t) const {
    GiNaC::symtab table;
    GiNaC::exmap values;
    for (const auto& [name, value] : scope_.parameters) {
      GiNaC::symbol symbol(name);
      table[name] = symbol;
      values[symbol] = value;
    }
    std::optional<std::int64_t> count;
    try {
      GiNaC::parser reader(table, true);
      count = sym::toInteger(reader(t.count).subs(values).expand());
    } catch (const std::exception&) {
    }
    if (!count || *count < 0)
      throw OptionError("--trips " + t.loop + "=" + t.count + ": '" + t.count +
                        "' is not a non-negative integer or an expression of the bound parameters (-D)");
    return *count;
  }

  /* Every --trips entry named a data-dependent loop; else an OptionError listing those loops. */
  void checkTripsUsed() const {
    for (const TripCount& t : options_.trips) {
      if (usedTrips_.count(&t)) continue;
      std::set<std::string> loops;
      for (std::size_t s = 0; s < trace_.scopes.size(); ++s)
        if (dataLoops_.count(s)) loops.insert(functionOf(s) + ":" + std::to_string(trace_.scopes[s].loc.line) + " (" + trace_.scopes[s].loc.str() + ")");
      std::string list;
      for (const std::string& l : loops) list += (list.empty() ? "" : ", ") + l;
      throw OptionError("--trips " + t.loop + ": no loop whose trip count depends on data is at " + t.loop + "; " +
                        (list.empty() ? "the program has none" : "those loops are " + list));
    }
  }

  /* The first container named "name". Indexed at the first call: a program with many calling
     contexts has a container per local per context, and a lookup per data-bound loop. */
  const trace::Container* findContainer(const std::string& name) {
    if (containerByName_.empty())
      for (const auto& c : trace_.containers) containerByName_.emplace(c.name, &c);
    const auto it = containerByName_.find(name);
    return it == containerByName_.end() ? nullptr : it->second;
  }

  /* Elements of the smallest container the loop walks contiguously with "iterator". */
  std::int64_t iterationRange(std::size_t scope, const std::string& iterator) const {
    std::int64_t best = -1;
    for (std::size_t e = 0; e < trace_.events.size(); ++e) {
      const trace::Event& ev = trace_.events[e];
      if (ev.kind != trace::EventKind::Access || ev.classification.strideIterator != iterator) continue;
      if (ev.classification.kind != trace::AccessClass::Stride1) continue;
      bool inside = false;
      for (std::optional<std::size_t> p = ev.scope; p; p = trace_.scopes[*p].parent) inside |= *p == scope;
      std::int64_t size = program_.containers[ev.container].sizeBytes;
      if (!inside || size <= 0 || ev.bytes <= 0) continue;
      std::int64_t elements = size / ev.bytes;
      if (best < 0 || elements < best) best = elements;
    }
    return best;
  }
};

}  // namespace

static std::optional<bool> compare(sym::ConditionOp relation, std::int64_t l, std::int64_t r) {
  switch (relation) {
    case sym::ConditionOp::Less: return l < r;
    case sym::ConditionOp::LessEqual: return l <= r;
    case sym::ConditionOp::Greater: return l > r;
    case sym::ConditionOp::GreaterEqual: return l >= r;
    case sym::ConditionOp::Equal: return l == r;
    case sym::ConditionOp::NotEqual: return l != r;
    default: return std::nullopt;
  }
}

std::optional<bool> Condition::evaluate(const std::int64_t* slots) const { return evaluate(slots, nullptr); }

std::optional<bool> Condition::evaluate(const std::int64_t* slots, const ValueMemory* memory) const {
  switch (kind) {
    case Kind::Always: return true;
    case Kind::FromData: {
      if (!memory || !fromValues) return std::nullopt;
      auto l = lhs.evaluate(slots, *memory), r = rhs.evaluate(slots, *memory);
      return l && r ? compare(relation, *l, *r) : std::nullopt;
    }
    case Kind::Not: {
      auto v = operands.at(0).evaluate(slots, memory);
      return v ? std::optional<bool>(!*v) : std::nullopt;
    }
    case Kind::And:
    case Kind::Or: {
      bool isAnd = kind == Kind::And;
      auto a = operands.at(0).evaluate(slots, memory);
      if (a && *a != isAnd) return !isAnd;
      auto b = operands.at(1).evaluate(slots, memory);
      if (b && *b != isAnd) return !isAnd;
      if (a && b) return isAnd;
      return std::nullopt;
    }
    case Kind::Relation: return compare(relation, lhs.evaluate(slots), rhs.evaluate(slots));
  }
  return std::nullopt;
}

Program concretize(const trace::Trace& trace, const ConcretizeOptions& options) { return Compiler(trace, options).run(); }

}  // namespace cats::sim
