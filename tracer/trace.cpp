// Stack queries and names of the trace's enums.
#include "tracer/trace.hpp"

#include <algorithm>

namespace cats::trace {

std::string_view toString(ScopeKind kind) {
  switch (kind) {
    case ScopeKind::Program: return "program";
    case ScopeKind::Function: return "function";
    case ScopeKind::Call: return "call";
    case ScopeKind::Loop: return "loop";
    case ScopeKind::Branch: return "branch";
    case ScopeKind::Parallel: return "parallel";
  }
  return "program";
}

std::optional<ScopeKind> parseScopeKind(std::string_view text) {
  for (ScopeKind k : {ScopeKind::Program, ScopeKind::Function, ScopeKind::Call, ScopeKind::Loop, ScopeKind::Branch, ScopeKind::Parallel})
    if (toString(k) == text) return k;
  return std::nullopt;
}

std::string_view toString(AccessClass c) {
  switch (c) {
    case AccessClass::Constant: return "constant";
    case AccessClass::Stride1: return "stride-1";
    case AccessClass::StrideK: return "stride-k";
    case AccessClass::Indirect: return "indirect";
  }
  return "indirect";
}

std::optional<AccessClass> parseAccessClass(std::string_view text) {
  for (AccessClass c : {AccessClass::Constant, AccessClass::Stride1, AccessClass::StrideK, AccessClass::Indirect})
    if (toString(c) == text) return c;
  return std::nullopt;
}

std::string_view toString(EventKind kind) {
  switch (kind) {
    case EventKind::Alloc: return "alloc";
    case EventKind::Free: return "free";
    case EventKind::Access: return "access";
  }
  return "access";
}

std::string_view toString(CallBinding::Kind kind) {
  switch (kind) {
    case CallBinding::Kind::Scalar: return "scalar";
    case CallBinding::Kind::Pointer: return "pointer";
    case CallBinding::Kind::Unknown: return "unknown";
    case CallBinding::Kind::None: return "none";
  }
  return "none";
}

std::optional<CallBinding::Kind> parseBindingKind(std::string_view text) {
  for (auto k : {CallBinding::Kind::Scalar, CallBinding::Kind::Pointer, CallBinding::Kind::Unknown, CallBinding::Kind::None})
    if (toString(k) == text) return k;
  return std::nullopt;
}

std::string Scope::label() const {
  switch (kind) {
    case ScopeKind::Program: return "program";
    case ScopeKind::Function: return function;
    case ScopeKind::Call: return function + "@" + loc.file + ":" + std::to_string(loc.line);
    case ScopeKind::Loop:
      return (parallel ? "parallel loop " : "loop ") + (iterator.empty() ? "(opaque)@" + std::to_string(loc.line) : iterator);
    case ScopeKind::Branch: return "if@" + std::to_string(loc.line) + " " + arm;
    case ScopeKind::Parallel: return "parallel@" + std::to_string(loc.line);
  }
  return "?";
}

std::vector<std::size_t> Trace::stack(std::size_t scope) const {
  std::vector<std::size_t> ids;
  for (std::optional<std::size_t> s = scope; s; s = scopes.at(*s).parent)
    if (scopes.at(*s).kind != ScopeKind::Program) ids.push_back(*s);
  std::reverse(ids.begin(), ids.end());
  return ids;
}

std::vector<std::string> Trace::stackLabels(std::size_t scope) const {
  std::vector<std::string> labels;
  for (std::size_t id : stack(scope)) labels.push_back(scopes.at(id).label());
  return labels;
}

std::string Trace::functionOf(std::size_t scope) const {
  for (std::optional<std::size_t> s = scope; s; s = scopes.at(*s).parent)
    if (scopes.at(*s).kind == ScopeKind::Function || scopes.at(*s).kind == ScopeKind::Call) return scopes.at(*s).function;
  return {};
}

std::optional<std::size_t> Trace::innermostLoop(std::size_t scope) const {
  for (std::optional<std::size_t> s = scope; s; s = scopes.at(*s).parent)
    if (scopes.at(*s).kind == ScopeKind::Loop) return *s;
  return std::nullopt;
}

bool Trace::encloses(std::size_t outer, std::size_t inner) const {
  for (std::optional<std::size_t> s = inner; s; s = scopes.at(*s).parent)
    if (*s == outer) return true;
  return false;
}

std::optional<std::size_t> Trace::summaryOf(const std::string& function) const {
  for (const auto& s : scopes)
    if (s.kind == ScopeKind::Function && s.parent == std::size_t{0} && s.function == function) return s.id;
  return std::nullopt;
}

void setStored(Event& e, const ir::StoredValue& stored, std::optional<std::size_t> previous, const std::vector<Event>& events) {
  e.stored = stored;
  e.copyOf.reset();
  if (stored.kind != ir::StoredValue::Kind::Copy) return;
  if (previous && *previous < events.size() && events[*previous].kind == EventKind::Access && events[*previous].mode == ir::AccessMode::Read &&
      events[*previous].bytes == e.bytes)
    e.copyOf = previous;
  else
    e.stored = {};
}

void foldStored(Event& kept, const Event& again) {
  if (kept.storedFormula && (!again.storedFormula || !kept.storedFormula->is_equal(*again.storedFormula))) kept.storedFormula.reset();
  if (kept.stored == again.stored && kept.copyOf == again.copyOf) return;
  kept.stored = {};
  kept.copyOf.reset();
}

}  // namespace cats::trace
