// `simulate --explain-model`: what the compiler model assumed, per function, call and loop, as
// a tree in program order (text) and as the versioned "compiler_model" JSON section.
#include "compiler_model_records.hpp"
#include "reports/simulation.hpp"

#include <fmt/format.h>

#include <map>

namespace cats::report {

using nlohmann::ordered_json;

namespace {

std::string where(const ir::SourceLoc& loc) { return loc.file + ":" + std::to_string(loc.line); }

/// Builds the tree of one contexts trace; "children" and "accesses" are indexed by scope.
class TreeBuilder {
 public:
  TreeBuilder(const trace::Trace& contexts, const sim::CompilationPlan& plan) : contexts_(contexts), plan_(plan) {
    children_.resize(contexts.scopes.size());
    for (const trace::Scope& s : contexts.scopes)
      if (s.parent) children_[*s.parent].push_back(s.id);
    for (const sim::AccessDecision& d : plan.accesses) accessesOfLoop_[loopOf(d)].push_back(&d);
    for (const trace::Event& e : contexts.events)
      if (e.kind == trace::EventKind::Alloc && isSlot(contexts.containers[e.container])) slots_[e.scope].push_back(contexts.containers[e.container].name);
  }

  std::vector<ModelNode> below(std::size_t scope) const {
    std::vector<ModelNode> out;
    for (std::size_t child : children_[scope]) {
      const trace::Scope& s = contexts_.scopes[child];
      if (s.kind == trace::ScopeKind::Function || s.kind == trace::ScopeKind::Call || s.kind == trace::ScopeKind::Loop) {
        out.push_back(node(s));
        continue;
      }
      for (ModelNode& n : below(child)) out.push_back(std::move(n));  // branches and parallel regions are transparent
    }
    return out;
  }

 private:
  const trace::Trace& contexts_;
  const sim::CompilationPlan& plan_;
  std::vector<std::vector<std::size_t>> children_;
  std::map<std::size_t, std::vector<const sim::AccessDecision*>> accessesOfLoop_;
  std::map<std::size_t, std::vector<std::string>> slots_;

  static bool isSlot(const trace::Container& c) { return c.kind == ir::ContainerKind::Stack && c.isScalar; }

  /* The loop scope decision "d" belongs to: its own for promoted and reloaded accesses, the
     innermost loop around the access otherwise (0: none). */
  std::size_t loopOf(const sim::AccessDecision& d) const {
    if (d.loop) return *d.loop;
    for (std::optional<std::size_t> s = contexts_.events[d.event].scope; s; s = contexts_.scopes[*s].parent)
      if (contexts_.scopes[*s].kind == trace::ScopeKind::Loop) return *s;
    return 0;
  }

  ModelNode node(const trace::Scope& s) const {
    ModelNode n;
    n.location = where(s.loc);
    n.compiledInto = plan_.compiledFunction(contexts_, s.id);
    if (s.kind == trace::ScopeKind::Loop) {
      n.kind = ModelNode::Kind::Loop;
      n.name = s.iterator.empty() ? "?" : s.iterator;
      n.loop = plan_.loop(s.id);
      if (auto it = accessesOfLoop_.find(s.id); it != accessesOfLoop_.end())
        for (const sim::AccessDecision* d : it->second) {
          const trace::Event& e = contexts_.events[d->event];
          n.accesses.push_back(ModelAccess{e.text, where(e.loc) + ":" + std::to_string(e.loc.column), d->kind, d->reason});
        }
    } else {
      n.kind = s.kind == trace::ScopeKind::Call ? ModelNode::Kind::Call : ModelNode::Kind::Function;
      n.name = s.function;
      n.call = s.kind == trace::ScopeKind::Call ? plan_.call(s.id) : nullptr;
      if (auto it = slots_.find(s.id); it != slots_.end()) n.stackSlots = it->second;
    }
    n.children = below(s.id);
    return n;
  }
};

std::string vectorText(const sim::LoopDecision& d) {
  if (!d.replacedBy.empty()) return "replaced by " + d.replacedBy + (d.removed ? ", then removed" : "");
  if (d.vectorFactor <= 1) return d.slp ? "scalar loop, body packed by SLP" : "not vectorised";
  std::string out = fmt::format("vectorised by {}", d.vectorFactor);
  if (d.interleave > 1) out += fmt::format(", interleave {}", d.interleave);
  if (d.scalarEpilogue) out += ", scalar epilogue";
  if (d.runtimeAliasCheck) out += ", run-time alias check";
  if (d.slp) out += ", SLP";
  return out;
}

std::string source(sim::DecisionSource s) { return s == sim::DecisionSource::Report ? "[report]" : "[model]"; }

std::string withReason(const std::string& what, const std::string& reason) {
  return reason.empty() || reason == what ? what : what + " (" + reason + ")";
}

void renderText(const ModelNode& n, int depth, std::string& out) {
  std::string indent(static_cast<std::size_t>(2 * depth), ' ');
  switch (n.kind) {
    case ModelNode::Kind::Function: out += fmt::format("{}function {}  {}\n", indent, n.name, n.location); break;
    case ModelNode::Kind::Call: {
      std::string what = "not inlined";
      if (n.call && n.call->inlined) what = "inlined into " + n.compiledInto;
      if (n.call && !n.call->constantParameters.empty()) what += fmt::format(", constant parameters {}", fmt::join(n.call->constantParameters, ", "));
      out += fmt::format("{}call {}  {}: {}  {}\n", indent, n.name, n.location, withReason(what, n.call ? n.call->reason : ""),
                         source(n.call ? n.call->source : sim::DecisionSource::Model));
      break;
    }
    case ModelNode::Kind::Loop: {
      std::string trips = "trip count unknown to the compiler";
      std::string vector = "not vectorised";
      if (n.loop) {
        trips = withReason(n.loop->constantTrips ? "constant trip count" : "trip count not constant", n.loop->tripsReason);
        vector = withReason(vectorText(*n.loop), n.loop->reason);
      }
      out += fmt::format("{}loop {}  {}: {}; {}  {}\n", indent, n.name, n.location, trips, vector,
                         source(n.loop ? n.loop->source : sim::DecisionSource::Model));
      for (const ModelAccess& a : n.accesses)
        out += fmt::format("{}  {} {}  {}{}\n", indent, sim::toString(a.kind), a.text, a.location, a.reason.empty() ? "" : ": " + a.reason);
      break;
    }
  }
  if (!n.stackSlots.empty()) out += fmt::format("{}  stack slots: {}\n", indent, fmt::join(n.stackSlots, ", "));
  for (const ModelNode& c : n.children) renderText(c, depth + 1, out);
}

ordered_json nodeJson(const ModelNode& n) {
  ordered_json j;
  switch (n.kind) {
    case ModelNode::Kind::Function:
      j["kind"] = "function";
      j["function"] = n.name;
      break;
    case ModelNode::Kind::Call:
      j["kind"] = "call";
      j["callee"] = n.name;
      j["inlined"] = n.call && n.call->inlined;
      j["constant_parameters"] = n.call ? n.call->constantParameters : std::vector<std::string>{};
      j["reason"] = n.call ? n.call->reason : "";
      j["source"] = std::string(sim::toString(n.call ? n.call->source : sim::DecisionSource::Model));
      break;
    case ModelNode::Kind::Loop: {
      sim::LoopDecision none;
      const sim::LoopDecision& d = n.loop ? *n.loop : none;
      j["kind"] = "loop";
      j["iterator"] = n.name;
      j["constant_trips"] = d.constantTrips;
      j["trips_reason"] = d.tripsReason;
      j["vector_factor"] = d.vectorFactor;
      j["interleave"] = d.interleave;
      j["runtime_alias_check"] = d.runtimeAliasCheck;
      j["scalar_epilogue"] = d.scalarEpilogue;
      j["slp"] = d.slp;
      j["replaced_by"] = d.replacedBy;
      j["removed"] = d.removed;
      j["reason"] = d.reason;
      j["source"] = std::string(sim::toString(d.source));
      j["accesses"] = ordered_json::array();
      for (const ModelAccess& a : n.accesses)
        j["accesses"].push_back(ordered_json{{"text", a.text}, {"location", a.location}, {"kind", std::string(sim::toString(a.kind))}, {"reason", a.reason}});
      break;
    }
  }
  j["location"] = n.location;
  j["compiled_into"] = n.compiledInto;
  if (n.kind != ModelNode::Kind::Loop) j["stack_slots"] = n.stackSlots;
  j["children"] = ordered_json::array();
  for (const ModelNode& c : n.children) j["children"].push_back(nodeJson(c));
  return j;
}

}  // namespace

std::vector<ModelNode> compilerModelTree(const trace::Trace& contexts, const sim::CompilationPlan& plan) {
  if (contexts.scopes.empty()) return {};
  return TreeBuilder(contexts, plan).below(0);
}

std::string compilerModelText(const trace::Trace& contexts, const sim::CompilationPlan& plan) {
  std::string out = fmt::format("Compiler model ({}; [model]: decided by the model, [report]: by the compiler's own report)\n", plan.target.label());
  for (const ModelNode& n : compilerModelTree(contexts, plan)) renderText(n, 1, out);
  for (const std::string& note : plan.notes) out += "  note: " + note + "\n";
  return out;
}

ordered_json compilerModelJson(const trace::Trace& contexts, const sim::CompilationPlan& plan) {
  ordered_json j;
  j["version"] = kCompilerModelFormatVersion;
  j["compiler"] = plan.target.label();
  j["tree"] = ordered_json::array();
  for (const ModelNode& n : compilerModelTree(contexts, plan)) j["tree"].push_back(nodeJson(n));
  j["notes"] = plan.notes;
  return j;
}

}  // namespace cats::report
