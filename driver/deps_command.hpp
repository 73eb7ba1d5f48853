// `cats-static deps`: sources -> trace (local scalars traced) -> polyhedral model -> dependences
// -> text, JSON or DOT.
#pragma once

#include "source_options.hpp"
#include "tracer/dependences.hpp"
#include "tracer/trace.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace cats::driver {

struct DepsArgs {
  SourceArgs sources;
  std::string format = "text";
  std::optional<std::string> output;
};

CLI::App* addDepsCommand(CLI::App& app, DepsArgs& args);
/// Returns the exit code: 0 ok (approximate results included, with warnings), 1 analysis error,
/// 2 usage error.
int runDeps(const DepsArgs& args);

/// The sources traced as `deps` needs them (local scalars too: an accumulator carries a
/// dependence), the calling contexts of the polyhedral model and their dependences. No
/// "contexts" when reading the sources failed ("exitCode" says how). `report` and `review`
/// trace quietly: their first reading already printed the diagnostics.
struct DependenceAnalysis {
  std::optional<trace::Trace> contexts;
  trace::ProgramDependences dependences;
  int exitCode = 0;
};
DependenceAnalysis analyseDependences(SourceArgs sources, bool quiet);

}  // namespace cats::driver
