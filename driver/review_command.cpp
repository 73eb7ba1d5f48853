#include "review_command.hpp"

#include "cache_options.hpp"
#include "deps_command.hpp"
#include "reports/review.hpp"
#include "tracer/dependences.hpp"
#include "tracer/interchange.hpp"
#include "tracer/padding.hpp"

#include <fmt/format.h>

#include <iostream>
#include <limits>
#include <map>

namespace cats::driver {

CLI::App* addReviewCommand(CLI::App& app, ReviewArgs& args) {
  CLI::App* cmd = app.add_subcommand("review", "Find cache problems a transformation fixes (loop interchange) and predict, by simulating "
                                               "the transformed program, the misses it saves");
  addSimulationOptions(*cmd, args.simulation);
  cmd->add_option("--min-gain", args.minGain, "Leave out findings whose predicted D1 gain is below PCT percent")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  cmd->add_option("--format", args.format, "Report format: text, json or sarif (SARIF 2.1.0)")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", args.output, "Write the report to FILE instead of standard output");
  return cmd;
}

namespace {

/* Per level, the misses of the program and of the variant. */
std::vector<report::PredictedMisses> predictedMisses(const sim::SimulationResult& before, const sim::SimulationResult& after) {
  std::vector<report::PredictedMisses> out;
  for (std::size_t k = 0; k < before.levels.size() && k < after.totals.size(); ++k)
    out.push_back({before.levels[k], before.totals[k].misses(), after.totals[k].misses()});
  return out;
}

report::Finding interchangeFinding(const trace::InterchangeCandidate& c) {
  report::Finding f;
  f.kind = "interchange";
  f.function = c.function;
  f.file = c.loc.file;
  f.line = static_cast<int>(c.loc.line);
  f.legal = c.legal;
  f.message = fmt::format("loop {} walks '{}' ({}) {} bytes per iteration; with loop {} innermost it moves {} bytes", c.innerIterator,
                          c.container, c.access, c.strideBefore, c.outerIterator, c.strideAfter);
  if (!c.legal.value_or(true)) f.message += fmt::format("; the interchange is illegal: {}", c.legality);
  else if (!c.legal) f.message += fmt::format("; legality unknown: {}", c.legality);
  if (!c.notEvaluated.empty()) f.message += fmt::format("; not evaluated: {}", c.notEvaluated);
  return f;
}

/* Simulates "variant" into f.predicted; whether it has fewer first-level misses than the run. */
bool predictGain(report::Finding& f, const SimulationRun& run, const trace::Trace& variant, const std::vector<cache::HierarchyConfig>& configs) {
  std::vector<sim::SimulationResult> after = simulateVariant(run, variant, configs);
  f.predicted = predictedMisses(run.results.front(), after.front());
  return !f.predicted.empty() && f.predicted.front().after < f.predicted.front().before;
}

/* The interchange findings: every candidate simulated, the best variant per loop kept when it
   saves D1 misses (or could not be evaluated); the recommendation only for a legal one. */
std::vector<report::Finding> interchangeFindings(const SimulationRun& run, const std::vector<trace::InterchangeCandidate>& candidates,
                                                 const std::vector<cache::HierarchyConfig>& configs) {
  std::vector<report::Finding> out;
  std::vector<std::uint64_t> missesAfter;     // D1 misses of out[i]'s variant
  std::map<std::string, std::size_t> byLoop;  // the loop's place -> its finding in "out"
  for (const trace::InterchangeCandidate& c : candidates) {
    report::Finding f = interchangeFinding(c);
    if (c.notEvaluated.empty()) {
      if (!predictGain(f, run, *trace::interchanged(run.contexts, c.outer, c.inner), configs)) continue;  // no gain: nothing to say
      if (c.legal.value_or(false))
        f.recommendation = fmt::format("interchange loops {} and {} (line {}) so that {} is innermost", c.outerIterator, c.innerIterator,
                                       c.loc.line, c.outerIterator);
    }
    std::uint64_t misses = f.predicted.empty() ? std::numeric_limits<std::uint64_t>::max() : f.predicted.front().after;
    auto [found, isNew] = byLoop.try_emplace(c.loc.str(), out.size());
    if (isNew) {
      out.push_back(std::move(f));
      missesAfter.push_back(misses);
    } else if (misses < missesAfter[found->second]) {
      out[found->second] = std::move(f);
      missesAfter[found->second] = misses;
    }
  }
  return out;
}

/* The padding findings: each padded variant simulated, kept when it saves D1 misses (or could
   not be evaluated). Padding reorders nothing, so it is legal whenever every access can be
   re-addressed; the recommendation names the pad. */
std::vector<report::Finding> paddingFindings(const SimulationRun& run, const std::vector<trace::PaddingCandidate>& candidates,
                                             const std::vector<cache::HierarchyConfig>& configs) {
  std::vector<report::Finding> out;
  for (const trace::PaddingCandidate& c : candidates) {
    report::Finding f;
    f.kind = "padding";
    f.function = c.function;
    f.file = c.loc.file;
    f.line = static_cast<int>(c.loc.line);
    f.message = fmt::format("'{}' ({}) is walked down a column of rows {} bytes long: its lines fall in {} of the {} sets of {}", c.name,
                            c.access, c.rowBytes, c.setsTouched, c.sets, configs.front().levels.front().name);
    if (!c.notEvaluated.empty()) {
      f.message += fmt::format("; not evaluated: {}", c.notEvaluated);
      out.push_back(std::move(f));
      continue;
    }
    f.legal = true;
    if (!predictGain(f, run, *trace::padded(run.contexts, c.container, c.padElements), configs)) continue;  // no gain: nothing to say
    f.recommendation = fmt::format("pad each row of '{}' by one cache line: {} more elements in its last dimension (unless code relies on "
                                   "the row length, as sizeof or pointer arithmetic across rows would)",
                                   c.name, c.padElements);
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace

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
  const trace::Trace& modelTrace = *analysis.contexts;
  const trace::ProgramDependences& deps = analysis.dependences;
  const std::int64_t lineBytes = configs.front().levels.front().lineBytes;
  std::vector<trace::InterchangeCandidate> candidates =
      trace::findInterchanges(run.contexts, modelTrace, deps, run.concretize.bindings, lineBytes);
  const cache::Geometry firstLevel = cache::geometryOf(configs.front().levels.front());
  std::vector<trace::PaddingCandidate> paddings = trace::findPaddings(run.contexts, run.concretize.bindings, lineBytes, firstLevel.sets);
  std::vector<report::Finding> findings;
  try {
    findings = interchangeFindings(run, candidates, configs);
    std::vector<report::Finding> padding = paddingFindings(run, paddings, configs);
    findings.insert(findings.end(), padding.begin(), padding.end());
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
