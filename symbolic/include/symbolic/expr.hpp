// Symbolic expressions of cats-static: GiNaC expressions over named symbols.
//
// Offsets, bounds and sizes are GiNaC expressions. A value loaded from memory is the
// function load(container, byte_offset); C integer division and remainder are idiv/imod.
// An expression the analysis cannot understand contains a symbol of kind Unknown: unknown
// is a value, never an exception.
#pragma once

#include <ginac/ginac.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace cats::sym {

using Expr = GiNaC::ex;
using Symbol = GiNaC::symbol;

enum class SymbolKind {
  Parameter,  // a free value of the program: function parameter, unknown global, -D binding
  Iterator,   // a loop iterator
  Container,  // the identity of a container, only ever inside load(...)
  Unknown,    // a value the analysis could not follow (data-dependent or unsupported)
};

std::string_view toString(SymbolKind kind);
std::optional<SymbolKind> parseSymbolKind(std::string_view text);

struct SymbolInfo {
  std::string name;
  SymbolKind kind = SymbolKind::Parameter;
  std::string note;  // why an Unknown exists, or what a Parameter stands for
};

class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Owns the symbols of one analysis. GiNaC symbols compare by identity, so every name maps to
/// exactly one symbol; asking for a taken name with another kind yields a fresh name.
class Context {
 public:
  /// The symbol called "name" of "kind", created on first use.
  Symbol symbol(const std::string& name, SymbolKind kind, const std::string& note = {});
  /// A new symbol whose name starts with "base" and is not yet taken.
  Symbol freshSymbol(const std::string& base, SymbolKind kind, const std::string& note = {});
  std::optional<SymbolKind> kindOf(const Symbol& symbol) const;
  const SymbolInfo* info(const std::string& name) const;
  bool contains(const std::string& name) const { return byName_.count(name) != 0; }
  /// The symbol called "name", if any.
  std::optional<Symbol> find(const std::string& name) const;
  /// Every symbol in creation order.
  std::vector<SymbolInfo> symbols() const;
  std::size_t size() const { return order_.size(); }
  /// A context holding the first "count" symbols of this one (the same symbols, not copies):
  /// how a later stage starts again from the symbols an earlier stage was given.
  Context prefix(std::size_t count) const;
  /// Parses "text" written by print(); unknown identifiers are an error.
  Expr parse(const std::string& text) const;

 private:
  struct Entry {
    Symbol symbol;
    SymbolInfo info;
  };
  std::unordered_map<std::string, Entry> byName_;  // never walked: order_ keeps the order
  std::vector<std::string> order_;
  std::unordered_map<std::string, int> nextSuffix_;  // base -> every base_k below it is taken (probing from 2 was quadratic)
  GiNaC::symtab table_;  // every symbol by name, kept current for parse()
};

/// The value stored in "container" at byte "offset".
Expr load(const Symbol& container, const Expr& offset);
/// C integer division and remainder (truncating); folded when both sides are integers.
Expr idiv(const Expr& dividend, const Expr& divisor);
Expr imod(const Expr& dividend, const Expr& divisor);
Expr minOf(const Expr& a, const Expr& b);
Expr maxOf(const Expr& a, const Expr& b);

bool isLoad(const Expr& e);
/// An idiv(...) term (a floor, in counting formulas).
bool isIdiv(const Expr& e);
/// Container symbol and offset of a load(...) expression.
std::pair<Symbol, Expr> loadParts(const Expr& e);

/// Names of the containers whose values appear in "e", sorted.
std::vector<std::string> containersIn(const Expr& e);
/// Symbols of "kind" (per "ctx") appearing in "e", sorted by name.
std::vector<Symbol> symbolsOfKind(const Expr& e, const Context& ctx, SymbolKind kind);
bool contains(const Expr& e, const Symbol& s);
bool containsUnknown(const Expr& e, const Context& ctx);

std::optional<std::int64_t> toInteger(const Expr& e);

/// Deterministic text: terms of a sum sorted by their printed form, parseable by Context::parse.
std::string print(const Expr& e);

}  // namespace cats::sym
