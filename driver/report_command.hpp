// `cats-static report`: the sources simulated, their dependences and, with --sweep, a scaling
// sweep, rendered into one self-contained HTML file (docs/html-report.md).
#pragma once

#include "simulate_command.hpp"

#include <CLI/CLI.hpp>

#include <cstddef>
#include <optional>
#include <string>

namespace cats::driver {

struct ReportArgs {
  SimulateArgs simulation;           // sources, cache, compiler and the options that shape the stream
  std::optional<std::string> sweep;  // NAME=LO..HI[:xF|:+S]: scaling curves over NAME
  std::optional<std::int64_t> points;
  std::string output = "report.html";
  std::size_t maxEvents = 20000;
  bool review = true;  // the design-review section (each fix simulated: costs a simulation per candidate)
};

CLI::App* addReportCommand(CLI::App& app, ReportArgs& args);
/// Exit code: 0 ok, 1 analysis error, an unwritable output or a page capped by --max-events
/// (written, and saying so), 2 usage error.
int runReport(const ReportArgs& args);

}  // namespace cats::driver
