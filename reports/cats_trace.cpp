// Writing the C.A.T.S. runtime trace: one event per line, fields in the order the runtime
// writes them, so a file from cats-static reads like one from the tracer.
#include "reports/cats_trace.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace cats::report {

namespace {

std::string quoted(const std::string& text) { return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

std::string_view scopeType(trace::ScopeKind kind) {
  switch (kind) {
    case trace::ScopeKind::Function:
    case trace::ScopeKind::Call: return "func";
    case trace::ScopeKind::Loop: return "loop";
    case trace::ScopeKind::Branch: return "cond";
    case trace::ScopeKind::Parallel: return "para";
    case trace::ScopeKind::Program: return "n/a";
  }
  return "n/a";
}

/* "funcname", "filename", "line" and "col" of an event: where it is in the sources. */
std::string place(const std::string& function, const ir::SourceLoc& loc) {
  return fmt::format("\"funcname\": {}, \"filename\": {}, \"line\": {}, \"col\": {}", quoted(function.empty() ? "$UNKNOWN$" : function),
                     quoted(loc.file.empty() ? "$UNKNOWN$" : loc.file), loc.line, loc.column);
}

std::string eventJson(const trace::Trace& t, const sim::ConcreteEvent& e) {
  using Kind = sim::ConcreteEvent::Kind;
  if (e.kind == Kind::ScopeEntry || e.kind == Kind::ScopeExit) {
    const trace::Scope& s = t.scopes.at(e.scope);
    const bool function = s.kind == trace::ScopeKind::Function || s.kind == trace::ScopeKind::Call;
    std::string where = place(function ? s.function : t.functionOf(e.scope), s.loc);
    if (e.kind == Kind::ScopeExit) return fmt::format("{{{}, \"type\": \"scope_exit\", \"id\": {}}}", where, e.scope);
    return fmt::format("{{{}, \"type\": \"scope_entry\", \"scope_type\": \"{}\", \"id\": {}}}", where, scopeType(s.kind), e.scope);
  }
  const trace::Event& event = t.events.at(e.traceEvent);
  std::string where = place(t.functionOf(e.scope), event.loc);
  std::string buffer = quoted(t.containers.at(e.container).name);
  switch (e.kind) {
    case Kind::Allocation:
      return fmt::format("{{{}, \"type\": \"allocation\", \"buffer_name\": {}, \"buffer_id\": {}, \"size\": {}}}", where, buffer, e.base, e.bytes);
    case Kind::Deallocation:
      return fmt::format("{{{}, \"type\": \"deallocation\", \"buffer_name\": {}, \"buffer_id\": {}}}", where, buffer, e.base);
    case Kind::Access:
      return fmt::format("{{{}, \"type\": \"access\", \"mode\": \"{}\", \"buffer_name\": {}, \"buffer_id\": {}, \"offset\": {}, \"bytes\": {}}}", where,
                         e.write ? 'w' : 'r', buffer, e.base, e.offset, e.bytes);
    case Kind::ScopeEntry:
    case Kind::ScopeExit: break;
  }
  return {};
}

}  // namespace

std::string catsTraceJson(const CatsTraceInput& in) {
  std::string out = "{\n";
  out += "  \"generator\": \"cats-static\",\n";
  out += fmt::format("  \"truncated\": {},\n", in.events.truncated);
  out += fmt::format("  \"max_events\": {},\n", in.maxEvents);
  out += fmt::format("  \"accesses_written\": {},\n", in.events.accesses);
  out += fmt::format("  \"accesses_total\": {},\n", in.totalAccesses);
  out += "  \"events\": [\n";
  for (std::size_t k = 0; k < in.events.events.size(); ++k) {
    out += "    " + eventJson(in.trace, in.events.events[k]);
    out += k + 1 < in.events.events.size() ? ",\n" : "\n";
  }
  out += "  ]\n}\n";
  return out;
}

}  // namespace cats::report
