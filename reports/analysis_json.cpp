// JSON analysis report: the stable contract other tools read (see docs/analysis-format.md).
#include "reports/analysis.hpp"

#include "analysis_counts.hpp"

#include "reports/coverage.hpp"
#include "tracer/call_sites.hpp"

#include <nlohmann/json.hpp>

namespace cats::report {

using nlohmann::ordered_json;

Histograms histograms(const trace::Trace& t) {
  Histograms h;
  for (const auto& e : t.events) {
    if (e.kind != trace::EventKind::Access) continue;
    h.program.add(e.classification.kind);
    h.byContainer[t.containers.at(e.container).name].add(e.classification.kind);
    h.byFunction[t.functionOf(e.scope)].add(e.classification.kind);
  }
  return h;
}

static ordered_json coverageJson(const CoverageCounts& c) {
  ordered_json j;
  j["accesses"] = c.accesses;
  j["exact"] = c.exact;
  j["approximate"] = c.approximate;
  j["data_dependent"] = c.dataDependent;
  j["exact_share"] = c.exactShare();
  j["reasons"] = ordered_json::array();
  for (const auto& r : c.reasons)
    j["reasons"].push_back(ordered_json{{"reason", r.text}, {"accesses", r.accesses}, {"example", r.example.str()}});
  return j;
}

static ordered_json histogramJson(const ClassHistogram& h) {
  ordered_json j;
  for (auto c : {trace::AccessClass::Constant, trace::AccessClass::Stride1, trace::AccessClass::StrideK, trace::AccessClass::Indirect})
    j[std::string(trace::toString(c))] = h.counts[static_cast<std::size_t>(c)];
  return j;
}

std::string analysisJson(const trace::Trace& t, const trace::ProgramCounts* counts) {
  ordered_json root;
  root["format"] = "cats-static-analysis";
  root["version"] = kAnalysisFormatVersion;
  root["files"] = t.files;
  root["entries"] = t.entries;
  root["bindings"] = t.bindings;
  root["approximate"] = t.approximate;
  root["functions"] = ordered_json::array();
  for (const auto& [name, fc] : trace::callSites(t)) {
    auto scope = t.summaryOf(name);
    ordered_json j;
    j["name"] = name;
    j["file"] = scope ? t.scopes[*scope].loc.file : "";
    j["line"] = scope ? t.scopes[*scope].loc.line : 0;
    j["entry"] = fc.entry;
    j["contexts"] = fc.contexts;
    j["call_sites"] = ordered_json::array();
    for (const auto& site : fc.sites)
      j["call_sites"].push_back(ordered_json{{"caller", site.caller}, {"file", site.loc.file}, {"line", site.loc.line},
                                             {"column", site.loc.column}, {"recursive", site.recursive}});
    root["functions"].push_back(std::move(j));
  }
  root["containers"] = ordered_json::array();
  for (const auto& c : t.containers) {
    ordered_json j;
    j["name"] = c.name;
    j["kind"] = std::string(ir::toString(c.kind));
    j["element_type"] = c.elementType;
    j["element_bytes"] = c.elementBytes;
    j["size_bytes"] = sym::print(c.sizeBytes);
    j["file"] = c.loc.file;
    j["line"] = c.loc.line;
    j["column"] = c.loc.column;
    j["fields"] = ordered_json::array();
    for (const auto& f : c.fields) j["fields"].push_back(ordered_json{{"name", f.name}, {"offset", f.offset}, {"bytes", f.bytes}, {"type", f.type}});
    root["containers"].push_back(std::move(j));
  }
  root["accesses"] = ordered_json::array();
  for (const auto& e : t.events) {
    if (e.kind != trace::EventKind::Access) continue;
    const auto& c = e.classification;
    ordered_json j;
    j["function"] = t.functionOf(e.scope);
    j["file"] = e.loc.file;
    j["line"] = e.loc.line;
    j["column"] = e.loc.column;
    j["name"] = e.name;
    j["text"] = e.text;
    j["container"] = t.containers.at(e.container).name;
    j["field"] = e.field.empty() ? ordered_json(nullptr) : ordered_json(e.field);
    j["mode"] = std::string(ir::toString(e.mode));
    j["bytes"] = e.bytes;
    j["offset"] = sym::print(e.offset);
    j["class"] = std::string(trace::toString(c.kind));
    j["stride_bytes"] = c.strideBytes ? ordered_json(sym::print(*c.strideBytes)) : ordered_json(nullptr);
    j["stride_iterator"] = c.strideIterator.empty() ? ordered_json(nullptr) : ordered_json(c.strideIterator);
    j["indirect_via"] = c.indirectVia;
    j["invariant_in_innermost_loop"] = c.invariantInInnermostLoop;
    j["approximate"] = c.approximate;
    j["loop_header"] = e.loopHeader;
    j["stack"] = t.stackLabels(e.scope);
    root["accesses"].push_back(std::move(j));
  }
  Histograms h = histograms(t);
  root["histograms"]["program"] = histogramJson(h.program);
  root["histograms"]["by_container"] = ordered_json::object();
  for (const auto& [name, hist] : h.byContainer) root["histograms"]["by_container"][name] = histogramJson(hist);
  root["histograms"]["by_function"] = ordered_json::object();
  for (const auto& [name, hist] : h.byFunction) root["histograms"]["by_function"][name] = histogramJson(hist);
  Coverage cov = coverage(t);
  root["coverage"] = coverageJson(cov.program);
  root["coverage"]["by_function"] = ordered_json::object();
  for (const auto& [name, counts] : cov.byFunction) root["coverage"]["by_function"][name] = coverageJson(counts);
  root["diagnostics"] = ordered_json::array();
  for (const auto& d : t.diagnostics)
    root["diagnostics"].push_back(ordered_json{{"severity", std::string(ir::toString(d.severity))}, {"file", d.loc.file},
                                               {"line", d.loc.line}, {"column", d.loc.column}, {"message", d.message}});
  // Source text need not be UTF-8 (a Latin-1 string literal in an access): bytes that are not
  // become U+FFFD instead of failing the whole report.
  if (counts) root["counts"] = countsJson(*counts);
  return root.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace cats::report
