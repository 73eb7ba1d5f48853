// `cats-static analyze`: frontend -> tracer -> report, wired and nothing more.
#pragma once

#include "source_options.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>

namespace cats::driver {

struct AnalyzeArgs {
  SourceArgs sources;
  std::string format = "text";
  std::optional<std::string> output;
  std::optional<std::string> dump;
  bool counts = false;
};

/// Registers the subcommand's options on "app".
CLI::App* addAnalyzeCommand(CLI::App& app, AnalyzeArgs& args);
/// Runs the analysis; returns the process exit code (0 ok, 1 analysis error, 2 usage error).
int runAnalyze(const AnalyzeArgs& args);

}  // namespace cats::driver
