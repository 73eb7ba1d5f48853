// The page around the sections: one HTML file with its style and script inline, so that it
// opens offline and can be mailed or archived as it is.
#include "parts.hpp"

#include <fmt/format.h>

namespace cats::report {

namespace {

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#222;background:#fafafa}
header{background:#263238;color:#fff;padding:12px 24px}header h1{margin:0;font-size:20px}header code{color:#cfd8dc}
nav{position:sticky;top:0;background:#eceff1;padding:6px 24px;border-bottom:1px solid #cfd8dc;z-index:1}
nav a{margin-right:16px;color:#263238;text-decoration:none;font-weight:600}
main{padding:0 24px 40px}section{background:#fff;border:1px solid #e0e0e0;border-radius:6px;margin:18px 0;padding:8px 16px;overflow-x:auto}
h2{font-size:18px;border-bottom:1px solid #eee;padding-bottom:4px}h3{font-size:15px;margin-top:18px}
table{border-collapse:collapse;margin:6px 0}th,td{padding:2px 8px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
th{background:#f5f5f5}.num{text-align:right;font-variant-numeric:tabular-nums}table.sortable th{cursor:pointer}
table.sortable th.sorted-asc::after{content:" \25B2"}table.sortable th.sorted-desc::after{content:" \25BC"}
table.source td{border:0;padding:0 8px}table.source code{white-space:pre}
.warning{color:#b71c1c;font-weight:600}.loc{color:#607d8b;font-size:12px}.count{color:#455a64;font-size:12px}
.c0{fill:#90a4ae;background:#90a4ae}.c1{fill:#43a047;background:#43a047}.c2{fill:#fb8c00;background:#fb8c00}.c3{fill:#e53935;background:#e53935}
.cls{color:#fff;padding:0 4px;border-radius:3px;font-size:12px}ul.events{margin:2px 0 6px;font-size:12px}
.m0{fill:#78909c}.m1{fill:#fb8c00}.m2{fill:#8e24aa}.miss{fill:#e53935}.inbar{fill:#fff;font-size:12px}
svg text{font:11px system-ui,sans-serif}.tick{fill:#455a64}.grid{stroke:#e0e0e0}.axis{stroke:#455a64}
svg.timeline line.w{stroke:#000;stroke-width:0.6}svg.timeline line.r{stroke:#000;stroke-width:0.6;stroke-dasharray:2,2}
svg .loop rect{fill:#e57373}svg .cond rect{fill:#64b5f6}svg .para rect{fill:#81c784}svg .func rect{fill:#b0bec5}
ul.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:4px 16px;font-size:12px}
.swatch{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}
details.node{margin:2px 0 2px 18px;padding-left:6px;border-left:3px solid #b0bec5}details.node.loop{border-color:#e57373}
details.node.cond{border-color:#64b5f6}details.node.para{border-color:#81c784}
table.review td.num{white-space:nowrap}table.matrix td.diagonal{font-weight:700}h4{font-size:13px;margin:10px 0 2px;font-weight:600}
.verdict{margin-left:18px;font-size:12px}.verdict.ok{color:#2e7d32}.verdict.dep{color:#c62828}.verdict.nest{color:#6a1b9a}li.ok{color:#2e7d32}li.dep{color:#c62828}
)";

// Sorts a table by the clicked column: numbers by their data-v, text otherwise. The last line
// tells a test harness that the script ran to its end.
constexpr const char* kScript = R"(
"use strict";
function sortTable(th) {
  const table = th.closest("table"), body = table.tBodies[0], col = th.cellIndex;
  const asc = !th.classList.contains("sorted-asc");
  for (const h of table.tHead.rows[0].cells) h.classList.remove("sorted-asc", "sorted-desc");
  th.classList.add(asc ? "sorted-asc" : "sorted-desc");
  const key = row => { const c = row.cells[col]; const v = c ? (c.dataset.v ?? c.textContent) : ""; const n = Number(v); return v !== "" && !isNaN(n) ? n : v; };
  const rows = Array.from(body.rows).sort((a, b) => { const x = key(a), y = key(b);
    const r = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y)); return asc ? r : -r; });
  for (const r of rows) body.appendChild(r);
}
for (const th of document.querySelectorAll("table.sortable th")) th.addEventListener("click", () => sortTable(th));
document.body.dataset.ready = "yes";
console.log("cats-static report ready");
)";

}  // namespace

HtmlReport htmlReport(const HtmlReportInput& in) {
  HtmlReport report;
  std::string sections = html::summarySection(in);
  if (in.review) sections += html::reviewSection(*in.review);
  sections += html::cacheSection(in);
  sections += html::timelineSection(in, report.warnings);
  sections += html::statisticsSection(in);
  sections += html::controlFlowSection(in);
  sections += html::sourceSection(in, report.warnings);
  if (in.scaling) sections += html::scalingSection(*in.scaling);
  std::string title = in.contexts.files.empty() ? std::string("cats-static report") : "cats-static report: " + in.contexts.files.front();
  std::string& out = report.html;
  out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  out += fmt::format("<meta name=\"generator\" content=\"cats-static report version {}\">\n<title>{}</title>\n<style>{}</style></head>\n<body>\n",
                     kHtmlReportVersion, html::escape(title), kStyle);
  out += fmt::format("<header><h1>{}</h1><code>{}</code></header>\n", html::escape(title), html::escape(in.command));
  out += "<nav><a href=\"#summary\">Summary</a>";
  if (in.review) out += "<a href=\"#review\">Design review</a>";
  out += "<a href=\"#cache\">Cache</a><a href=\"#timeline\">Memory timeline</a><a href=\"#statistics\">Access statistics</a>"
         "<a href=\"#control-flow\">Control flow</a><a href=\"#source\">Source</a>";
  if (in.scaling) out += "<a href=\"#scaling\">Scaling</a>";
  out += "</nav>\n<main>\n" + sections + "</main>\n<script>" + kScript + "</script>\n</body></html>\n";
  return report;
}

namespace html {

std::string summarySection(const HtmlReportInput& in) {
  std::string out = "<section id=\"summary\"><h2>Summary</h2>\n<ul>\n";
  std::string files;
  for (const std::string& f : in.contexts.files) files += (files.empty() ? "" : ", ") + f;
  out += "<li>Sources: " + escape(files) + "</li>\n";
  std::string bound;
  for (const auto& [name, value] : in.bindings) bound += fmt::format("{}{} = {}", bound.empty() ? "" : ", ", name, value);
  out += "<li>Parameters: " + (bound.empty() ? std::string("none bound") : escape(bound)) + "</li>\n";
  std::string levels;
  for (const cache::LevelConfig& l : in.config.levels)
    levels += fmt::format("{}{} {} {}-way {} B lines", levels.empty() ? "" : "; ", l.name, bytes(static_cast<double>(l.sizeBytes)), l.associativity, l.lineBytes);
  out += "<li>Cache: " + escape(levels) + "</li>\n";
  const sim::SimulationResult& r = in.result;
  out += fmt::format("<li>{} accesses; {} misses at {}, {} at {}</li>\n", number(r.accesses), number(r.totals.front().misses()), escape(r.levels.front()),
                     number(r.totals.back().misses()), escape(r.levels.back()));
  out += "</ul>\n";
  if (r.approximate || in.contexts.approximate)
    out += "<p class=\"warning\">The result is approximate: some accesses, trip counts or branches were modelled, not known (notes below).</p>\n";
  if (!r.notes.empty()) {
    out += "<details><summary>Notes (" + std::to_string(r.notes.size()) + ")</summary><ul>\n";
    for (const std::string& note : r.notes) out += "<li>" + escape(note) + "</li>\n";
    out += "</ul></details>\n";
  }
  return out + "</section>\n";
}

}  // namespace html

}  // namespace cats::report
