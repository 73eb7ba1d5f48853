// --compile-cmd: the user's compiler command run on every analysed source with the compiler's
// optimisation reports turned on, nothing executed but the compiler (docs/register-model.md,
// "Asking the compiler"). The command is split into words here, as a shell would without
// expanding anything, and run with posix_spawn: no shell sees it.
#pragma once

#include "sim/compiler.hpp"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cats::driver {

/// "command" split into words: blanks separate, '...' and "..." quote, a backslash escapes the next
/// character; no variables, globs or redirections. A message on an unterminated quote or no word.
std::variant<std::vector<std::string>, std::string> splitCommand(const std::string& command);

/// The compiler target the command builds for: gcc or clang from the program's name ("cc" and
/// "gcc-12" are GCC), -O (none: -O0, as the compiler does), -march and the other modelled flags.
std::variant<sim::CompilerTarget, std::string> targetOfCommand(const std::vector<std::string>& words);

struct CompilerRun {
  sim::ReportedDecisions reported;
  std::vector<std::string> problems;  // one per source the compiler could not compile (or not be run on)
};

/// Runs "words" (without their own inputs, -c, -S, -E and -o) on each of "sources" with
/// "extraFlags" (the analysis's -I and -D) and the report flags of "kind", output into a
/// temporary directory removed afterwards, each run stopped after "timeoutSeconds".
CompilerRun runCompilerReports(const std::vector<std::string>& words, sim::CompilerKind kind, const std::vector<std::string>& sources,
                               const std::vector<std::string>& extraFlags, int timeoutSeconds = 120);

}  // namespace cats::driver
