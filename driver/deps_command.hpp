// `cats-static deps`: sources -> trace (local scalars traced) -> polyhedral model -> dependences
// -> text, JSON or DOT.
#pragma once

#include "source_options.hpp"

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

}  // namespace cats::driver
