#include "source_options.hpp"

#include "frontend/frontend.hpp"
#include "tracer/tracer.hpp"

#include <fstream>
#include <iostream>

namespace cats::driver {

void addSourceOptions(CLI::App& cmd, SourceArgs& args) {
  cmd.add_option("paths", args.paths, ".c files and directories (every .c below them); with -p, restricts the database's files");
  cmd.add_option("-p", args.compileCommandsDir, "Directory holding compile_commands.json");
  cmd.add_option("-I", args.includeDirs, "Add a directory to the include path")->allow_extra_args(false);
  cmd.add_option("-D", args.defines, "Define a macro, and bind the free symbol NAME to VALUE")->allow_extra_args(false);
  cmd.add_option("--entry", args.entries, "Entry function (default: main, else every function no other calls)")->allow_extra_args(false);
  cmd.add_flag("--scalars", args.scalars, "Also trace global and address-taken scalars (default: arrays and fields)");
}

bool hasErrors(const std::vector<ir::Diagnostic>& diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(), [](const auto& d) { return d.severity == ir::Severity::Error; });
}

int emit(const std::string& text, const std::optional<std::string>& output) {
  if (!output) {
    std::cout << text;
    return 0;
  }
  std::ofstream out(*output, std::ios::binary);
  out << text;
  if (!out) {
    std::cerr << "cats-static: error: cannot write '" << *output << "'\n";
    return 1;
  }
  return 0;
}

static void printDiagnostics(const std::vector<ir::Diagnostic>& diagnostics) {
  for (const auto& d : diagnostics) std::cerr << d.str() << "\n";
}

TraceOutcome traceSources(const SourceArgs& args, bool stopAfterFrontend) {
  TraceOutcome outcome;
  if (args.paths.empty() && !args.compileCommandsDir) {
    std::cerr << "cats-static: error: give a file, a directory or -p BUILD_DIR\n";
    outcome.exitCode = 2;
    return outcome;
  }
  frontend::Options options;
  options.paths = args.paths;
  options.compileCommandsDir = args.compileCommandsDir;
  options.includeDirs = args.includeDirs;
  options.traceScalars = args.scalars;
  trace::TracerOptions tracerOptions;
  tracerOptions.entries = args.entries;
  for (const auto& text : args.defines) {
    auto eq = text.find('=');
    frontend::Define d{text.substr(0, eq), eq == std::string::npos ? std::nullopt : std::optional<std::string>(text.substr(eq + 1))};
    if (d.name.empty()) {
      std::cerr << "cats-static: error: -D needs NAME or NAME=VALUE, got '" << text << "'\n";
      outcome.exitCode = 2;
      return outcome;
    }
    if (d.value) tracerOptions.bindings[d.name] = *d.value;
    options.defines.push_back(std::move(d));
  }
  sym::Context ctx;
  ir::Program program;
  try {
    program = frontend::buildProgram(options, ctx);
  } catch (const frontend::UsageError& e) {
    std::cerr << "cats-static: error: " << e.what() << "\n";
    outcome.exitCode = 2;
    return outcome;
  } catch (const frontend::InputError& e) {
    std::cerr << "cats-static: error: " << e.what() << "\n";
    outcome.exitCode = 1;
    return outcome;
  }
  if (program.functions.empty() && !hasErrors(program.diagnostics))
    program.diagnostics.push_back(ir::Diagnostic{ir::Severity::Error, {}, "no function definition found to analyse"});
  if (stopAfterFrontend) {
    printDiagnostics(program.diagnostics);
    outcome.exitCode = hasErrors(program.diagnostics) ? 1 : 0;
    outcome.program = std::move(program);
    return outcome;
  }
  try {
    outcome.trace = trace::buildSummaries(program, ctx, tracerOptions);
  } catch (const trace::EntryError& e) {
    printDiagnostics(program.diagnostics);
    std::cerr << "cats-static: error: " << e.what() << "\n";
    outcome.exitCode = 2;
    return outcome;
  }
  printDiagnostics(outcome.trace->diagnostics);
  outcome.exitCode = hasErrors(outcome.trace->diagnostics) ? 1 : 0;
  return outcome;
}

}  // namespace cats::driver
