#include "scale_command.hpp"

#include "cache_options.hpp"
#include "frontend/frontend.hpp"
#include "gnuplot.hpp"
#include "progress_line.hpp"
#include "reports/scale.hpp"
#include "sim/scale.hpp"
#include "sweep.hpp"
#include "tracer/expand.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>

namespace cats::driver {

CLI::App* addScaleCommand(CLI::App& app, ScaleArgs& args) {
  CLI::App* cmd = app.add_subcommand("scale", "Sweep one parameter: accesses, bytes, footprint and misses per point, predicted and simulated");
  addSourceOptions(*cmd, args.sources);
  addCacheOptions(*cmd, args.cache);
  cmd->add_option("--points", args.points, "Number of points spread evenly over the range (default 10; not with a step)");
  cmd->add_option("--metric", args.metrics, "accesses, bytes, footprint, misses_D1, misses_L2 or misses_LL (repeatable; default accesses)")
      ->check(CLI::IsMember({"accesses", "bytes", "footprint", "misses_D1", "misses_L2", "misses_LL"}))
      ->allow_extra_args(false);
  cmd->add_flag("--simulate", args.simulate, "Also simulate every point and show both values side by side");
  addCompilerOptions(*cmd, args.compiler);
  cmd->add_option("--format", args.format, "Report format")->check(CLI::IsMember({"text", "json", "csv"}))->capture_default_str();
  cmd->add_option("-o,--output", args.output, "Write the report to FILE instead of standard output");
  cmd->add_option("--plot", args.plot, "Draw the curves into FILE.svg or FILE.png with gnuplot");
  cmd->add_option("--isl-operations", args.islOperations, "isl's operation budget per count; a count that needs more has no formula "
                  "and is counted per point")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  return cmd;
}

namespace {

int usageError(const std::string& message) {
  std::cerr << "cats-static: error: " << message << "\n";
  return 2;
}

/* Why "path" cannot take the plot, or nullopt: it needs .svg or .png and a writable place. */
std::optional<std::string> plotPathProblem(const std::string& path) {
  auto ext = std::filesystem::path(path).extension().string();
  if (ext != ".svg" && ext != ".png") return "--plot " + path + ": the file must end in .svg or .png";
  bool existed = std::filesystem::exists(path);
  std::ofstream probe(path, std::ios::app);
  if (!probe) return "--plot " + path + ": cannot write this file";
  probe.close();
  if (!existed) std::filesystem::remove(path);
  return std::nullopt;
}

/* The parameter bindings of the point "value": the swept one and those derived from it. */
std::map<std::string, std::int64_t> pointBindings(const SweepPlan& plan, std::int64_t value) {
  std::map<std::string, std::int64_t> bound{{plan.name, value}};
  for (const auto& [name, expression] : plan.derived) bound[name] = *evaluateDerived(expression, plan.name, value);
  return bound;
}

/* Whether any swept or derived name is a macro the sources define or test: the preprocessor
   then turns it into a number before the analysis, so every point reads the sources again. */
bool sweepsMacro(const ScaleArgs& args, const SweepPlan& plan) {
  if (args.sources.paths.empty()) return false;
  std::vector<std::string> names{plan.name};
  for (const auto& [name, _] : plan.derived) names.push_back(name);
  try {
    return !frontend::namesUsedAsMacros(names, frontend::collectSources(args.sources.paths), args.sources.includeDirs).empty();
  } catch (const std::exception&) {
    return false;  // a bad path is reported by the frontend itself
  }
}

/* The index of group (kind, name) in "groups", appended (with empty cells at earlier points) when new. */
std::size_t groupIndex(sim::ScaleSeries& series, const sim::ScaleGroup& group) {
  for (std::size_t g = 0; g < series.groups.size(); ++g)
    if (series.groups[g].kind == group.kind && series.groups[g].name == group.name) return g;
  series.groups.push_back(group);
  for (auto& p : series.points) p.cells.emplace_back(series.metrics.size());
  return series.groups.size() - 1;
}

/* Adds one point's cells (for "groups" of its trace) to "series" under the series' groups. */
void addPoint(sim::ScaleSeries& series, std::int64_t value, std::map<std::string, std::int64_t> bound, const std::vector<sim::ScaleGroup>& groups,
              std::vector<std::vector<sim::ScaleCell>> cells) {
  sim::ScalePoint point;
  point.value = value;
  point.bound = std::move(bound);
  std::vector<std::size_t> index;
  index.reserve(groups.size());
  for (const auto& g : groups) index.push_back(groupIndex(series, g));
  point.cells.assign(series.groups.size(), std::vector<sim::ScaleCell>(series.metrics.size()));
  for (std::size_t g = 0; g < groups.size(); ++g) point.cells[index[g]] = std::move(cells[g]);
  for (auto& cellsOfGroup : point.cells)
    for (auto& c : cellsOfGroup)
      if (!c.predicted && !c.simulated && c.note.empty()) c.note = "the group has no access at this point";
  series.points.push_back(std::move(point));
}

struct Sweeper {
  const ScaleArgs& args;
  const SweepPlan& plan;
  sim::PointSetup setup;
  sim::ScaleSeries series;
  ProgressLine progress;
  int exitCode = 0;

  /* The sources traced with "extra" -D items (quiet after the first read); nullopt on error. */
  std::optional<trace::Trace> contextsOf(const std::vector<std::string>& extra, bool quiet) {
    SourceArgs sources = args.sources;
    sources.defines = plan.otherDefines;
    sources.defines.insert(sources.defines.end(), extra.begin(), extra.end());
    sources.quiet = quiet;
    progress.clear();
    TraceOutcome traced = traceSources(sources);
    if (!traced.trace) {
      exitCode = traced.exitCode;
      return std::nullopt;
    }
    if (!quiet) exitCode = traced.exitCode;
    baseBindings = traced.bindings;
    trace::ExpansionLimits limits;
    limits.maxEvents = kSimulatedContextEvents;  // past it the expansion warns and the points are approximate
    trace::Trace contexts = trace::expandContexts(*traced.trace, {}, limits);
    if (!quiet)
      for (std::size_t d = traced.trace->diagnostics.size(); d < contexts.diagnostics.size(); ++d) std::cerr << contexts.diagnostics[d].str() << "\n";
    return contexts;
  }

  std::map<std::string, std::int64_t> baseBindings;

  /* Measures point "value" of "contexts"; false after printing a binding error. */
  bool measure(const trace::Trace& contexts, const std::vector<sim::ScaleGroup>& groups, const sim::ScaleFormulas& formulas, std::int64_t value,
               std::size_t index) {
    progress.show(fmt::format("[{}/{}] {}={}", index + 1, plan.values.size(), plan.name, value));
    auto bound = pointBindings(plan, value);
    setup.options.bindings = baseBindings;
    for (const auto& [name, v] : bound) setup.options.bindings[name] = v;
    try {
      addPoint(series, value, bound, groups, sim::measurePoint(contexts, groups, formulas, setup));
    } catch (const sim::BindingError& e) {
      progress.clear();
      std::cerr << "cats-static: error: at " << plan.name << "=" << value << ": " << e.what() << "\n";
      return false;
    }
    return true;
  }

  /* Parameters stay symbols: one trace, formulas derived once, each point bound. */
  int sweepParameters() {
    auto contexts = contextsOf({}, false);
    if (!contexts) return exitCode;
    if (!sim::usesParameter(*contexts, plan.name))
      return usageError(plan.name + " is not a parameter of the analysed code (no free symbol or macro of that name reaches an access, a loop or a size)");
    for (const auto& [name, _] : plan.derived)
      if (!sim::usesParameter(*contexts, name)) std::cerr << "cats-static: warning: -D " << name << "=...: no free symbol " << name << " in the analysed code\n";
    auto groups = sim::scaleGroups(*contexts);
    series.groups = groups;
    sim::ScaleFormulas formulas = sim::ScaleFormulas::derive(*contexts, groups, setup.metrics, setup.config, sym::CountLimits{args.islOperations});
    for (std::size_t i = 0; i < plan.values.size(); ++i)
      if (!measure(*contexts, groups, formulas, plan.values[i], i)) return 1;
    auto middle = pointBindings(plan, plan.values[plan.values.size() / 2]);
    series.breakpoints = formulas.breakpoints(plan.name, plan.lo, plan.hi, middle);
    series.resonances = formulas.resonances(plan.name, plan.lo, plan.hi, middle);
    return 0;
  }

  /* A macro sweep: the sources are read (quietly after the first) and traced at every point. */
  int sweepMacros() {
    series.notes.push_back(plan.name + " is a macro of the sources: they are read again at every point (the preprocessor makes it a number)");
    for (std::size_t i = 0; i < plan.values.size(); ++i) {
      std::vector<std::string> extra;
      for (const auto& [name, v] : pointBindings(plan, plan.values[i])) extra.push_back(name + "=" + std::to_string(v));
      progress.show(fmt::format("[{}/{}] {}={} (reading the sources)", i + 1, plan.values.size(), plan.name, plan.values[i]));
      auto contexts = contextsOf(extra, i > 0);
      if (!contexts) return exitCode ? exitCode : 1;
      auto groups = sim::scaleGroups(*contexts);
      if (i == 0) series.groups = groups;
      sim::ScaleFormulas formulas = sim::ScaleFormulas::derive(*contexts, groups, setup.metrics, setup.config, sym::CountLimits{args.islOperations});
      if (!measure(*contexts, groups, formulas, plan.values[i], i)) return 1;
    }
    return 0;
  }
};

}  // namespace

SweepOutcome sweepScale(const ScaleArgs& args) {
  auto failed = [](int code) { return SweepOutcome{std::nullopt, code}; };
  auto hierarchy = hierarchyFrom(args.cache);
  if (auto* message = std::get_if<std::string>(&hierarchy)) return failed(usageError(*message));
  auto planned = planSweep(args.sources.defines, args.points);
  if (auto* message = std::get_if<std::string>(&planned)) return failed(usageError(*message));
  const SweepPlan& plan = std::get<SweepPlan>(planned);

  Sweeper sweeper{args, plan, {}, {}, {}, 0, {}};
  sim::PointSetup& setup = sweeper.setup;
  setup.config = std::get<cache::HierarchyConfig>(hierarchy);
  for (const auto& text : args.metrics.empty() ? std::vector<std::string>{"accesses"} : args.metrics) {
    sim::ScaleMetric metric = *sim::parseScaleMetric(text);
    std::string problem;
    if (!sim::missLevel(metric, setup.config, &problem) && !problem.empty()) return failed(usageError("--metric " + text + ": " + problem));
    if (std::find(setup.metrics.begin(), setup.metrics.end(), metric) == setup.metrics.end()) setup.metrics.push_back(metric);
  }
  if (args.compiler.compileCmd)  // the compiler's reports are per -D point; scale does not run it (yet)
    return failed(usageError("--compile-cmd is not supported by scale (the compiler's reports would differ per point); use --compiler and -O"));
  auto target = compilerTargetFrom(args.compiler);
  if (auto* message = std::get_if<std::string>(&target)) return failed(usageError(*message));
  setup.target = std::get<sim::CompilerTarget>(target);
  setup.options.model = setup.target.optLevel == 0 ? sim::RegisterModel::O0 : sim::RegisterModel::O2;
  setup.stream.model = setup.options.model;
  setup.stream.seed = args.cache.seed;
  setup.stream.binding = bindingFrom(args.compiler, setup.target.compiler);
  setup.simulate = args.simulate;
  sim::ScaleSeries& series = sweeper.series;
  series.parameter = plan.name;
  series.metrics = setup.metrics;
  series.simulated = args.simulate;
  series.model = setup.target.label();

  int rc = sweepsMacro(args, plan) ? sweeper.sweepMacros() : sweeper.sweepParameters();
  sweeper.progress.clear();
  if (rc != 0 && rc != sweeper.exitCode) return failed(rc);
  if (series.points.empty()) return failed(rc ? rc : 1);
  return SweepOutcome{std::move(series), sweeper.exitCode};
}

int runScale(const ScaleArgs& args) {
  if (args.plot)
    if (auto problem = plotPathProblem(*args.plot)) return usageError(*problem);
  SweepOutcome swept = sweepScale(args);
  if (!swept.series) return swept.exitCode;
  const sim::ScaleSeries& series = *swept.series;

  std::string text = args.format == "json" ? report::scaleJson(series) : args.format == "csv" ? report::scaleCsv(series) : report::scaleText(series);
  int emitted = emit(text, args.output);
  if (emitted) return emitted;
  if (args.plot) {
    std::string dir = makeTempDir();
    if (dir.empty()) {
      std::cerr << "cats-static: error: --plot: cannot create a temporary directory\n";
      return 1;
    }
    auto input = report::scaleGnuplot(series, dir + "/scale.dat", *args.plot);
    auto problem = runGnuplot(input.script, input.data, dir + "/scale.dat", dir + "/scale.gp");
    std::filesystem::remove_all(dir);
    if (problem) {
      std::cerr << "cats-static: error: --plot " << *args.plot << ": " << *problem << "\n";
      return 1;
    }
  }
  return swept.exitCode;
}

}  // namespace cats::driver
