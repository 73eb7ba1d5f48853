// Draws a plot with gnuplot (an external program; scripts/install-deps.sh installs gnuplot-nox).
#pragma once

#include <optional>
#include <string>

namespace cats::driver {

/// Runs gnuplot on "script" (which reads "data" from "dataPath") in a temporary directory;
/// nullopt on success, else what went wrong (gnuplot missing, its error output).
std::optional<std::string> runGnuplot(const std::string& script, const std::string& data, const std::string& dataPath,
                                      const std::string& scriptPath);

/// A fresh private temporary directory for the plot's inputs; empty on failure.
std::string makeTempDir();

}  // namespace cats::driver
