#include "review_command.hpp"

#include "cache_options.hpp"
#include "deps_command.hpp"
#include "frontend/frontend.hpp"
#include "review_findings.hpp"
#include "review_fix_diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <iterator>
#include <map>
#include <set>

namespace cats::driver {

CLI::App* addReviewCommand(CLI::App& app, ReviewArgs& args) {
  CLI::App* cmd = app.add_subcommand("review", "Find cache problems a transformation fixes and predict, by simulating "
                                               "the transformed program, the misses it saves");
  addSimulationOptions(*cmd, args.simulation);
  cmd->add_option("--min-gain", args.minGain, "Leave out findings whose predicted D1 gain is below PCT percent")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  cmd->add_option("--threads", args.threads, "Threads an OpenMP parallel loop runs on, for false sharing")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--format", args.format, "Report format: text, json or sarif (SARIF 2.1.0)")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", args.output, "Write the report to FILE instead of standard output");
  CLI::Option* fix = cmd->add_flag("--fix-diff", args.fixDiff,
                                   "Write, instead of the report, a unified diff fixing the best recommended finding that has a simple "
                                   "patch (interchange, padding), confirmed by simulating the patched sources");
  cmd->add_option("--fix-kind", args.fixKind, "With --fix-diff: the best finding of this kind (interchange, padding)")->needs(fix);
  return cmd;
}

namespace {

struct ProgramReview {
  std::vector<report::Finding> findings;
  int exitCode = 0;
};

/* The findings of one program (the sources of "simulation"). */
ProgramReview reviewProgram(const SimulateArgs& simulation, const std::vector<cache::HierarchyConfig>& configs, std::uint32_t threads) {
  ProgramReview out;
  SimulationRun run = simulateSources(simulation, configs);
  out.exitCode = run.exitCode;
  if (run.results.empty()) return out;
  // The dependences need the local scalars (an accumulator carries one): the sources traced again, quietly (the first pass spoke).
  DependenceAnalysis analysis = analyseDependences(simulation.sources, true);
  if (!analysis.contexts) {
    out.exitCode = analysis.exitCode;
    return out;
  }
  const std::optional<SizeModel> sizes = sizeModelOf(simulation.sources, *analysis.contexts, configs.front(), run.concretize.bindings);
  const ReviewInput input{run, *analysis.contexts, analysis.dependences, configs, threads, sizes ? &*sizes : nullptr};
  try {
    out.findings = reviewFindings(input);
  } catch (const sim::BindingError& e) {
    std::cerr << "cats-static: error: " << e.what() << "\n";
    out.exitCode = 1;
  } catch (const sim::OptionError& e) {  // the program's own concretisation accepted the options: a variant cannot differ, but say so if it does
    std::cerr << "cats-static: error: a transformed variant: " << e.what() << "\n";
    out.exitCode = 1;
  }
  return out;
}

/* The programs among the sources: one, unless several files define main and the user named
   neither entries nor a compilation database (docs/review.md, "A tree of programs"). */
std::vector<std::vector<std::string>> programsOf(const SourceArgs& sources) {
  if (!sources.entries.empty() || sources.compileCommandsDir) return {sources.paths};
  std::vector<std::string> files;
  try {
    files = frontend::collectSources(sources.paths);
  } catch (const std::exception&) {
    return {sources.paths};  // the review of the paths as given reports the problem
  }
  if (files.size() < 2) return {sources.paths};  // one file is one program: no frontend pass to find its mains
  SourceArgs quiet = sources;
  quiet.quiet = true;
  TraceOutcome parsed = traceSources(quiet, true);
  if (!parsed.program) return {sources.paths};
  std::map<std::string, std::string> byDisplay;  // the frontend names files as displayed
  for (const std::string& f : files) byDisplay.emplace(frontend::displayPath(f), f);
  std::set<std::string> mainFiles;
  for (const ir::Function& f : parsed.program->functions)
    if (f.name == "main" || f.name.rfind("main@", 0) == 0)
      if (auto file = byDisplay.find(f.loc.file); file != byDisplay.end()) mainFiles.insert(file->second);
  return frontend::splitIntoPrograms(files, mainFiles);
}

std::string programLabel(const std::vector<std::string>& files) {
  std::string label = files.front();
  if (files.size() > 1) label += fmt::format(" and {} more file{}", files.size() - 1, files.size() == 2 ? "" : "s");
  return label;
}

}  // namespace

int runReview(const ReviewArgs& args) {
  auto hierarchy = hierarchyFrom(args.simulation.cache);
  if (auto* message = std::get_if<std::string>(&hierarchy)) {
    std::cerr << "cats-static: error: " << *message << "\n";
    return 2;
  }
  if (args.fixDiff && (args.format != "text" || args.simulation.sources.compileCommandsDir)) {
    std::cerr << "cats-static: error: --fix-diff writes a diff of the files given as paths: it takes neither --format json/sarif nor -p\n";
    return 2;
  }
  const std::vector<cache::HierarchyConfig> configs{std::get<cache::HierarchyConfig>(hierarchy)};
  const std::vector<std::vector<std::string>> programs = programsOf(args.simulation.sources);
  if (args.fixDiff && programs.size() > 1) {
    std::cerr << "cats-static: error: --fix-diff patches one program, and these paths hold " << programs.size()
              << " (files defining main); give the files of one\n";
    return 2;
  }
  std::vector<report::Finding> findings;
  int exitCode = 0;
  for (std::size_t k = 0; k < programs.size(); ++k) {
    SimulateArgs simulation = args.simulation;
    if (programs.size() > 1) {
      simulation.sources.paths = programs[k];
      std::cerr << fmt::format("review: program {}/{}: {}\n", k + 1, programs.size(), programLabel(programs[k]));
    }
    ProgramReview review = reviewProgram(simulation, configs, args.threads);
    if (programs.size() == 1 && review.exitCode == 2) return 2;
    exitCode = std::max(exitCode, review.exitCode);
    findings.insert(findings.end(), std::make_move_iterator(review.findings.begin()), std::make_move_iterator(review.findings.end()));
  }
  report::sortFindings(findings);
  findings = report::withMinimumGain(std::move(findings), args.minGain);
  if (args.fixDiff) {
    FixDiffOutcome diff = fixDiff(args, configs, findings);
    if (diff.exitCode) return diff.exitCode;
    int rc = emit(diff.text, args.output);
    return rc ? rc : exitCode;
  }
  std::string text = args.format == "json"    ? report::reviewJson(findings)
                     : args.format == "sarif" ? report::reviewSarif(findings, args.toolVersion)
                                              : report::reviewText(findings);
  int rc = emit(text, args.output);
  return rc ? rc : exitCode;
}

}  // namespace cats::driver
