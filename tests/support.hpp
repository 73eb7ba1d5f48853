// Helpers shared by the tests: paths into the source tree, running the analysis in-process
// and the command-line tool as a child process.
#pragma once

#include "frontend/frontend.hpp"
#include "tracer/trace.hpp"
#include "tracer/tracer.hpp"

#include <map>
#include <string>
#include <vector>

namespace cats::test {

std::string sourcePath(const std::string& relative);

struct AnalyzeOptions {
  std::vector<std::string> entries;
  std::map<std::string, std::string> defines;
  bool scalars = false;
  bool localScalars = false;  // frontend::Options::traceLocalScalars
};

/// Frontend and tracer over "paths" (relative to the source tree).
trace::Trace analyze(const std::vector<std::string>& paths, const AnalyzeOptions& options = {});
/// Frontend and tracer's summaries (no expansion into calling contexts) over "paths".
trace::Trace analyzeSummaries(const std::vector<std::string>& paths, const AnalyzeOptions& options = {});
/// Same over C text written to a fresh temporary file.
trace::Trace analyzeSource(const std::string& code, const AnalyzeOptions& options = {});
ir::Program lowerSource(const std::string& code, sym::Context& ctx);

/// A fresh directory below the system temp dir.
std::string tempDir();
std::string writeFile(const std::string& dir, const std::string& name, const std::string& content);
std::string readFile(const std::string& path);

struct CliResult {
  int exitCode = -1;
  std::string out;
  std::string err;
};
/// Runs cats-static with "args" (shell-quoted by the caller where needed) from the source tree,
/// with "environment" (NAME=VALUE words for the shell) added to its environment.
CliResult runCli(const std::string& args, const std::string& environment = {});

/// Access events of "trace" as one line each: "function line:col mode text -> container class [stride] [flags]".
std::vector<std::string> accessLines(const trace::Trace& trace);
const trace::Event& findAccess(const trace::Trace& trace, const std::string& text, ir::AccessMode mode,
                               const std::string& function = {});

}  // namespace cats::test
