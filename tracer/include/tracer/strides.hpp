// What the review's variants (interchange, padding, tiling, layout, ...) ask of an access: the
// bound parameters as a substitution, and the bytes its offset moves per iteration of a loop.
#pragma once

#include "tracer/trace.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace cats::trace {

/// The trace's symbols of "bindings" mapped to their values.
inline GiNaC::exmap bindingValues(const Trace& t, const std::map<std::string, std::int64_t>& bindings) {
  GiNaC::exmap values;
  for (const auto& [name, value] : bindings)
    if (auto s = t.context.find(name)) values[*s] = GiNaC::numeric(static_cast<long>(value));
  return values;
}

/// Bytes the offset of "e" moves when "loop"'s iterator takes its next value, with "values"
/// applied; none when that is not a number (other iterators, data, unbound parameters).
inline std::optional<std::int64_t> strideOver(const Trace& t, const Event& e, const Scope& loop, const GiNaC::exmap& values) {
  auto it = t.context.find(loop.iterator);
  if (!it) return std::nullopt;
  GiNaC::exmap next{{*it, *it + loop.step}};
  return sym::toInteger((e.offset.subs(next) - e.offset).subs(values).expand());
}

/// The stride of strideOver() before any value is bound, printed ("8*n"), when it is an
/// expression of the parameters rather than a number; empty otherwise.
inline std::string strideFormula(const Trace& t, const Event& e, const Scope& loop) {
  auto it = t.context.find(loop.iterator);
  if (!it) return {};
  const sym::Expr stride = (e.offset.subs(GiNaC::exmap{{*it, *it + loop.step}}) - e.offset).expand();
  if (sym::toInteger(stride)) return {};
  for (sym::SymbolKind other : {sym::SymbolKind::Iterator, sym::SymbolKind::Container, sym::SymbolKind::Unknown})
    if (!sym::symbolsOfKind(stride, t.context, other).empty()) return {};
  return sym::print(stride);
}

}  // namespace cats::trace
