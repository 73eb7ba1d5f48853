#include "source_options.hpp"

#include "tracer/expand.hpp"

#include "frontend/frontend.hpp"
#include "tracer/tracer.hpp"
#include "values.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>

namespace cats::driver {

void addSourceOptions(CLI::App& cmd, SourceArgs& args) {
  cmd.add_option("paths", args.paths, ".c files and directories (every .c below them); with -p, restricts the database's files");
  cmd.add_option("-p", args.compileCommandsDir, "Directory holding compile_commands.json");
  cmd.add_option("-I", args.includeDirs, "Add a directory to the include path")->allow_extra_args(false);
  cmd.add_option("-D", args.defines,
                 "Define NAME as a macro when the sources define or test it (#define NAME, #if/#ifdef NAME), and bind the "
                 "free symbol NAME to VALUE")
      ->allow_extra_args(false);
  cmd.add_option("--param", args.params, "Bind the free symbol NAME (a parameter, an entry's integer argument) to VALUE, nothing else")
      ->allow_extra_args(false);
  cmd.add_option("--entry", args.entries, "Entry function (default: main, else every function no other calls); NAME@FILE picks one of several definitions")->allow_extra_args(false);
  cmd.add_flag("--scalars", args.scalars, "Also trace global and address-taken scalars (default: arrays and fields)");
}

bool hasErrors(const std::vector<ir::Diagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(), [](const auto& d) { return d.severity == ir::Severity::Error; });
}

namespace {

/* "text" into a new temporary file beside "output", renamed over it once complete, so a failed
   write leaves "output" as it was and no partial file behind. A message says why on failure. */
std::optional<std::string> replaceFile(const std::string& output, const std::string& text) {
  std::filesystem::path target(output);
  std::error_code ec;
  auto status = std::filesystem::symlink_status(target, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    // A device (/dev/null), FIFO or symbolic link is written through, never replaced: renaming
    // over it would turn /dev/null into a plain file or a link into a copy.
    std::ofstream out(output, std::ios::binary);
    out << text;
    out.flush();
    if (!out) return std::string("write failed");
    return std::nullopt;
  }
  std::filesystem::path directory = target.parent_path().empty() ? std::filesystem::path(".") : target.parent_path();
  std::string pattern = (directory / ("." + target.filename().string() + ".XXXXXX")).string();
  int fd = mkstemp(pattern.data());
  if (fd < 0) return std::string(std::strerror(errno));
  mode_t mask = umask(0);
  umask(mask);
  bool ok = fchmod(fd, 0666 & ~mask) == 0;  // mkstemp's 0600 would differ from a file created plainly
  for (std::size_t done = 0; ok && done < text.size();) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<std::size_t>(n);
  }
  int error = ok ? 0 : errno;
  if (close(fd) != 0 && ok) {
    ok = false;
    error = errno;
  }
  if (ok && std::rename(pattern.c_str(), output.c_str()) != 0) {
    ok = false;
    error = errno;
  }
  if (ok) return std::nullopt;
  std::remove(pattern.c_str());
  return std::string(error ? std::strerror(error) : "write failed");
}

}  // namespace

int emit(const std::string& text, const std::optional<std::string>& output) {
  if (!output) {
    std::cout << text;
    return 0;
  }
  if (auto problem = replaceFile(*output, text)) {
    std::cerr << "cats-static: error: cannot write '" << *output << "': " << *problem << "\n";
    return 1;
  }
  return 0;
}

namespace {

/* A "NAME=VALUE" or "NAME" item of -D or --param, split; nullopt when NAME is not an identifier. */
std::optional<std::pair<std::string, std::optional<std::string>>> splitAssignment(const std::string& text) {
  static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
  auto eq = text.find('=');
  std::string name = text.substr(0, eq);
  if (!std::regex_match(name, identifier)) return std::nullopt;
  return std::make_pair(name, eq == std::string::npos ? std::nullopt : std::optional<std::string>(text.substr(eq + 1)));
}

/* -D and --param into the frontend's defines and typed bindings; a message when one is malformed. */
std::optional<std::string> parseBindings(const SourceArgs& args, frontend::Options& options, std::map<std::string, std::int64_t>& bindings) {
  for (const auto& text : args.defines) {
    auto item = splitAssignment(text);
    if (!item) return "-D needs NAME or NAME=VALUE, got '" + text + "'";
    frontend::Define d{item->first, item->second, std::nullopt};
    if (d.value) d.number = parseInteger(*d.value);
    if (d.number) bindings[d.name] = *d.number;
    options.defines.push_back(std::move(d));
  }
  for (const auto& text : args.params) {
    auto item = splitAssignment(text);
    std::optional<std::int64_t> value = item && item->second ? parseInteger(*item->second) : std::nullopt;
    if (!value) return "--param needs NAME=INTEGER (C syntax: 64, 0x40, 0100, 1 << 6), got '" + text + "'";
    bindings[item->first] = *value;
  }
  return std::nullopt;
}

/* Prints diagnostics as the frontend reports them, and the progress line on a terminal. */
class DiagnosticStream {
 public:
  explicit DiagnosticStream(bool quiet) : terminal_(!quiet && isatty(STDERR_FILENO) != 0), quiet_(quiet) {}

  void print(const ir::Diagnostic& d) {
    if (quiet_) return;
    clearProgress();
    std::cerr << d.str() << "\n" << std::flush;
    printed_.insert(d.str());
  }

  void progress(std::size_t index, std::size_t total, const std::string& file) {
    if (!terminal_) return;
    std::string line = fmt::format("[{}/{}] {}", index, total, file);
    std::cerr << "\r" << line << std::string(width_ > line.size() ? width_ - line.size() : 0, ' ') << std::flush;
    width_ = line.size();
  }

  void clearProgress() {
    if (width_ == 0) return;
    std::cerr << "\r" << std::string(width_, ' ') << "\r" << std::flush;
    width_ = 0;
  }

  /// Prints those of "diagnostics" not printed yet (the tracer's, after the frontend's).
  void printRest(const std::vector<ir::Diagnostic>& diagnostics) {
    if (quiet_) return;
    for (const auto& d : diagnostics)
      if (auto it = printed_.find(d.str()); it != printed_.end()) printed_.erase(it);
      else std::cerr << d.str() << "\n";
  }

 private:
  bool terminal_;
  bool quiet_;
  std::size_t width_ = 0;
  std::multiset<std::string> printed_;
};

/* Where preambles of system headers are kept (docs/decisions.md, "Header cache"):
   CATS_STATIC_HEADER_CACHE (a directory, or "off"), else the user's cache directory. */
std::optional<std::string> headerCacheDirectory() {
  auto env = [](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): read before any thread starts
    if (!value || !*value) return std::nullopt;
    return std::string(value);
  };
  if (auto chosen = env("CATS_STATIC_HEADER_CACHE")) {
    if (*chosen == "off") return std::nullopt;
    return chosen;
  }
  if (auto xdg = env("XDG_CACHE_HOME")) return *xdg + "/cats-static/headers";
  if (auto home = env("HOME")) return *home + "/.cache/cats-static/headers";
  return std::nullopt;
}

/* The options every command's frontend run shares; the -D bindings are parsed by the caller. */
frontend::Options sourceOptions(const SourceArgs& args) {
  frontend::Options options;
  options.paths = args.paths;
  options.compileCommandsDir = args.compileCommandsDir;
  options.includeDirs = args.includeDirs;
  options.entries = args.entries;
  options.headerCache = headerCacheDirectory();
  return options;
}

}  // namespace

frontend::Options frontendOptions(const SourceArgs& args) {
  frontend::Options options = sourceOptions(args);
  std::map<std::string, std::int64_t> bindings;
  parseBindings(args, options, bindings);
  return options;
}

TraceOutcome traceSources(const SourceArgs& args, bool stopAfterFrontend) {
  TraceOutcome outcome;
  auto usageError = [&](const std::string& message) {
    std::cerr << "cats-static: error: " << message << "\n";
    outcome.exitCode = 2;
    return outcome;
  };
  if (args.paths.empty() && !args.compileCommandsDir) return usageError("give a file, a directory or -p BUILD_DIR");
  frontend::Options options = sourceOptions(args);
  options.traceScalars = args.scalars;
  options.traceLocalScalars = args.localScalars;
  options.stackSlots = args.stackSlots;
  options.gccStackCode = args.gccStackCode;
  if (auto problem = parseBindings(args, options, outcome.bindings)) return usageError(*problem);
  trace::TracerOptions tracerOptions;
  tracerOptions.entries = args.entries;
  if (!args.freeParameters)
    for (const auto& [name, value] : outcome.bindings) tracerOptions.bindings[name] = std::to_string(value);
  DiagnosticStream stream(args.quiet);
  options.onDiagnostic = [&](const ir::Diagnostic& d) { stream.print(d); };
  options.onUnit = [&](std::size_t index, std::size_t total, const std::string& file) { stream.progress(index, total, file); };
  sym::Context ctx;
  ir::Program program;
  try {
    program = frontend::buildProgram(options, ctx);
  } catch (const frontend::UsageError& e) {
    stream.clearProgress();
    return usageError(e.what());
  } catch (const frontend::InputError& e) {
    stream.clearProgress();
    std::cerr << "cats-static: error: " << e.what() << "\n";
    outcome.exitCode = 1;
    return outcome;
  }
  stream.clearProgress();
  if (program.functions.empty() && !hasErrors(program.diagnostics)) {
    program.diagnostics.push_back(ir::Diagnostic{ir::Severity::Error, {}, "no function definition found to analyse"});
    stream.print(program.diagnostics.back());
  }
  if (stopAfterFrontend) {
    outcome.exitCode = hasErrors(program.diagnostics) ? 1 : 0;
    outcome.program = std::move(program);
    return outcome;
  }
  try {
    outcome.trace = trace::buildSummaries(program, ctx, tracerOptions);
  } catch (const trace::EntryError& e) {
    return usageError(e.what());
  }
  stream.printRest(outcome.trace->diagnostics);
  outcome.exitCode = hasErrors(outcome.trace->diagnostics) ? 1 : 0;
  return outcome;
}

trace::Trace modelContexts(const trace::Trace& summaries) {
  trace::ExpansionLimits limits;
  limits.maxEvents = kModelContextEvents;
  trace::Trace contexts = trace::expandContexts(summaries, {}, limits);
  if (contexts.events.size() >= kModelContextEvents) {
    contexts.approximate = true;
    std::cerr << "cats-static: warning: the calling contexts of this program pass " << kModelContextEvents
              << " events; the polyhedral model (counts, dependences) covers the first " << kModelContextEvents
              << " and is approximate: pick a part with --entry FUNCTION\n";
  }
  return contexts;
}

}  // namespace cats::driver
