// `cats-static analyze`: frontend -> tracer -> report, wired and nothing more.
#pragma once

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace cats::driver {

struct AnalyzeArgs {
  std::vector<std::string> paths;
  std::optional<std::string> compileCommandsDir;
  std::vector<std::string> includeDirs;
  std::vector<std::string> defines;
  std::vector<std::string> entries;
  std::string format = "text";
  std::optional<std::string> output;
  std::optional<std::string> dump;
  bool scalars = false;
};

/// Registers the subcommand's options on "app".
CLI::App* addAnalyzeCommand(CLI::App& app, AnalyzeArgs& args);
/// Runs the analysis; returns the process exit code (0 ok, 1 analysis error, 2 usage error).
int runAnalyze(const AnalyzeArgs& args);

}  // namespace cats::driver
