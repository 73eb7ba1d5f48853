// Text analysis report: containers, accesses nested by function and loop, class histograms.
#include "reports/analysis.hpp"

#include "analysis_counts.hpp"

#include "reports/coverage.hpp"

#include "ir/dump.hpp"
#include "tracer/call_sites.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace cats::report {

namespace {

std::string loopHeader(const trace::Scope& s) {
  if (!s.opaqueReason.empty()) return fmt::format("opaque loop at line {} ({})", s.loc.line, s.opaqueReason);
  std::string text = fmt::format("{}loop {} = {} .. {} {}, step {}", s.parallel ? "parallel " : "", s.iterator, sym::print(s.start),
                                 ir::comparisonText(s.comparison), sym::print(s.bound), sym::print(s.step));
  if (s.earlyExit) text += " (early exit)";
  return text + fmt::format("  [line {}]", s.loc.line);
}

std::string scopeHeader(const trace::Scope& s) {
  switch (s.kind) {
    case trace::ScopeKind::Program: return "program";
    case trace::ScopeKind::Function: return fmt::format("function {}  [{}]", s.function, s.loc.str());
    case trace::ScopeKind::Call: return fmt::format("call {}  [{}]", s.function, s.loc.str());
    case trace::ScopeKind::Loop: return loopHeader(s);
    case trace::ScopeKind::Branch:
      return fmt::format("{} ({}){}  [line {}]", s.arm, sym::print(s.condition),
                         s.decided ? (*s.decided ? " always" : " never") : "", s.loc.line);
    case trace::ScopeKind::Parallel: return fmt::format("parallel region  [line {}]", s.loc.line);
  }
  return "?";
}

std::string classText(const trace::Event& e) {
  const auto& c = e.classification;
  std::string text(trace::toString(c.kind));
  if (c.strideBytes) text += fmt::format(" ({} B per {})", sym::print(*c.strideBytes), c.strideIterator);
  if (!c.indirectVia.empty()) {
    std::string via;
    for (const auto& v : c.indirectVia) via += (via.empty() ? "" : ", ") + v;
    text += " via " + via;
  }
  if (c.invariantInInnermostLoop) text += ", invariant in innermost loop";
  if (c.approximate) text += ", approximate";
  return text;
}

void histogramRow(std::string& out, const std::string& label, const ClassHistogram& h) {
  out += fmt::format("  {:<24} {:>9} {:>9} {:>9} {:>9} {:>7}\n", label, h.counts[0], h.counts[1], h.counts[2], h.counts[3], h.total());
}

}  // namespace

std::string analysisText(const trace::Trace& t, const trace::ProgramCounts* counts) {
  std::string out;
  out += fmt::format("cats-static analysis: {} file(s), entry {}", t.files.size(), t.entries.empty() ? "(none)" : t.entries.front());
  for (std::size_t i = 1; i < t.entries.size(); ++i) out += ", " + t.entries[i];
  if (!t.bindings.empty()) {
    out += ", with";
    for (const auto& [k, v] : t.bindings) out += " " + k + "=" + v;
  }
  out += t.approximate ? "  (approximate: see warnings)\n\n" : "\n\n";

  out += "Containers\n";
  out += fmt::format("  {:<16} {:<10} {:<22} {:>6}  {:<24} {}\n", "name", "kind", "element", "bytes", "size (bytes)", "declared at");
  for (const auto& c : t.containers) {
    std::string element = c.elementType;
    for (const auto& d : c.dims) element += "[" + sym::print(d) + "]";
    out += fmt::format("  {:<16} {:<10} {:<22} {:>6}  {:<24} {}\n", c.name, ir::toString(c.kind), element, c.elementBytes,
                       sym::print(c.sizeBytes), c.loc.file.empty() ? "-" : c.loc.str());
    for (const auto& f : c.fields) out += fmt::format("  {:<16} .{} at +{} ({} B, {})\n", "", f.name, f.offset, f.bytes, f.type);
  }

  std::map<std::string, trace::FunctionContexts> sites = trace::callSites(t);
  out += t.form == trace::TraceForm::Summaries
             ? "\nAccesses (each function once, with its callers; line:col  mode  access -> container + offset  class)\n"
             : "\nAccesses (program order; line:col  mode  access -> container + offset  class)\n";
  std::vector<std::size_t> printed;
  for (const auto& e : t.events) {
    if (e.kind != trace::EventKind::Access) continue;
    std::vector<std::size_t> stack = t.stack(e.scope);
    std::size_t common = 0;
    while (common < stack.size() && common < printed.size() && stack[common] == printed[common]) ++common;
    for (std::size_t d = common; d < stack.size(); ++d) {
      const trace::Scope& s = t.scopes.at(stack[d]);
      out += std::string(2 * d + 2, ' ') + scopeHeader(s);
      if (auto it = sites.find(s.function); s.kind == trace::ScopeKind::Function && it != sites.end()) out += "  " + it->second.summary();
      out += "\n";
    }
    printed = stack;
    std::string indent(2 * stack.size() + 2, ' ');
    std::string access = e.text.empty() ? e.name : e.text;
    if (!e.field.empty() && e.text.empty()) access += "." + e.field;
    out += fmt::format("{}{}:{}  {:<5} {} -> {} + {}  [{} B]  {}{}\n", indent, e.loc.line, e.loc.column, ir::toString(e.mode), access,
                       t.containers.at(e.container).name, sym::print(e.offset), e.bytes, classText(e),
                       e.loopHeader ? " (loop condition)" : "");
  }

  Histograms h = histograms(t);
  out += fmt::format("\nAccess classes\n  {:<24} {:>9} {:>9} {:>9} {:>9} {:>7}\n", "", "constant", "stride-1", "stride-k", "indirect", "total");
  histogramRow(out, "program", h.program);
  out += "  per container\n";
  for (const auto& [name, hist] : h.byContainer) histogramRow(out, "  " + name, hist);
  out += "  per function\n";
  for (const auto& [name, hist] : h.byFunction) histogramRow(out, "  " + name, hist);
  out += "\n" + coverageText(coverage(t));
  if (counts) out += countsText(*counts);
  return out;
}

}  // namespace cats::report
