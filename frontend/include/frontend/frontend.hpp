// The frontend: C sources (files, directories or a compile_commands.json) to the IR.
#pragma once

#include "ir/ir.hpp"
#include "symbolic/expr.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cats::frontend {

struct Define {
  std::string name;
  std::optional<std::string> value;   // the text after '=', as given
  std::optional<std::int64_t> number;  // the value as an integer (parsed by the driver), when it is one
};

struct Options {
  std::vector<std::string> paths;                 // .c files and directories (every .c below)
  std::optional<std::string> compileCommandsDir;  // -p: directory holding compile_commands.json
  std::vector<std::string> includeDirs;           // -I
  std::vector<Define> defines;                    // -D (NAME=VALUE only if the sources use NAME as a macro)
  bool traceScalars = false;                      // also global scalars as containers
  /// Reads and writes of local scalars inside loops as accesses to a Stack container per scalar
  /// (the dependence analysis: `sum += a[i]` is a reduction on sum). Off for analyze/simulate.
  bool traceLocalScalars = false;
  /// -O0 code (simulate at -O0): every local scalar, pointer variable and parameter lives in a
  /// stack slot of its function's frame (a Stack container, allocated at function entry, locals
  /// in declaration order then parameters); every source read loads it, every write stores it,
  /// at any loop depth, loop counters included; each parameter is stored once at entry.
  bool stackSlots = false;
  /// With stackSlots, GCC's -O0 code shape: an integer or pointer slot updated in place
  /// (`i++`, `s += x`: one `addl $1, -4(%rbp)`, which Cachegrind counts as one read) and the
  /// address of a compound-assigned element computed twice (`C[i][j] += x` loads i and j twice).
  bool gccStackCode = false;
  std::vector<std::string> entries;               // --entry: picks one of several definitions of a name
  /// Directory of precompiled system-header preambles kept between runs (docs/decisions.md,
  /// "Header cache"); none: every header is parsed on every run. The result is the same.
  std::optional<std::string> headerCache;
  /// Called with each diagnostic as soon as its translation unit is done (streaming to the user).
  std::function<void(const ir::Diagnostic&)> onDiagnostic;
  /// Called before each translation unit is parsed: 1-based index, count, file as displayed.
  std::function<void(std::size_t, std::size_t, const std::string&)> onUnit;
};

/// Bad command-line input (a path that does not exist): a usage error.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Input that cannot be analysed at all (no C file found, unreadable database).
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parses and lowers every translation unit. Problems in the code become diagnostics in the
/// program (errors for files Clang could not parse, warnings for unsupported constructs).
ir::Program buildProgram(const Options& options, sym::Context& ctx);

/// The .c files named by "paths", directories expanded recursively, sorted.
std::vector<std::string> collectSources(const std::vector<std::string>& paths);

/// "files" (sorted) as programs, for commands that need one program (review) on a tree of
/// several: with at most one file in "mainFiles" all files are one program; otherwise each main
/// file is a program together with the files without a main in its directory and the
/// directories below it that hold no main file of their own; files no main file claims are one
/// more program, last. Programs in the order of their main files.
std::vector<std::vector<std::string>> splitIntoPrograms(const std::vector<std::string>& files, const std::set<std::string>& mainFiles);

/// The names among "candidates" that a preprocessor directive of the user's files mentions.
std::set<std::string> namesUsedAsMacros(const std::vector<std::string>& candidates, const std::vector<std::string>& sources,
                                        const std::vector<std::string>& includeDirs);

/// A path as shown to users: relative to the working directory (as it was at the first call)
/// when below it.
std::string displayPath(const std::string& path);

}  // namespace cats::frontend
