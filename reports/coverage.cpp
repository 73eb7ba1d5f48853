// Coverage: every access event is traced back to the unknown values in its offset and the loops
// around it whose trip counts were not followed; a source access counts once however many
// calling contexts the trace holds for it.
#include "reports/coverage.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <set>
#include <tuple>

namespace cats::report {

namespace {

/* Reasons group across places: "k changes in the loop at a.c:12:3" and "... at a.c:40:5" are one reason. */
std::string withoutLocation(const std::string& text) {
  static const std::regex location(R"( (at|in) [^ ]+:[0-9]+(:[0-9]+)?)");
  return std::regex_replace(text, location, "");
}

std::string unknownReason(const sym::Context& ctx, const sym::Symbol& symbol) {
  const sym::SymbolInfo* info = ctx.info(symbol.get_name());
  if (!info || info->note.empty()) return "unknown value '" + symbol.get_name() + "'";
  return withoutLocation(info->note);
}

void addUnknowns(const sym::Context& ctx, const sym::Expr& e, std::set<std::string>& out) {
  for (const auto& s : sym::symbolsOfKind(e, ctx, sym::SymbolKind::Unknown)) out.insert(unknownReason(ctx, s));
}

bool stopsAt(const trace::Scope& s) { return s.kind == trace::ScopeKind::Function || s.kind == trace::ScopeKind::Call; }

/* Source identity of an access: the same access seen in several calling contexts counts once. */
using SourceKey = std::tuple<std::string, std::string, unsigned, unsigned, int, std::string>;

}  // namespace

std::vector<std::string> approximationReasons(const trace::Trace& t, const trace::Event& e) {
  std::set<std::string> reasons;
  addUnknowns(t.context, e.offset, reasons);
  if (t.containers.at(e.container).kind == ir::ContainerKind::Pointee && e.classification.indirectVia.empty())
    reasons.insert("memory behind a pointer the analysis cannot follow");
  for (std::optional<std::size_t> id = e.scope; id; id = t.scopes.at(*id).parent) {
    const trace::Scope& s = t.scopes.at(*id);
    if (s.kind == trace::ScopeKind::Loop) {
      if (s.iterator.empty()) reasons.insert("trip count unknown: " + withoutLocation(s.opaqueReason));
      if (s.earlyExit) reasons.insert("loop with an early exit: trip count is an upper bound");
      std::set<std::string> bounds;
      addUnknowns(t.context, s.start, bounds);
      addUnknowns(t.context, s.bound, bounds);
      addUnknowns(t.context, s.step, bounds);
      for (const auto& b : bounds) reasons.insert("loop bound: " + b);
    }
    if (stopsAt(s)) break;
  }
  return {reasons.begin(), reasons.end()};
}

Coverage coverage(const trace::Trace& t) {
  struct Seen {
    std::string function;
    std::set<std::string> reasons;
    bool dataDependent = false;
    ir::SourceLoc loc;
  };
  std::map<SourceKey, Seen> accesses;
  for (const auto& e : t.events) {
    if (e.kind != trace::EventKind::Access) continue;
    std::string function = t.functionOf(e.scope);
    SourceKey key{function, e.loc.file, e.loc.line, e.loc.column, static_cast<int>(e.mode), e.text};
    Seen& seen = accesses[key];
    seen.function = function;
    seen.loc = e.loc;
    for (auto& r : approximationReasons(t, e)) seen.reasons.insert(std::move(r));
    seen.dataDependent |= !e.classification.indirectVia.empty();
  }
  Coverage out;
  std::map<std::string, std::map<std::string, CoverageReason>> reasons;  // function ("" = program) -> text -> reason
  for (const auto& [key, seen] : accesses) {
    for (CoverageCounts* counts : {&out.program, &out.byFunction[seen.function]}) {
      ++counts->accesses;
      if (!seen.reasons.empty()) ++counts->approximate;
      else ++counts->exact;
      if (seen.reasons.empty() && seen.dataDependent) ++counts->dataDependent;
    }
    for (const auto& text : seen.reasons) {
      for (const std::string& scope : {std::string(), seen.function}) {
        CoverageReason& r = reasons[scope][text];
        if (r.accesses++ == 0) {
          r.text = text;
          r.example = seen.loc;
        }
      }
    }
  }
  auto sorted = [](const std::map<std::string, CoverageReason>& byText) {
    std::vector<CoverageReason> list;
    list.reserve(byText.size());
    for (const auto& [text, r] : byText) list.push_back(r);
    std::stable_sort(list.begin(), list.end(), [](const CoverageReason& a, const CoverageReason& b) { return a.accesses > b.accesses; });
    return list;
  };
  out.program.reasons = sorted(reasons[""]);
  for (auto& [function, counts] : out.byFunction) counts.reasons = sorted(reasons[function]);
  return out;
}

std::string coverageText(const Coverage& c, std::size_t topReasons) {
  auto row = [](const std::string& label, const CoverageCounts& n) {
    return fmt::format("  {:<32} {:>8} {:>8} {:>7.1f}% {:>8} {:>8}\n", label, n.accesses, n.exact, 100.0 * n.exactShare(), n.approximate,
                       n.dataDependent);
  };
  std::string out = "Coverage (distinct source accesses; exact = offset and count followed completely)\n";
  out += fmt::format("  {:<32} {:>8} {:>8} {:>8} {:>8} {:>8}\n", "", "accesses", "exact", "share", "approx", "data-dep");
  out += row("program", c.program);
  for (const auto& [function, counts] : c.byFunction) out += row("  " + function, counts);
  if (!c.program.reasons.empty()) {
    out += "  top reasons for approximate accesses\n";
    for (std::size_t i = 0; i < c.program.reasons.size() && i < topReasons; ++i) {
      const CoverageReason& r = c.program.reasons[i];
      out += fmt::format("    {:>6}  {}  (e.g. {})\n", r.accesses, r.text, r.example.str());
    }
    if (c.program.reasons.size() > topReasons)
      out += fmt::format("    ... {} more reasons (JSON report: coverage.reasons)\n", c.program.reasons.size() - topReasons);
  }
  return out;
}

}  // namespace cats::report
