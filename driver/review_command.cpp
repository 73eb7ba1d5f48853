#include "review_command.hpp"

#include "cache_options.hpp"
#include "deps_command.hpp"
#include "review_findings.hpp"

#include <fmt/format.h>

#include <iostream>
#include <iterator>

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
  return cmd;
}

int runReview(const ReviewArgs& args) {
  auto hierarchy = hierarchyFrom(args.simulation.cache);
  if (auto* message = std::get_if<std::string>(&hierarchy)) {
    std::cerr << "cats-static: error: " << *message << "\n";
    return 2;
  }
  const std::vector<cache::HierarchyConfig> configs{std::get<cache::HierarchyConfig>(hierarchy)};
  SimulationRun run = simulateSources(args.simulation, configs);
  if (run.results.empty()) return run.exitCode;
  // The dependences need the local scalars (an accumulator carries one): the sources traced again, quietly (the first pass spoke).
  DependenceAnalysis analysis = analyseDependences(args.simulation.sources, true);
  if (!analysis.contexts) return analysis.exitCode;
  const cache::Geometry firstLevel = cache::geometryOf(configs.front().levels.front());
  const ReviewInput input{run, *analysis.contexts, analysis.dependences, configs, configs.front().levels.front().lineBytes, firstLevel.sets,
                          args.threads};
  std::vector<report::Finding> findings;
  try {
    for (ReviewFinder finder : reviewFinders()) {
      std::vector<report::Finding> found = finder(input);
      findings.insert(findings.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
    }
  } catch (const sim::BindingError& e) {
    std::cerr << "cats-static: error: " << e.what() << "\n";
    return 1;
  } catch (const sim::OptionError& e) {  // the program's own concretisation accepted the options: a variant cannot differ, but say so if it does
    std::cerr << "cats-static: error: a transformed variant: " << e.what() << "\n";
    return 1;
  }
  report::sortFindings(findings);
  findings = report::withMinimumGain(std::move(findings), args.minGain);
  std::string text = args.format == "json"    ? report::reviewJson(findings)
                     : args.format == "sarif" ? report::reviewSarif(findings, args.toolVersion)
                                              : report::reviewText(findings);
  int rc = emit(text, args.output);
  return rc ? rc : run.exitCode;
}

}  // namespace cats::driver
