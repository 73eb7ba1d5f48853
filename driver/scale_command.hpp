// `cats-static scale`: one parameter swept over a range; per point the predicted value of each
// metric (formulas derived once) and, with --simulate, the simulated one; rendered as text,
// JSON, CSV and a gnuplot plot (docs/scale-format.md).
#pragma once

#include "compiler_options.hpp"
#include "simulate_command.hpp"
#include "source_options.hpp"
#include "sim/scale.hpp"
#include "symbolic/polyhedral.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace cats::driver {

struct ScaleArgs {
  SourceArgs sources;  // -D NAME=LO..HI is the sweep, -D M=EXPR(NAME) a derived parameter
  CacheArgs cache;
  std::optional<std::int64_t> points;
  std::vector<std::string> metrics;
  bool simulate = false;
  CompilerArgs compiler;
  std::string format = "text";
  std::optional<std::string> output;
  std::optional<std::string> plot;
  unsigned long islOperations = sym::CountLimits{}.islOperations;
};

CLI::App* addScaleCommand(CLI::App& app, ScaleArgs& args);
/// Exit code: 0 ok, 1 analysis error (a parameter without value, a plot gnuplot could not
/// draw), 2 usage error.
int runScale(const ScaleArgs& args);

/// The sweep of "args" without its report (`report --sweep` shares it): the series, or none
/// after the diagnostics were printed; "exitCode" as runScale's.
struct SweepOutcome {
  std::optional<sim::ScaleSeries> series;
  int exitCode = 0;
};
SweepOutcome sweepScale(const ScaleArgs& args);

}  // namespace cats::driver
