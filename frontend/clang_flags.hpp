// The flags every Clang run of the frontend adds to a file's compile command (lowering and
// source rewriting parse the same way).
#pragma once

#include "frontend/frontend.hpp"

#include <string>
#include <vector>

namespace cats::frontend {

/// Our -I/-D (a -D NAME=VALUE only where "files" use NAME as a macro), OpenMP pragmas, Clang's
/// resource directory, quiet diagnostics. Throws UsageError for a -D that can only bind a symbol
/// but is not an integer.
std::vector<std::string> commonFlags(const Options& options, const std::vector<std::string>& files);

}  // namespace cats::frontend
