// Symbol ownership, queries over expressions, deterministic printing and parsing.
#include "symbolic/expr.hpp"

#include <algorithm>
#include <sstream>

namespace cats::sym {

std::string_view toString(SymbolKind kind) {
  switch (kind) {
    case SymbolKind::Parameter: return "parameter";
    case SymbolKind::Iterator: return "iterator";
    case SymbolKind::Container: return "container";
    case SymbolKind::Unknown: return "unknown";
  }
  return "unknown";
}

std::optional<SymbolKind> parseSymbolKind(std::string_view text) {
  for (SymbolKind k : {SymbolKind::Parameter, SymbolKind::Iterator, SymbolKind::Container, SymbolKind::Unknown})
    if (toString(k) == text) return k;
  return std::nullopt;
}

/* Names GiNaC's parser reads as constants, so they cannot name our symbols. */
static bool isReservedName(const std::string& name) {
  return name == "I" || name == "Pi" || name == "Euler" || name == "Catalan";
}

Symbol Context::symbol(const std::string& name, SymbolKind kind, const std::string& note) {
  auto it = byName_.find(name);
  if (it != byName_.end() && it->second.info.kind == kind) return it->second.symbol;
  if (it != byName_.end() || isReservedName(name)) return freshSymbol(name, kind, note);
  Symbol s(name);
  byName_.emplace(name, Entry{s, SymbolInfo{name, kind, note}});
  order_.push_back(name);
  table_[name] = s;
  return s;
}

Symbol Context::freshSymbol(const std::string& base, SymbolKind kind, const std::string& note) {
  std::string name = base;
  if (byName_.count(name) != 0 || isReservedName(name)) {
    int& suffix = nextSuffix_.try_emplace(base, 2).first->second;
    for (name = base + "_" + std::to_string(suffix); byName_.count(name) != 0 || isReservedName(name);)
      name = base + "_" + std::to_string(++suffix);
    ++suffix;
  }
  Symbol s(name);
  byName_.emplace(name, Entry{s, SymbolInfo{name, kind, note}});
  order_.push_back(name);
  table_[name] = s;
  return s;
}

Context Context::prefix(std::size_t count) const {
  Context out;
  for (std::size_t i = 0; i < count && i < order_.size(); ++i) {
    const Entry& entry = byName_.at(order_[i]);
    out.byName_.emplace(order_[i], entry);
    out.order_.push_back(order_[i]);
    out.table_[order_[i]] = entry.symbol;
  }
  return out;
}

std::optional<Symbol> Context::find(const std::string& name) const {
  auto it = byName_.find(name);
  if (it == byName_.end()) return std::nullopt;
  return it->second.symbol;
}

std::optional<SymbolKind> Context::kindOf(const Symbol& symbol) const {
  auto it = byName_.find(symbol.get_name());
  if (it == byName_.end() || !it->second.symbol.is_equal(symbol)) return std::nullopt;
  return it->second.info.kind;
}

const SymbolInfo* Context::info(const std::string& name) const {
  auto it = byName_.find(name);
  return it == byName_.end() ? nullptr : &it->second.info;
}

std::vector<SymbolInfo> Context::symbols() const {
  std::vector<SymbolInfo> out;
  out.reserve(order_.size());
  for (const auto& name : order_) out.push_back(byName_.at(name).info);
  return out;
}

Expr Context::parse(const std::string& text) const {
  try {
    GiNaC::parser reader(table_, /*strict=*/true);
    return reader(text);
  } catch (const std::exception& e) {
    throw ParseError("cannot parse expression '" + text + "': " + e.what());
  }
}

/* Calls "visit" on every sub-expression of "e", "e" included. */
template <typename Visit>
static void forEachNode(const Expr& e, Visit&& visit) {
  visit(e);
  for (std::size_t i = 0; i < e.nops(); ++i) forEachNode(e.op(i), visit);
}

std::vector<std::string> containersIn(const Expr& e) {
  std::set<std::string> names;
  forEachNode(e, [&](const Expr& node) {
    if (isLoad(node)) names.insert(loadParts(node).first.get_name());
  });
  return {names.begin(), names.end()};
}

std::vector<Symbol> symbolsOfKind(const Expr& e, const Context& ctx, SymbolKind kind) {
  std::map<std::string, Symbol> found;
  forEachNode(e, [&](const Expr& node) {
    if (!GiNaC::is_a<GiNaC::symbol>(node)) return;
    const auto& s = GiNaC::ex_to<GiNaC::symbol>(node);
    if (ctx.kindOf(s) == kind) found.emplace(s.get_name(), s);
  });
  std::vector<Symbol> out;
  out.reserve(found.size());
  for (auto& [name, s] : found) out.push_back(s);
  return out;
}

bool contains(const Expr& e, const Symbol& s) { return e.has(s); }

bool containsUnknown(const Expr& e, const Context& ctx) {
  return !symbolsOfKind(e, ctx, SymbolKind::Unknown).empty();
}

std::optional<std::int64_t> toInteger(const Expr& e) {
  if (!GiNaC::is_a<GiNaC::numeric>(e)) return std::nullopt;
  const auto& n = GiNaC::ex_to<GiNaC::numeric>(e);
  if (!n.is_integer() || GiNaC::abs(n) > GiNaC::numeric(INT64_MAX)) return std::nullopt;
  return n.to_long();
}

/* GiNaC's own text for "e", using its default printer. */
static std::string ginacText(const Expr& e) {
  std::ostringstream out;
  out << e;
  return out.str();
}

static bool isNumberText(const std::string& t) {
  return !t.empty() && t.find_first_not_of("-0123456789/") == std::string::npos;
}

/* A sum's terms sorted by text (numbers last) so the output does not depend on symbol creation order. */
static std::string printSum(const Expr& sum) {
  std::vector<std::string> terms;
  for (std::size_t i = 0; i < sum.nops(); ++i) terms.push_back(print(sum.op(i)));
  auto key = [](const std::string& t) { return t[0] == '-' ? std::string_view(t).substr(1) : std::string_view(t); };
  std::stable_sort(terms.begin(), terms.end(), [&](const std::string& a, const std::string& b) {
    if (isNumberText(a) != isNumberText(b)) return !isNumberText(a);
    return key(a) < key(b);
  });
  std::string out;
  for (const auto& t : terms) {
    if (out.empty()) out = t;
    else if (t[0] == '-') out += " - " + t.substr(1);
    else out += " + " + t;
  }
  return out;
}

/* "e" as a factor of a product or the base of a power: sums and negatives in parentheses. */
static std::string printFactor(const Expr& e) {
  std::string text = print(e);
  bool needsParens = GiNaC::is_a<GiNaC::add>(e) || (!text.empty() && text[0] == '-') ||
                     (GiNaC::is_a<GiNaC::numeric>(e) && text.find('/') != std::string::npos);
  return needsParens ? "(" + text + ")" : text;
}

static std::string printProduct(const Expr& product) {
  GiNaC::numeric coefficient = 1;
  std::vector<std::string> factors;
  for (std::size_t i = 0; i < product.nops(); ++i) {
    const Expr& f = product.op(i);
    if (GiNaC::is_a<GiNaC::numeric>(f)) coefficient *= GiNaC::ex_to<GiNaC::numeric>(f);
    else factors.push_back(printFactor(f));
  }
  std::sort(factors.begin(), factors.end());
  std::string body;
  for (const auto& f : factors) body += (body.empty() ? "" : "*") + f;
  if (coefficient.is_equal(1)) return body;
  if (coefficient.is_equal(-1)) return "-" + body;
  std::string c = ginacText(coefficient);
  return (c.find('/') != std::string::npos ? "(" + c + ")" : c) + "*" + body;
}

std::string print(const Expr& e) {
  if (GiNaC::is_a<GiNaC::add>(e)) return printSum(e);
  if (GiNaC::is_a<GiNaC::mul>(e)) return printProduct(e);
  if (GiNaC::is_a<GiNaC::power>(e)) {
    std::string exponent = print(e.op(1));
    if (!isNumberText(exponent) || exponent[0] == '-' || exponent.find('/') != std::string::npos) exponent = "(" + exponent + ")";
    return printFactor(e.op(0)) + "^" + exponent;
  }
  if (GiNaC::is_a<GiNaC::function>(e)) {
    std::string out = GiNaC::ex_to<GiNaC::function>(e).get_name() + "(";
    for (std::size_t i = 0; i < e.nops(); ++i) out += (i ? ", " : "") + print(e.op(i));
    return out + ")";
  }
  return ginacText(e);
}

}  // namespace cats::sym
