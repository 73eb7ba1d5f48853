#include "simulate_command.hpp"

#include "cache/din.hpp"
#include "cache_options.hpp"
#include "compile_command.hpp"
#include "reports/cats_trace.hpp"
#include "reports/simulation.hpp"
#include "sim/concretize.hpp"
#include "sim/event_trace.hpp"
#include "sim/simulate.hpp"
#include "tracer/expand.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <thread>

namespace cats::driver {

void addSimulationOptions(CLI::App& cmd, SimulateArgs& args) {
  addSourceOptions(cmd, args.sources);
  addCacheOptions(cmd, args.cache);
  addCompilerOptions(cmd, args.compiler);
  cmd.add_option("--branch", args.branch, "Undecidable branches: both, then, else or prob:P")->capture_default_str();
  cmd.add_option("--unknown-trips", args.unknownTrips, "Iterations of loops whose trip count depends on data")->capture_default_str();
  cmd.add_option("--trips", args.trips,
                 "Iterations of the data-dependent loop at LOC (file:line or function:line), LOC=EXPR with EXPR an integer or an "
                 "expression of the -D parameters; overrides --unknown-trips there (repeatable)")
      ->allow_extra_args(false);
  cmd.add_option("--place", args.place, "Put container NAME at address ADDR (NAME=ADDR, hex with 0x)")->allow_extra_args(false);
  cmd.add_option("--align", args.align, "Align container NAME to BYTES (NAME=BYTES)")->allow_extra_args(false);
  cmd.add_option("--max-context-events", args.maxContextEvents,
                 "Expand the program's calling contexts up to N events, then simulate those only and mark the result approximate (0: no limit)")
      ->capture_default_str();
  cmd.add_flag("--no-stack-slots", args.noStackSlots,
                "At -O0, leave out the loads and stores of local scalars, pointers and parameters in their stack slots");
}

CLI::App* addSimulateCommand(CLI::App& app, SimulateArgs& args) {
  CLI::App* cmd = app.add_subcommand("simulate", "Simulate the cache hierarchy on the program's predicted address stream");
  addSimulationOptions(*cmd, args);
  addStatisticsOptions(*cmd, args.cache);
  cmd->add_option("--by", args.by, "Table: container, field, function, compiled-function (inlined code in its caller), loop, line or context")
      ->check(CLI::IsMember({"container", "field", "function", "compiled-function", "loop", "line", "context"}))
      ->capture_default_str();
  cmd->add_option("--rows", args.rows, "Rows of the text report's table, busiest first; a last line sums the rest (0: every row)")
      ->capture_default_str();
  cmd->add_option("--format", args.format,
                  "Report format: text, json, cachegrind (a cachegrind.out profile for cg_annotate and KCachegrind) or cats (the "
                  "C.A.T.S. runtime trace of the predicted events, for cats-viz)")
      ->check(CLI::IsMember({"text", "json", "cachegrind", "cats"}))
      ->capture_default_str();
  cmd->add_option("--max-events", args.maxEvents, "With --format cats: write at most N events (then the file says it is truncated)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--threads", args.threads,
                  "Simulate on N threads, each taking a share of the cache sets over the whole stream: the same result, sooner on a "
                  "machine with N cores (0: one per core, at most two; a hierarchy whose sets do not split, or a loop of more than ten "
                  "accesses that may cross lines, runs on one)")
      ->capture_default_str();
  cmd->add_option("-o,--output", args.output, "Write the report to FILE instead of standard output");
  cmd->add_option("--din", args.din, "Replay a Dinero IV din trace instead of analysing sources");
  cmd->add_flag("--explain-model", args.explainModel,
                "Also list what the compiler model assumed: per function, loop and call, with the reason and its source");
  return cmd;
}

namespace {

/* "NAME=NUMBER" (decimal or 0x hex) into "out"; false with a message on error. */
template <typename T>
bool parseAssignments(const std::vector<std::string>& items, const char* option, std::map<std::string, T>& out) {
  for (const auto& item : items) {
    auto eq = item.find('=');
    try {
      if (eq == std::string::npos || eq == 0) throw std::invalid_argument("no NAME=");
      std::size_t used = 0;
      std::string value = item.substr(eq + 1);
      out[item.substr(0, eq)] = static_cast<T>(std::stoull(value, &used, 0));
      if (used != value.size()) throw std::invalid_argument("trailing text");
    } catch (const std::exception&) {
      std::cerr << "cats-static: error: " << option << " needs NAME=NUMBER, got '" << item << "'\n";
      return false;
    }
  }
  return true;
}

int replayDin(const SimulateArgs& args, const cache::HierarchyConfig& config) {
  std::ifstream in(*args.din);
  if (!in) {
    std::cerr << "cats-static: error: cannot read '" << *args.din << "'\n";
    return 2;
  }
  cache::Hierarchy hierarchy(config);
  cache::DinReplay replay;
  try {
    replay = cache::replayDin(in, hierarchy);
  } catch (const cache::DinError& e) {
    std::cerr << *args.din << ":" << e.line() << ": error: " << e.what() << "\n";
    return 1;
  }
  std::string out = fmt::format("din replay of {}: {} reads, {} writes ({} instruction fetches skipped)\n", *args.din, replay.reads,
                                replay.writes, replay.instructionFetches);
  out += fmt::format("  {:<5} {:>13} {:>13} {:>12} {:>12} {:>11} {:>11}\n", "level", "reads", "writes", "read misses", "write misses",
                     "evictions", "write-backs");
  for (std::size_t k = 0; k < config.levels.size(); ++k) {
    const auto& s = hierarchy.stats()[k];
    out += fmt::format("  {:<5} {:>13} {:>13} {:>12} {:>12} {:>11} {:>11}\n", config.levels[k].name, s.reads, s.writes, s.readMisses,
                       s.writeMisses, s.evictions, s.writebacks);
  }
  return emit(out, args.output);
}

/* --compile-cmd run on "files" with the analysis's -I and -D; every problem a warning (the
   model decides what the compiler did not report). Nothing without --compile-cmd. */
std::optional<CompilerRun> askCompiler(const SimulateArgs& args, sim::CompilerKind kind, const std::vector<std::string>& files) {
  if (!args.compiler.compileCmd) return std::nullopt;
  std::vector<std::string> flags;
  for (const auto& dir : args.sources.includeDirs) flags.push_back("-I" + dir);
  for (const auto& define : args.sources.defines) flags.push_back("-D" + define);
  CompilerRun run = runCompilerReports(std::get<std::vector<std::string>>(splitCommand(*args.compiler.compileCmd)), kind, files, flags);
  for (const std::string& problem : run.problems) std::cerr << "cats-static: warning: --compile-cmd: " << problem << "; the model decides for it\n";
  return run;
}

/* The command as the cachegrind.out's `cmd:` line shows it: the sources and the bindings. */
std::string commandLine(const SimulateArgs& args) {
  std::string out = "cats-static simulate";
  for (const std::string& path : args.sources.paths) out += " " + path;
  if (args.sources.compileCommandsDir) out += " -p " + *args.sources.compileCommandsDir;
  for (const std::string& define : args.sources.defines) out += " -D " + define;
  for (const std::string& param : args.sources.params) out += " --param " + param;
  return out;
}

/* The report of one configuration, or of several side by side, in the format asked for. */
std::string reportText(const SimulateArgs& args, const trace::Trace& contexts, const std::vector<sim::SimulationResult>& results,
                   const std::vector<cache::HierarchyConfig>& configs, sim::RegisterModel model, const sim::CompilationPlan& plan) {
  const report::GroupBy by = *report::parseGroupBy(args.by);
  if (args.format == "cachegrind") {
    if (results.size() > 1)
      std::cerr << "cats-static: warning: a cachegrind.out holds one cache configuration; writing the first ("
                << report::configurationLabel(configs.front()) << ") of " << results.size() << "\n";
    report::SimulationReportInput input{contexts, results.front(), configs.front(), model, &plan, false};
    return report::cachegrindOut(input, commandLine(args));
  }
  if (results.size() == 1) {
    report::SimulationReportInput input{contexts, results.front(), configs.front(), model, &plan, args.explainModel, args.cache.traffic, args.rows};
    return args.format == "json" ? report::simulationJson(input) : report::simulationText(input, by);
  }
  report::ConfigurationsReportInput input{contexts, results, configs, model, &plan, args.explainModel, args.rows};
  return args.format == "json" ? report::simulationJson(input) : report::simulationText(input, by);
}

}  // namespace

int runSimulate(const SimulateArgs& args) {
  auto hierarchies = hierarchiesFrom(args.cache);
  if (auto* message = std::get_if<std::string>(&hierarchies)) {
    std::cerr << "cats-static: error: " << *message << "\n";
    return 2;
  }
  const std::vector<cache::HierarchyConfig>& configs = std::get<std::vector<cache::HierarchyConfig>>(hierarchies);
  const cache::HierarchyConfig& config = configs.front();
  if (args.din && configs.size() > 1) {
    std::cerr << "cats-static: error: --din replays one cache configuration; the options describe " << configs.size() << "\n";
    return 2;
  }
  const bool statistics = args.cache.setHistogram || args.cache.reuseMatrix || args.cache.traffic;
  if (statistics && (args.din || (args.format != "text" && args.format != "json"))) {
    std::cerr << "cats-static: error: --set-histogram, --reuse-matrix and --traffic are shown in the text and JSON reports of analysed "
                 "sources\n";
    return 2;
  }
  if (args.din && args.format != "text") {
    std::cerr << "cats-static: error: --din replays a trace into the cache and reports as text; --format " << args.format
              << " needs sources\n";
    return 2;
  }
  if (args.din) return replayDin(args, config);
  SimulationRun run = simulateSources(args, configs);
  if (run.results.empty()) return run.exitCode;
  std::string text;
  if (args.format == "cats") {
    sim::ConcreteTrace events = sim::concreteEvents(run.contexts, run.program, run.stream, args.maxEvents);
    if (events.truncated)
      std::cerr << "cats-static: warning: the C.A.T.S. trace stops after " << args.maxEvents << " events (" << events.accesses << " of "
                << run.results.front().accesses << " accesses); the file says \"truncated\": true. Raise --max-events or lower the sizes\n";
    text = report::catsTraceJson({run.contexts, events, run.results.front().accesses, args.maxEvents});
  } else {
    text = reportText(args, run.contexts, run.results, configs, run.concretize.model, run.plan);
  }
  int rc = emit(text, args.output);
  return rc ? rc : run.exitCode;
}

SimulationRun simulateSources(const SimulateArgs& args, const std::vector<cache::HierarchyConfig>& configs) {
  SimulationRun run;
  auto failed = [&run](int code) {
    run.exitCode = code;
    return std::move(run);
  };
  auto target = compilerTargetFrom(args.compiler);
  if (auto* message = std::get_if<std::string>(&target)) {
    std::cerr << "cats-static: error: " << *message << "\n";
    return failed(2);
  }
  sim::ConcretizeOptions options;
  options.model = std::get<sim::CompilerTarget>(target).optLevel == 0 ? sim::RegisterModel::O0 : sim::RegisterModel::O2;
  auto branch = sim::parseBranchPolicy(args.branch);
  if (!branch) {
    std::cerr << "cats-static: error: --branch must be both, then, else or prob:P with 0 <= P <= 1, got '" << args.branch << "'\n";
    return failed(2);
  }
  options.branches = *branch;
  options.unknownTrips = args.unknownTrips;
  for (const std::string& item : args.trips) {
    auto trips = sim::parseTripCount(item);
    if (!trips) {
      std::cerr << "cats-static: error: --trips needs LOC=EXPR with LOC file:line or function:line, got '" << item << "'\n";
      return failed(2);
    }
    options.trips.push_back(*trips);
  }
  if (!parseAssignments(args.place, "--place", options.place) || !parseAssignments(args.align, "--align", options.align)) return failed(2);
  SourceArgs sources = args.sources;
  sources.stackSlots = std::get<sim::CompilerTarget>(target).optLevel == 0 && !args.noStackSlots;
  sources.gccStackCode = std::get<sim::CompilerTarget>(target).compiler == sim::CompilerKind::Gcc;
  TraceOutcome traced = traceSources(sources);
  if (!traced.trace) return failed(traced.exitCode);
  run.exitCode = traced.exitCode;
  options.bindings = traced.bindings;
  // On a terminal each slow phase before the simulation says what it is doing (real programs spend
  // their time here: lua's lparser.c expands a million events).
  const bool terminal = isatty(STDERR_FILENO) != 0;
  auto phase = [terminal](const std::string& text) {
    if (terminal) std::cerr << "\r\033[K" << text << std::flush;
  };
  trace::ExpansionLimits limits;
  limits.maxEvents = args.maxContextEvents;
  phase("expanding calling contexts");
  if (terminal) limits.progress = [&](std::size_t n) { phase(fmt::format("expanding calling contexts: {} events", n)); };
  run.contexts = trace::expandContexts(*traced.trace, {}, limits);
  phase("");
  const trace::Trace& contexts = run.contexts;
  for (std::size_t d = traced.trace->diagnostics.size(); d < contexts.diagnostics.size(); ++d) std::cerr << contexts.diagnostics[d].str() << "\n";
  std::optional<CompilerRun> asked = askCompiler(args, std::get<sim::CompilerTarget>(target).compiler, traced.trace->files);
  phase(fmt::format("modelling the compiler on {} events", contexts.events.size()));
  run.plan = sim::planCompilation(contexts, std::get<sim::CompilerTarget>(target), asked ? &asked->reported : nullptr);
  phase("");
  sim::CompilationPlan& plan = run.plan;
  if (asked)
    for (const std::string& problem : asked->problems) plan.notes.push_back("--compile-cmd: " + problem + "; the model decides for it");
  options.plan = &plan;
  phase("binding the parameters");
  try {
    run.program = sim::concretize(contexts, options);
    phase("");
  } catch (const sim::BindingError& e) {
    phase("");
    std::cerr << "cats-static: error: " << e.what() << "\n";
    return failed(1);
  } catch (const sim::OptionError& e) {
    phase("");
    std::cerr << "cats-static: error: " << e.what() << "\n";
    return failed(2);
  }
  const sim::Program& program = run.program;
  run.summaries = std::move(traced.trace);
  sim::StreamOptions stream;
  stream.seed = args.cache.seed;
  stream.branches = options.branches;
  stream.model = options.model;
  stream.binding = bindingFrom(args.compiler, std::get<sim::CompilerTarget>(target).compiler);
  sim::Progress progress;
  if (terminal) progress = [](std::uint64_t n) { std::cerr << fmt::format("\rsimulated {:.0f} M accesses", static_cast<double>(n) / 1e6) << std::flush; };
  const unsigned threads = args.threads != 0 ? args.threads : std::max(1u, std::thread::hardware_concurrency());
  run.results = sim::simulateAll(program, contexts.events.size(), configs, stream, progress, threads);
  if (terminal && run.results.front().accesses >= (std::uint64_t{1} << 24)) std::cerr << "\r" << std::string(40, ' ') << "\r";
  for (sim::SimulationResult& result : run.results) {
    result.notes.insert(result.notes.begin(), plan.notes.begin(), plan.notes.end());
    if (asked && !asked->problems.empty()) result.approximate = true;
    if (args.maxContextEvents != 0 && contexts.events.size() >= args.maxContextEvents) {
      result.notes.insert(result.notes.begin(), fmt::format("the calling contexts were expanded up to {} events (--max-context-events) and the "
                                                            "rest of the program is not simulated: pick a part with --entry FUNCTION",
                                                            args.maxContextEvents));
      result.approximate = true;
    }
  }
  run.stream = stream;
  run.concretize = options;
  run.concretize.plan = nullptr;  // pointed at run.plan, which moves with "run"
  return run;
}

sim::Program concretizeVariant(const SimulationRun& run, const trace::Trace& variant) {
  // The compiler model plans the variant afresh: its loops are the ones it would compile.
  sim::CompilationPlan plan = sim::planCompilation(variant, run.plan.target, nullptr);
  sim::ConcretizeOptions options = run.concretize;
  options.plan = &plan;
  return sim::concretize(variant, options);
}

std::vector<sim::SimulationResult> simulateVariant(const SimulationRun& run, const trace::Trace& variant,
                                                   const std::vector<cache::HierarchyConfig>& configs) {
  return sim::simulateAll(concretizeVariant(run, variant), variant.events.size(), configs, run.stream);
}

}  // namespace cats::driver
