// The self-contained HTML report of `cats-static report` (docs/html-report.md): one file that
// opens offline, with the C.A.T.S. views (memory timeline, access statistics, control flow with
// dependences), the source as a miss heat map, the cache view and scaling curves. Charts are
// inline SVG drawn here (docs/decisions.md, "HTML report: server-side SVG"); a few lines of
// script sort tables.
#pragma once

#include "cache/config.hpp"
#include "reports/review.hpp"
#include "reports/simulation_observations.hpp"
#include "sim/compiler.hpp"
#include "sim/program.hpp"
#include "sim/scale.hpp"
#include "sim/simulate.hpp"
#include "tracer/dependences.hpp"
#include "tracer/trace.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cats::report {

inline constexpr int kHtmlReportVersion = 1;

struct HtmlSource {
  std::string file;  // as the trace names it
  std::string text;
};

struct HtmlReportInput {
  const trace::Trace& summaries;  // as traced: the access classes per function and container
  const trace::Trace& contexts;   // expanded: what the result's event indices name
  const sim::Program& program;    // concretised: sizes at the bound parameters
  const sim::SimulationResult& result;
  const cache::HierarchyConfig& config;
  const sim::CompilationPlan* plan = nullptr;
  const trace::ProgramDependences* dependences = nullptr;  // none: the control-flow view has no edges
  const sim::ScaleSeries* scaling = nullptr;               // none: no scaling section
  const SimulationObservations* observations = nullptr;    // per-set misses, cross-context reuse, traffic
  std::vector<HtmlSource> sources;
  std::map<std::string, std::int64_t> bindings;
  std::string command;                      // the command line, shown in the header
  std::size_t maxTimelineEvents = 20000;   // the timeline draws at most this many trace events
  std::size_t maxSourceLines = 20000;       // per file, lines of source shown in the heat map
  const std::vector<Finding>* review = nullptr;  // none: no design-review section
};

struct HtmlReport {
  std::string html;
  std::vector<std::string> warnings;  // what was capped; also said in the page
};

HtmlReport htmlReport(const HtmlReportInput& in);

}  // namespace cats::report
