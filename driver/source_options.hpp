// The options every command that reads C sources shares, and the frontend + tracer run.
#pragma once

#include "frontend/frontend.hpp"
#include "ir/ir.hpp"
#include "tracer/trace.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cats::driver {

struct SourceArgs {
  std::vector<std::string> paths;
  std::optional<std::string> compileCommandsDir;
  std::vector<std::string> includeDirs;
  std::vector<std::string> defines;  // -D NAME[=VALUE]: a macro where the sources use NAME as one, and a binding
  std::vector<std::string> params;   // --param NAME=VALUE: a binding only
  std::vector<std::string> entries;
  bool scalars = false;
  bool localScalars = false;  // set by commands (deps), not an option: frontend::Options::traceLocalScalars
  bool stackSlots = false;    // set by simulate at -O0, not an option: frontend::Options::stackSlots
  bool gccStackCode = false;  // with stackSlots, for GCC: frontend::Options::gccStackCode
  bool freeParameters = false;  // not an option: the trace keeps every parameter a symbol (-D and --param only define macros then)
  bool quiet = false;  // not an option: print no diagnostics and no progress (scale reads the sources again per point)
};

void addSourceOptions(CLI::App& cmd, SourceArgs& args);

/// What reading the sources gave: a trace, or the exit code to stop with.
struct TraceOutcome {
  std::optional<trace::Trace> trace;
  std::optional<ir::Program> program;  // kept for --dump ir
  std::map<std::string, std::int64_t> bindings;  // -D and --param values, parsed
  int exitCode = 0;
};

/// Runs frontend and tracer; prints diagnostics to stderr. With "stopAfterFrontend", no trace.
TraceOutcome traceSources(const SourceArgs& args, bool stopAfterFrontend = false);

/// Calling contexts the polyhedral model is built on (analyze --counts / --dump model, deps): at most
/// kModelContextEvents events, so a whole project (zlib: ~400,000) cannot take minutes. Past the
/// limit a warning says the counts cover part of the program and suggests --entry.
inline constexpr std::size_t kModelContextEvents = 20000;
trace::Trace modelContexts(const trace::Trace& summaries);

/// Calling contexts simulate and scale expand by default: 1.5-3 KB and ~50 us each, so the bound keeps a
/// program whose call paths multiply (lua's lparser.c: 24 GB before it) near 3 GB and a minute.
inline constexpr std::size_t kSimulatedContextEvents = 1000000;

/// The frontend's options for "args" (paths, -p, -I, -D), as traceSources gives them; the -D
/// values are taken as they parse (traceSources reports the bad ones).
frontend::Options frontendOptions(const SourceArgs& args);

bool hasErrors(const std::vector<ir::Diagnostic>& diagnostics);
/// Writes "text" to "output" or stdout; returns 0, or 1 when the file cannot be written. The file is
/// written beside "output" under a temporary name and renamed: never half-written.
int emit(const std::string& text, const std::optional<std::string>& output);

}  // namespace cats::driver
