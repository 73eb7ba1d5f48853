// Reading a CMake or Bear compile_commands.json into one compile command per C file.
#pragma once

#include "clang_tooling.hpp"  // first: see clang_compat.hpp

#include <memory>
#include <string>
#include <vector>

namespace cats::frontend {

/// The C translation units of "buildDir"/compile_commands.json: "arguments" or "command" form,
/// a relative "directory" taken from the database's own directory, the first entry of a file
/// that appears more than once, entries that are not .c files left out. "files" receives the
/// absolute paths, sorted. Throws InputError when the file is missing or malformed.
std::unique_ptr<clang::tooling::CompilationDatabase> readCompileCommands(const std::string& buildDir, std::vector<std::string>& files);

}  // namespace cats::frontend
