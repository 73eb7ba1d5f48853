// JSON writer and reader of the trace. Expressions are stored as text and parsed back with
// the trace's own symbol table, so a round trip gives equal expressions.
#include "tracer/trace_json.hpp"

#include "ir/dump.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <limits>
#include <type_traits>

namespace cats::trace {

using nlohmann::ordered_json;

namespace {

using ir::comparisonText;

const std::vector<std::pair<sym::ConditionOp, std::string>>& conditionOps() {
  static const std::vector<std::pair<sym::ConditionOp, std::string>> ops = {
      {sym::ConditionOp::True, "true"}, {sym::ConditionOp::Less, "<"},     {sym::ConditionOp::LessEqual, "<="},
      {sym::ConditionOp::Greater, ">"}, {sym::ConditionOp::GreaterEqual, ">="}, {sym::ConditionOp::Equal, "=="},
      {sym::ConditionOp::NotEqual, "!="}, {sym::ConditionOp::And, "and"}, {sym::ConditionOp::Or, "or"},
      {sym::ConditionOp::Not, "not"},   {sym::ConditionOp::Opaque, "opaque"}};
  return ops;
}

void putLoc(ordered_json& j, const ir::SourceLoc& loc) {
  j["file"] = loc.file;
  j["line"] = loc.line;
  j["column"] = loc.column;
}

ordered_json conditionJson(const sym::Condition& c) {
  ordered_json j;
  for (const auto& [op, text] : conditionOps())
    if (op == c.op) j["op"] = text;
  switch (c.op) {
    case sym::ConditionOp::True: break;
    case sym::ConditionOp::Opaque: j["text"] = c.text; break;
    case sym::ConditionOp::And:
    case sym::ConditionOp::Or:
    case sym::ConditionOp::Not:
      j["operands"] = ordered_json::array();
      for (const auto& o : c.operands) j["operands"].push_back(conditionJson(o));
      break;
    default:
      j["lhs"] = sym::print(c.lhs);
      j["rhs"] = sym::print(c.rhs);
  }
  return j;
}

ordered_json accessJson(const Event& e) {
  ordered_json j;
  j["mode"] = std::string(ir::toString(e.mode));
  j["offset"] = sym::print(e.offset);
  j["subscripts"] = ordered_json::array();
  for (const auto& s : e.subscripts) j["subscripts"].push_back(sym::print(s));
  j["bytes"] = e.bytes;
  j["name"] = e.name;
  j["field"] = e.field;
  j["text"] = e.text;
  j["loop_header"] = e.loopHeader;
  j["multiplicity"] = e.multiplicity;
  if (e.stored.kind != ir::StoredValue::Kind::Unknown) {
    j["stored"] = std::string(ir::toString(e.stored.kind));
    if (e.stored.splat) j["splat"] = *e.stored.splat;
    if (e.copyOf) j["copy_of"] = *e.copyOf;
  }
  if (e.storedFormula) j["value"] = sym::print(*e.storedFormula);
  const Classification& c = e.classification;
  j["class"] = std::string(toString(c.kind));
  j["stride_bytes"] = c.strideBytes ? ordered_json(sym::print(*c.strideBytes)) : ordered_json(nullptr);
  j["stride_iterator"] = c.strideIterator;
  j["indirect_via"] = c.indirectVia;
  j["invariant_in_innermost_loop"] = c.invariantInInnermostLoop;
  j["approximate"] = c.approximate;
  return j;
}

}  // namespace

std::string writeTraceJson(const Trace& t) {
  ordered_json root;
  root["format"] = "cats-static-trace";
  root["version"] = kTraceFormatVersion;
  root["form"] = t.form == TraceForm::Summaries ? "summaries" : "contexts";
  root["program_symbols"] = t.programSymbols;
  root["source_diagnostics"] = t.sourceDiagnostics;
  root["files"] = t.files;
  root["entries"] = t.entries;
  root["bindings"] = t.bindings;
  root["defaults"] = t.defaults;
  root["functions"] = ordered_json::object();
  for (const auto& [name, f] : t.functions)
    root["functions"][name] = ordered_json{{"static", f.isStatic}, {"inline", f.declaredInline}, {"always_inline", f.alwaysInline},
                                           {"noinline", f.noInline}, {"statements", f.statements},
                                           {"operations", f.operations}};
  root["approximate"] = t.approximate;
  root["symbols"] = ordered_json::array();
  for (const auto& s : t.context.symbols())
    root["symbols"].push_back(ordered_json{{"name", s.name}, {"kind", std::string(sym::toString(s.kind))}, {"note", s.note}});
  root["containers"] = ordered_json::array();
  for (const auto& c : t.containers) {
    ordered_json j;
    j["id"] = c.id;
    j["name"] = c.name;
    j["kind"] = std::string(ir::toString(c.kind));
    j["element_type"] = c.elementType;
    j["element_bytes"] = c.elementBytes;
    j["size_bytes"] = sym::print(c.sizeBytes);
    j["dims"] = ordered_json::array();
    for (const auto& d : c.dims) j["dims"].push_back(sym::print(d));
    j["fields"] = ordered_json::array();
    for (const auto& f : c.fields) j["fields"].push_back(ordered_json{{"name", f.name}, {"offset", f.offset}, {"bytes", f.bytes}, {"type", f.type}});
    j["alignment"] = c.alignment;
    j["scalar"] = c.isScalar;
    j["restrict"] = c.isRestrict;
    putLoc(j, c.loc);
    j["declared_name"] = c.declaredName;
    j["owner"] = c.owner ? ordered_json(*c.owner) : ordered_json(nullptr);
    j["parameter"] = c.parameter ? ordered_json(*c.parameter) : ordered_json(nullptr);
    root["containers"].push_back(std::move(j));
  }
  root["scopes"] = ordered_json::array();
  for (const auto& s : t.scopes) {
    ordered_json j;
    j["id"] = s.id;
    j["parent"] = s.parent ? ordered_json(*s.parent) : ordered_json(nullptr);
    j["kind"] = std::string(toString(s.kind));
    putLoc(j, s.loc);
    j["first_event"] = s.firstEvent;
    if (s.kind == ScopeKind::Function || s.kind == ScopeKind::Call) j["function"] = s.function;
    if (s.kind == ScopeKind::Function) {
      j["params"] = ordered_json::array();
      for (const auto& p : s.params)
        j["params"].push_back(ordered_json{{"name", p.name}, {"pointer", p.isPointer}, {"symbol", p.symbol},
                                           {"container", p.container ? ordered_json(*p.container) : ordered_json(nullptr)}});
    }
    if (s.kind == ScopeKind::Call) {
      j["recursive"] = s.recursive;
      j["bindings"] = ordered_json::array();
      for (const auto& b : s.bindings)
        j["bindings"].push_back(ordered_json{{"kind", std::string(toString(b.kind))}, {"value", sym::print(b.value)}, {"container", b.container}});
    }
    if (s.kind == ScopeKind::Loop) {
      j["iterator"] = s.iterator;
      j["start"] = sym::print(s.start);
      j["comparison"] = comparisonText(s.comparison);
      j["bound"] = sym::print(s.bound);
      j["step"] = sym::print(s.step);
      j["parallel"] = s.parallel;
      j["opaque_reason"] = s.opaqueReason;
      j["early_exit"] = s.earlyExit;
      j["static_bounds"] = s.staticBounds;
      j["varying"] = s.varying;
      j["carried"] = ordered_json::array();
      for (const auto& c : s.carried) j["carried"].push_back(ordered_json{{"name", c.name}, {"kind", std::string(toString(c.kind))}});
      j["source_iterator"] = s.sourceIterator;
      j["iterator_base"] = s.iteratorBase;
      j["varying_sources"] = ordered_json::array();
      for (const auto& v : s.varyingSources) j["varying_sources"].push_back(sym::print(v));
      // Optional members (added within version 5): present only when the loop has them.
      for (const auto& rec : s.recurrences)
        j["recurrences"].push_back(ordered_json{{"variable", rec.variable}, {"start", sym::print(rec.start)}, {"next", sym::print(rec.next)}});
      if (s.test.op != sym::ConditionOp::True) j["test"] = conditionJson(s.test);
      if (s.testAfterBody) j["test_after_body"] = true;
    }
    if (s.kind == ScopeKind::Branch) {
      j["arm"] = s.arm;
      j["condition"] = conditionJson(s.condition);
      j["decided"] = s.decided ? ordered_json(*s.decided) : ordered_json(nullptr);
    }
    root["scopes"].push_back(std::move(j));
  }
  root["events"] = ordered_json::array();
  for (const auto& e : t.events) {
    ordered_json j;
    j["kind"] = std::string(toString(e.kind));
    j["scope"] = e.scope;
    j["container"] = e.container;
    putLoc(j, e.loc);
    if (e.kind == EventKind::Access) j.update(accessJson(e));
    if (e.kind == EventKind::Alloc) {
      j["function"] = std::string(ir::toString(e.function));
      j["size_bytes"] = sym::print(e.sizeBytes);
      j["alignment"] = e.alignment;
    }
    root["events"].push_back(std::move(j));
  }
  root["diagnostics"] = ordered_json::array();
  for (const auto& d : t.diagnostics) {
    ordered_json j;
    j["severity"] = std::string(ir::toString(d.severity));
    putLoc(j, d.loc);
    j["message"] = d.message;
    root["diagnostics"].push_back(std::move(j));
  }
  // Source text need not be UTF-8 (a Latin-1 string literal in an access): bytes that are not
  // become U+FFFD instead of failing the whole report.
  return root.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

namespace {

/// Reading with context: every failure names the JSON path that is wrong.
class Reader {
 public:
  explicit Reader(Trace& t) : trace_(t) {}

  template <typename T>
  T get(const ordered_json& j, const char* key, const std::string& where) const {
    if (!j.contains(key)) throw TraceFormatError(where + ": missing field '" + key + "'");
    const ordered_json& value = j.at(key);
    // nlohmann converts a float to an integer with a plain cast: undefined behaviour out of range.
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) checkWhole<T>(value, where + "." + key);
    if constexpr (std::is_same_v<T, std::map<std::string, std::int64_t>>)
      if (value.is_object())
        for (const auto& item : value.items()) checkWhole<std::int64_t>(item.value(), where + "." + key + "." + item.key());
    try {
      return value.get<T>();
    } catch (const std::exception& e) {
      throw TraceFormatError(where + "." + key + ": " + e.what());
    }
  }

  /* A JSON integer that fits T; anything else (a float, a string, out of range) is a format error. */
  template <typename T>
  static void checkWhole(const ordered_json& value, const std::string& where) {
    if (!value.is_number_integer()) throw TraceFormatError(where + ": must be a whole number");
    bool fits = value.is_number_unsigned()
                    ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                    : (value.get<std::int64_t>() >= static_cast<std::int64_t>(std::numeric_limits<T>::min()) &&
                       (std::is_unsigned_v<T> || value.get<std::int64_t>() <= static_cast<std::int64_t>(std::numeric_limits<T>::max())));
    if (!fits) throw TraceFormatError(where + ": " + value.dump() + " is out of range");
  }

  const ordered_json& member(const ordered_json& j, const char* key, const std::string& where) const {
    if (!j.is_object() || !j.contains(key)) throw TraceFormatError(where + ": missing field '" + key + "'");
    return j.at(key);
  }

  sym::Expr expr(const ordered_json& j, const char* key, const std::string& where) const {
    std::string text = get<std::string>(j, key, where);
    try {
      return trace_.context.parse(text);
    } catch (const sym::ParseError& e) {
      throw TraceFormatError(where + "." + key + ": " + e.what());
    }
  }

  /* The expressions of array member "key" of "j". */
  std::vector<sym::Expr> exprs(const ordered_json& j, const char* key, const std::string& where) const {
    const ordered_json& list = member(j, key, where);
    if (!list.is_array()) throw TraceFormatError(where + "." + key + ": not an array");
    std::vector<sym::Expr> out;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const ordered_json& item = list[i];
      std::string at = where + "." + key + "[" + std::to_string(i) + "]";
      if (!item.is_string()) throw TraceFormatError(at + ": not a string");
      try {
        out.push_back(trace_.context.parse(item.get<std::string>()));
      } catch (const sym::ParseError& e) {
        throw TraceFormatError(at + ": " + e.what());
      }
    }
    return out;
  }

  /* A container id that the trace defines (containers are read before scopes). */
  std::size_t container(const ordered_json& j, const char* key, const std::string& where) const {
    auto id = get<std::size_t>(j, key, where);
    if (id >= trace_.containers.size()) throw TraceFormatError(where + "." + key + ": no such container");
    return id;
  }

  /* "j", which must be a JSON string, parsed as an expression. */
  sym::Expr exprValue(const ordered_json& j, const std::string& where) const {
    if (!j.is_string()) throw TraceFormatError(where + ": not a string");
    try {
      return trace_.context.parse(j.get<std::string>());
    } catch (const sym::ParseError& e) {
      throw TraceFormatError(where + ": " + e.what());
    }
  }

  ir::SourceLoc loc(const ordered_json& j, const std::string& where) const {
    return ir::SourceLoc{get<std::string>(j, "file", where), get<unsigned>(j, "line", where), get<unsigned>(j, "column", where)};
  }

  sym::Condition condition(const ordered_json& j, const std::string& where) const {
    sym::Condition c;
    std::string op = get<std::string>(j, "op", where);
    bool found = false;
    for (const auto& [kind, text] : conditionOps())
      if (text == op) {
        c.op = kind;
        found = true;
      }
    if (!found) throw TraceFormatError(where + ".op: unknown operator '" + op + "'");
    switch (c.op) {
      case sym::ConditionOp::True: break;
      case sym::ConditionOp::Opaque: c.text = get<std::string>(j, "text", where); break;
      case sym::ConditionOp::And:
      case sym::ConditionOp::Or:
      case sym::ConditionOp::Not:
        for (const auto& o : member(j, "operands", where)) c.operands.push_back(condition(o, where + ".operands"));
        break;
      default:
        c.lhs = expr(j, "lhs", where);
        c.rhs = expr(j, "rhs", where);
    }
    return c;
  }

 private:
  Trace& trace_;
};

template <typename Enum, typename Parse>
Enum parseEnum(const std::string& text, Parse parse, const std::string& where) {
  auto value = parse(text);
  if (!value) throw TraceFormatError(where + ": unknown value '" + text + "'");
  return *value;
}

/* The value of "values" whose name (per toString) is "text". */
template <typename Enum, typename Name>
std::function<std::optional<Enum>(std::string_view)> byName(std::initializer_list<Enum> values, Name name) {
  std::vector<Enum> all(values);
  return [all, name](std::string_view text) -> std::optional<Enum> {
    for (Enum v : all)
      if (name(v) == text) return v;
    return std::nullopt;
  };
}

const auto parseContainerKind = byName({ir::ContainerKind::Global, ir::ContainerKind::Static, ir::ContainerKind::Stack,
                                        ir::ContainerKind::Heap, ir::ContainerKind::Parameter, ir::ContainerKind::Pointee},
                                       [](auto v) { return std::string(ir::toString(v)); });
const auto parseAllocFunction = byName({ir::AllocFunction::Malloc, ir::AllocFunction::Calloc, ir::AllocFunction::Realloc,
                                        ir::AllocFunction::AlignedAlloc, ir::AllocFunction::PosixMemalign,
                                        ir::AllocFunction::StackArray, ir::AllocFunction::StaticArray},
                                       [](auto v) { return std::string(ir::toString(v)); });
const auto parseComparison = byName({ir::Comparison::Less, ir::Comparison::LessEqual, ir::Comparison::Greater,
                                     ir::Comparison::GreaterEqual, ir::Comparison::NotEqual},
                                    [](auto v) { return comparisonText(v); });
const auto parseSeverity = byName({ir::Severity::Note, ir::Severity::Warning, ir::Severity::Error},
                                  [](auto v) { return std::string(ir::toString(v)); });
const auto parseMode = byName({ir::AccessMode::Read, ir::AccessMode::Write}, [](auto v) { return std::string(ir::toString(v)); });
const auto parseEventKind = byName({EventKind::Alloc, EventKind::Free, EventKind::Access},
                                   [](auto v) { return std::string(toString(v)); });
const auto parseStoredKind = byName({ir::StoredValue::Kind::Unknown, ir::StoredValue::Kind::Constant, ir::StoredValue::Kind::Copy},
                                    [](auto v) { return std::string(ir::toString(v)); });

/* The optional stored-value fields of access "j" (writes): a copy must name an earlier read of
   the same size, a splat must be a byte. */
void readStored(const Reader& r, const ordered_json& j, const std::string& where, Event& e, const std::vector<Event>& earlier) {
  if (!j.contains("stored")) return;
  e.stored.kind = parseEnum<ir::StoredValue::Kind>(r.get<std::string>(j, "stored", where), parseStoredKind, where + ".stored");
  if (e.mode != ir::AccessMode::Write) throw TraceFormatError(where + ".stored: only writes store a value");
  if (j.contains("splat")) {
    auto splat = r.get<int>(j, "splat", where);
    if (e.stored.kind != ir::StoredValue::Kind::Constant || splat < 0 || splat > 255)
      throw TraceFormatError(where + ".splat: a byte (0-255) of a constant");
    e.stored.splat = static_cast<std::uint8_t>(splat);
  }
  if (e.stored.kind != ir::StoredValue::Kind::Copy) return;
  auto from = r.get<std::size_t>(j, "copy_of", where);
  if (from >= earlier.size() || earlier[from].kind != EventKind::Access || earlier[from].mode != ir::AccessMode::Read ||
      earlier[from].bytes != e.bytes)
    throw TraceFormatError(where + ".copy_of: not an earlier read of the same size");
  e.copyOf = from;
}

}  // namespace

Trace readTraceJson(const std::string& text) {
  ordered_json root;
  try {
    root = ordered_json::parse(text);
  } catch (const std::exception& e) {
    throw TraceFormatError(std::string("not JSON: ") + e.what());
  }
  Trace t;
  Reader r(t);
  if (!root.is_object() || r.get<std::string>(root, "format", "trace") != "cats-static-trace")
    throw TraceFormatError("trace: 'format' is not \"cats-static-trace\"");
  int version = r.get<int>(root, "version", "trace");
  if (version != kTraceFormatVersion)
    throw TraceFormatError("trace: version " + std::to_string(version) + " is not supported (this build reads version " +
                           std::to_string(kTraceFormatVersion) + ")");
  std::string form = r.get<std::string>(root, "form", "trace");
  if (form != "summaries" && form != "contexts") throw TraceFormatError("trace.form: unknown value '" + form + "'");
  t.form = form == "summaries" ? TraceForm::Summaries : TraceForm::Contexts;
  t.programSymbols = r.get<std::size_t>(root, "program_symbols", "trace");
  t.sourceDiagnostics = r.get<std::size_t>(root, "source_diagnostics", "trace");
  t.files = r.get<std::vector<std::string>>(root, "files", "trace");
  t.entries = r.get<std::vector<std::string>>(root, "entries", "trace");
  t.bindings = r.get<std::map<std::string, std::string>>(root, "bindings", "trace");
  t.defaults = r.get<std::map<std::string, std::int64_t>>(root, "defaults", "trace");
  const auto& functions = r.member(root, "functions", "trace");
  if (!functions.is_object()) throw TraceFormatError("trace.functions: not an object");
  for (const auto& [name, f] : functions.items()) {
    std::string where = "functions." + name;
    t.functions[name] = ir::FunctionTraits{r.get<bool>(f, "static", where), r.get<bool>(f, "inline", where),
                                           r.get<bool>(f, "always_inline", where), r.get<bool>(f, "noinline", where),
                                           r.get<std::size_t>(f, "statements", where)};
    // Added within version 5: a trace without it prices Clang's inliner by statements.
    t.functions[name].operations = f.contains("operations") ? r.get<std::size_t>(f, "operations", where) : t.functions[name].statements;
  }
  t.approximate = r.get<bool>(root, "approximate", "trace");
  for (const auto& s : r.member(root, "symbols", "trace")) {
    auto kind = parseEnum<sym::SymbolKind>(r.get<std::string>(s, "kind", "symbols"), sym::parseSymbolKind, "symbols.kind");
    std::string name = r.get<std::string>(s, "name", "symbols");
    if (t.context.symbol(name, kind, r.get<std::string>(s, "note", "symbols")).get_name() != name)
      throw TraceFormatError("symbols: '" + name + "' is declared twice");
  }
  for (const auto& j : r.member(root, "containers", "trace")) {
    std::string where = "containers[" + std::to_string(t.containers.size()) + "]";
    Container c;
    c.id = r.get<std::size_t>(j, "id", where);
    if (c.id != t.containers.size()) throw TraceFormatError(where + ".id: ids must count up from 0");
    c.name = r.get<std::string>(j, "name", where);
    c.kind = parseEnum<ir::ContainerKind>(r.get<std::string>(j, "kind", where), parseContainerKind, where + ".kind");
    c.elementType = r.get<std::string>(j, "element_type", where);
    c.elementBytes = r.get<std::int64_t>(j, "element_bytes", where);
    c.sizeBytes = r.expr(j, "size_bytes", where);
    for (const auto& d : r.member(j, "dims", where)) c.dims.push_back(r.exprValue(d, where + ".dims"));
    for (const auto& f : r.member(j, "fields", where))
      c.fields.push_back(ir::Field{r.get<std::string>(f, "name", where), r.get<std::int64_t>(f, "offset", where),
                                   r.get<std::int64_t>(f, "bytes", where), r.get<std::string>(f, "type", where)});
    c.alignment = r.get<std::int64_t>(j, "alignment", where);
    c.isScalar = r.get<bool>(j, "scalar", where);
    c.isRestrict = r.get<bool>(j, "restrict", where);
    c.loc = r.loc(j, where);
    c.declaredName = r.get<std::string>(j, "declared_name", where);
    if (!r.member(j, "owner", where).is_null()) c.owner = r.get<std::size_t>(j, "owner", where);
    if (!r.member(j, "parameter", where).is_null()) c.parameter = r.get<std::size_t>(j, "parameter", where);
    t.containers.push_back(std::move(c));
  }
  for (const auto& j : r.member(root, "scopes", "trace")) {
    std::string where = "scopes[" + std::to_string(t.scopes.size()) + "]";
    Scope s;
    s.id = r.get<std::size_t>(j, "id", where);
    if (s.id != t.scopes.size()) throw TraceFormatError(where + ".id: ids must count up from 0");
    if (!r.member(j, "parent", where).is_null()) {
      s.parent = r.get<std::size_t>(j, "parent", where);  // through get(): a wrong type is a TraceFormatError
      if (*s.parent >= s.id) throw TraceFormatError(where + ".parent: a parent comes before its children");
    }
    s.kind = parseEnum<ScopeKind>(r.get<std::string>(j, "kind", where), parseScopeKind, where + ".kind");
    s.loc = r.loc(j, where);
    s.firstEvent = r.get<std::size_t>(j, "first_event", where);
    if (s.kind == ScopeKind::Function || s.kind == ScopeKind::Call) s.function = r.get<std::string>(j, "function", where);
    if (s.kind == ScopeKind::Function)
      for (const auto& p : r.member(j, "params", where)) {
        SummaryParameter param{r.get<std::string>(p, "name", where + ".params"), r.get<bool>(p, "pointer", where + ".params"),
                               r.get<std::string>(p, "symbol", where + ".params"), std::nullopt};
        if (!r.member(p, "container", where + ".params").is_null()) param.container = r.container(p, "container", where + ".params");
        s.params.push_back(std::move(param));
      }
    if (s.kind == ScopeKind::Call) {
      s.recursive = r.get<bool>(j, "recursive", where);
      for (const auto& b : r.member(j, "bindings", where)) {
        CallBinding binding;
        binding.kind = parseEnum<CallBinding::Kind>(r.get<std::string>(b, "kind", where + ".bindings"), parseBindingKind, where + ".bindings.kind");
        binding.value = r.expr(b, "value", where + ".bindings");
        binding.container = r.container(b, "container", where + ".bindings");
        s.bindings.push_back(std::move(binding));
      }
    }
    if (s.kind == ScopeKind::Loop) {
      s.iterator = r.get<std::string>(j, "iterator", where);
      s.start = r.expr(j, "start", where);
      s.comparison = parseEnum<ir::Comparison>(r.get<std::string>(j, "comparison", where), parseComparison, where + ".comparison");
      s.bound = r.expr(j, "bound", where);
      s.step = r.expr(j, "step", where);
      s.parallel = r.get<bool>(j, "parallel", where);
      s.opaqueReason = r.get<std::string>(j, "opaque_reason", where);
      s.earlyExit = r.get<bool>(j, "early_exit", where);
      s.staticBounds = r.get<bool>(j, "static_bounds", where);
      s.varying = r.get<std::vector<std::string>>(j, "varying", where);
      for (const auto& c : r.member(j, "carried", where)) {
        ir::CarriedScalar carried;
        carried.name = r.get<std::string>(c, "name", where + ".carried");
        carried.kind = parseEnum<ir::CarriedScalar::Kind>(r.get<std::string>(c, "kind", where + ".carried"), ir::parseCarriedKind, where + ".carried.kind");
        s.carried.push_back(std::move(carried));
      }
      s.sourceIterator = r.get<std::string>(j, "source_iterator", where);
      s.iteratorBase = r.get<std::string>(j, "iterator_base", where);
      for (const auto& v : r.member(j, "varying_sources", where)) {
        if (!v.is_string()) throw TraceFormatError(where + ".varying_sources: not a string");
        try {
          s.varyingSources.push_back(t.context.parse(v.get<std::string>()));
        } catch (const sym::ParseError& e) {
          throw TraceFormatError(where + ".varying_sources: " + e.what());
        }
      }
      if (j.contains("recurrences"))
        for (const auto& rec : r.member(j, "recurrences", where)) {
          Scope::Recurrence out;
          out.variable = r.get<std::string>(rec, "variable", where + ".recurrences");
          if (!t.context.find(out.variable)) throw TraceFormatError(where + ".recurrences: unknown symbol '" + out.variable + "'");
          out.start = r.expr(rec, "start", where + ".recurrences");
          out.next = r.expr(rec, "next", where + ".recurrences");
          s.recurrences.push_back(std::move(out));
        }
      if (j.contains("test")) s.test = r.condition(r.member(j, "test", where), where + ".test");
      if (j.contains("test_after_body")) s.testAfterBody = r.get<bool>(j, "test_after_body", where);
    }
    if (s.kind == ScopeKind::Branch) {
      s.arm = r.get<std::string>(j, "arm", where);
      s.condition = r.condition(r.member(j, "condition", where), where + ".condition");
      if (!r.member(j, "decided", where).is_null()) s.decided = r.member(j, "decided", where).get<bool>();
    }
    t.scopes.push_back(std::move(s));
  }
  for (const auto& c : t.containers)
    if (c.owner && *c.owner >= t.scopes.size())
      throw TraceFormatError("containers[" + std::to_string(c.id) + "].owner: no such scope");
  if (t.programSymbols > t.context.size()) throw TraceFormatError("trace.program_symbols: more than the symbols listed");
  for (const auto& j : r.member(root, "events", "trace")) {
    std::string where = "events[" + std::to_string(t.events.size()) + "]";
    Event e;
    e.kind = parseEnum<EventKind>(r.get<std::string>(j, "kind", where), parseEventKind, where + ".kind");
    e.scope = r.get<std::size_t>(j, "scope", where);
    e.container = r.get<std::size_t>(j, "container", where);
    if (e.scope >= t.scopes.size()) throw TraceFormatError(where + ".scope: no such scope");
    if (e.container >= t.containers.size()) throw TraceFormatError(where + ".container: no such container");
    e.loc = r.loc(j, where);
    if (e.kind == EventKind::Access) {
      e.mode = parseEnum<ir::AccessMode>(r.get<std::string>(j, "mode", where), parseMode, where + ".mode");
      e.offset = r.expr(j, "offset", where);
      e.subscripts = r.exprs(j, "subscripts", where);
      e.bytes = r.get<std::int64_t>(j, "bytes", where);
      e.name = r.get<std::string>(j, "name", where);
      e.field = r.get<std::string>(j, "field", where);
      e.text = r.get<std::string>(j, "text", where);
      e.loopHeader = r.get<bool>(j, "loop_header", where);
      e.multiplicity = r.get<std::size_t>(j, "multiplicity", where);
      readStored(r, j, where, e, t.events);
      // Added within version 5: the integer a write stores, as a formula (optional).
      if (j.contains("value")) {
        if (e.mode != ir::AccessMode::Write) throw TraceFormatError(where + ".value: only writes store a value");
        e.storedFormula = r.expr(j, "value", where);
      }
      Classification& c = e.classification;
      c.kind = parseEnum<AccessClass>(r.get<std::string>(j, "class", where), parseAccessClass, where + ".class");
      if (!r.member(j, "stride_bytes", where).is_null()) c.strideBytes = r.expr(j, "stride_bytes", where);
      c.strideIterator = r.get<std::string>(j, "stride_iterator", where);
      c.indirectVia = r.get<std::vector<std::string>>(j, "indirect_via", where);
      c.invariantInInnermostLoop = r.get<bool>(j, "invariant_in_innermost_loop", where);
      c.approximate = r.get<bool>(j, "approximate", where);
    }
    if (e.kind == EventKind::Alloc) {
      e.function = parseEnum<ir::AllocFunction>(r.get<std::string>(j, "function", where), parseAllocFunction, where + ".function");
      e.sizeBytes = r.expr(j, "size_bytes", where);
      e.alignment = r.get<std::int64_t>(j, "alignment", where);
    }
    t.events.push_back(std::move(e));
  }
  for (const auto& j : r.member(root, "diagnostics", "trace")) {
    ir::Diagnostic d;
    d.severity = parseEnum<ir::Severity>(r.get<std::string>(j, "severity", "diagnostics"), parseSeverity, "diagnostics.severity");
    d.loc = r.loc(j, "diagnostics");
    d.message = r.get<std::string>(j, "message", "diagnostics");
    t.diagnostics.push_back(std::move(d));
  }
  if (t.sourceDiagnostics > t.diagnostics.size()) throw TraceFormatError("trace.source_diagnostics: more than the diagnostics listed");
  return t;
}

}  // namespace cats::trace
