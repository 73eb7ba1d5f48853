#include "report_command.hpp"

#include "cache_options.hpp"
#include "deps_command.hpp"
#include "review_findings.hpp"
#include "reports/html.hpp"
#include "scale_command.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

namespace cats::driver {

CLI::App* addReportCommand(CLI::App& app, ReportArgs& args) {
  CLI::App* cmd = app.add_subcommand("report", "One self-contained HTML file: cache view, memory timeline, access statistics, "
                                               "control flow with dependences, source heat map and scaling curves");
  addSimulationOptions(*cmd, args.simulation);
  cmd->add_option("--sweep", args.sweep, "Scaling curves: sweep NAME=LO..HI[:xF|:+S] (the -D value of NAME is the simulated point)");
  cmd->add_option("--points", args.points, "Points of the sweep (default 10; not with a step)");
  cmd->add_option("-o,--output", args.output, "The HTML file to write")->capture_default_str();
  cmd->add_option("--max-events", args.maxEvents, "Trace events the memory timeline draws at most (larger traces are cut there, and the page says so)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("!--no-review", args.review, "Leave out the design-review section (review's fixes are not simulated)");
  return cmd;
}

namespace {

/* The name a -D item binds ("N" of "N=100" or "N"). */
std::string defineName(const std::string& item) { return item.substr(0, item.find('=')); }

/* The scale sweep of --sweep: the same sources and options, the swept -D item in place of the
   simulated point's. */
std::optional<sim::ScaleSeries> sweep(const ReportArgs& args, int& exitCode) {
  ScaleArgs scale;
  scale.sources = args.simulation.sources;
  std::string swept = defineName(*args.sweep);
  std::erase_if(scale.sources.defines, [&](const std::string& d) { return defineName(d) == swept; });
  scale.sources.defines.push_back(*args.sweep);
  scale.sources.quiet = true;
  scale.cache = args.simulation.cache;
  scale.compiler = args.simulation.compiler;
  scale.points = args.points;
  scale.metrics = {"accesses", "footprint", "misses_D1", "misses_LL"};
  SweepOutcome outcome = sweepScale(scale);
  exitCode = outcome.exitCode;
  return std::move(outcome.series);
}

std::vector<report::HtmlSource> readSources(const std::vector<std::string>& files) {
  std::vector<report::HtmlSource> sources;
  for (const std::string& file : files) {
    std::ifstream in(file);
    if (!in) continue;  // the heat map leaves out what cannot be read again
    std::ostringstream text;
    text << in.rdbuf();
    sources.push_back({file, text.str()});
  }
  return sources;
}

std::string commandLine(const ReportArgs& args) {
  std::string out = "cats-static report";
  for (const std::string& p : args.simulation.sources.paths) out += " " + p;
  for (const std::string& d : args.simulation.sources.defines) out += " -D " + d;
  if (args.sweep) out += " --sweep " + *args.sweep;
  return out;
}

/* The design review of "run" (docs/review.md) with the hierarchy "config" but none of the page's
   statistics (a variant is compared by its misses only); none when a variant cannot be simulated. */
std::optional<std::vector<report::Finding>> reviewOf(const SourceArgs& sources, const SimulationRun& run, const DependenceAnalysis& analysis,
                                                     const cache::HierarchyConfig& config) {
  cache::HierarchyConfig plain = config;
  plain.classifyMisses = plain.countSetMisses = plain.trackFillers = false;
  const std::vector<cache::HierarchyConfig> configs{plain};
  const std::optional<SizeModel> sizes = sizeModelOf(sources, *analysis.contexts, plain, run.concretize.bindings);
  const ReviewInput input{.run = run, .modelContexts = *analysis.contexts, .deps = analysis.dependences, .configs = configs,
                          .sizes = sizes ? &*sizes : nullptr};
  try {
    return reviewFindings(input);
  } catch (const std::exception& e) {  // sim::BindingError, sim::OptionError: the page goes on without the section
    std::cerr << "cats-static: warning: the design review was left out: " << e.what() << "\n";
    return std::nullopt;
  }
}

}  // namespace

int runReport(const ReportArgs& args) {
  // The page always shows misses per set, cross-context reuse and traffic (the plain engine: slower than simulate's default).
  CacheArgs cache = args.simulation.cache;
  cache.setHistogram = cache.reuseMatrix = cache.traffic = true;
  auto hierarchy = hierarchyFrom(cache);
  if (auto* message = std::get_if<std::string>(&hierarchy)) {
    std::cerr << "cats-static: error: " << *message << "\n";
    return 2;
  }
  const std::vector<cache::HierarchyConfig> configs{std::get<cache::HierarchyConfig>(hierarchy)};
  SimulationRun run = simulateSources(args.simulation, configs);
  if (run.results.empty()) return run.exitCode;
  std::optional<sim::ScaleSeries> series;
  if (args.sweep) {
    int code = 0;
    series = sweep(args, code);
    if (!series) return code ? code : 1;
  }
  DependenceAnalysis analysis = analyseDependences(args.simulation.sources, true);
  const trace::ProgramDependences& deps = analysis.dependences;
  std::optional<std::vector<report::Finding>> findings;
  if (args.review && analysis.contexts) findings = reviewOf(args.simulation.sources, run, analysis, configs.front());
  report::SimulationObservations observations =
      report::observationsOf({run.contexts, run.results.front(), configs.front(), run.concretize.model, &run.plan, false, true});
  report::HtmlReportInput input{*run.summaries, run.contexts, run.program, run.results.front(), configs.front(), &run.plan, &deps,
                                series ? &*series : nullptr, &observations, readSources(run.contexts.files), run.concretize.bindings, commandLine(args), args.maxEvents};
  if (findings) input.review = &*findings;
  report::HtmlReport page = report::htmlReport(input);
  for (const std::string& warning : page.warnings) std::cerr << "cats-static: warning: " << warning << "\n";
  int rc = emit(page.html, args.output);
  if (rc) return rc;
  std::cerr << "cats-static: wrote " << args.output << "\n";
  if (!page.warnings.empty()) {  // the contract: a trace too large for the page is capped, said, and not a success
    std::cerr << "cats-static: error: the program is too large for one page; the report is complete up to the caps above "
                 "(raise --max-events to draw more)\n";
    return 1;
  }
  return run.exitCode;
}

}  // namespace cats::driver
