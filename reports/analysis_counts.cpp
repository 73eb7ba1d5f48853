// The count and footprint formulas of `analyze --counts` in the text and JSON reports
// (docs/analysis-format.md, "counts").
#include "analysis_counts.hpp"

#include <fmt/format.h>

namespace cats::report {

using nlohmann::ordered_json;

namespace {

const char* heading(trace::CountLevel level) {
  switch (level) {
    case trace::CountLevel::Access: return "per access";
    case trace::CountLevel::Statement: return "per statement";
    case trace::CountLevel::Loop: return "per loop (every access below it)";
    case trace::CountLevel::Function: return "per function";
    case trace::CountLevel::Container: return "per container";
  }
  return "";
}

ordered_json formulaJson(const trace::CountFormula& f) {
  ordered_json j;
  j["formula"] = f.available ? ordered_json(f.str()) : ordered_json(nullptr);
  j["exact"] = f.available && f.exact;
  j["terms"] = ordered_json::array();
  for (const auto& term : f.terms) {
    ordered_json pieces = ordered_json::array();
    for (const auto& p : term.pieces) {
      ordered_json domain = ordered_json::array();
      for (const auto& c : p.domain) domain.push_back(c.str());
      pieces.push_back(ordered_json{{"domain", domain}, {"value", sym::print(p.value)}});
    }
    j["terms"].push_back(ordered_json{{"pieces", pieces}, {"method", term.method}});
  }
  if (!f.reason.empty()) j["reason"] = f.reason;
  return j;
}

}  // namespace

std::string countsText(const trace::ProgramCounts& counts) {
  std::string params;
  for (const auto& p : counts.params) params += (params.empty() ? "" : ", ") + p.get_name();
  std::string out = fmt::format("\nCounts (formulas of {}; lines of {} bytes; the polyhedral model covers {:.1f}% of the accesses)\n",
                                params.empty() ? "no parameter" : params, counts.lineBytes, 100.0 * counts.coverage);
  std::optional<trace::CountLevel> level;
  for (const auto& r : counts.records) {
    if (r.level != level) {
      level = r.level;
      out += fmt::format("  {}\n", heading(r.level));
    }
    out += fmt::format("    {}\n", r.name);
    if (!r.executions.available && !r.bytes.available && !r.elements.available && !r.lines.available) {
      out += fmt::format("      no formula: {}\n", r.executions.reason);
      continue;
    }
    out += fmt::format("      executions  {}\n", r.executions.str());
    out += fmt::format("      bytes       {}\n", r.bytes.str());
    out += fmt::format("      elements    {}\n", r.elements.str());
    out += fmt::format("      lines       {}\n", r.lines.str());
  }
  for (const auto& n : counts.notes) out += "  note: " + n + "\n";
  return out;
}

ordered_json countsJson(const trace::ProgramCounts& counts) {
  ordered_json j;
  j["line_bytes"] = counts.lineBytes;
  j["parameters"] = ordered_json::array();
  for (const auto& p : counts.params) j["parameters"].push_back(p.get_name());
  j["coverage"] = counts.coverage;
  j["notes"] = counts.notes;
  j["records"] = ordered_json::array();
  for (const auto& r : counts.records) {
    ordered_json e;
    e["level"] = std::string(trace::toString(r.level));
    e["name"] = r.name;
    e["file"] = r.loc.file;
    e["line"] = r.loc.line;
    e["executions"] = formulaJson(r.executions);
    e["bytes"] = formulaJson(r.bytes);
    e["elements"] = formulaJson(r.elements);
    e["lines"] = formulaJson(r.lines);
    j["records"].push_back(std::move(e));
  }
  return j;
}

}  // namespace cats::report
