#include "analyze_command.hpp"

#include "frontend/frontend.hpp"
#include "ir/dump.hpp"
#include "reports/analysis.hpp"
#include "tracer/trace_json.hpp"
#include "tracer/tracer.hpp"

#include <fstream>
#include <iostream>

namespace cats::driver {

CLI::App* addAnalyzeCommand(CLI::App& app, AnalyzeArgs& args) {
  CLI::App* cmd = app.add_subcommand("analyze", "Classify every memory access of a C source tree (symbolic C.A.T.S. trace)");
  cmd->add_option("paths", args.paths, ".c files and directories (every .c below them); with -p, restricts the database's files");
  cmd->add_option("-p", args.compileCommandsDir, "Directory holding compile_commands.json");
  cmd->add_option("-I", args.includeDirs, "Add a directory to the include path")->allow_extra_args(false);
  cmd->add_option("-D", args.defines, "Define a macro, and bind the free symbol NAME to VALUE")->allow_extra_args(false);
  cmd->add_option("--entry", args.entries, "Entry function (default: main, else every function no other calls)")->allow_extra_args(false);
  cmd->add_option("--format", args.format, "Report format")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
  cmd->add_option("-o,--output", args.output, "Write the result to FILE instead of standard output");
  cmd->add_option("--dump", args.dump, "Print a stage instead of the report: ir (text) or trace (the JSON trace file)")
      ->check(CLI::IsMember({"ir", "trace"}));
  cmd->add_flag("--scalars", args.scalars, "Also trace global scalars as containers (default: arrays and fields)");
  return cmd;
}

namespace {

/* "NAME" or "NAME=VALUE" as a frontend define. */
frontend::Define parseDefine(const std::string& text) {
  auto eq = text.find('=');
  if (eq == std::string::npos) return {text, std::nullopt};
  return {text.substr(0, eq), text.substr(eq + 1)};
}

void printDiagnostics(const std::vector<ir::Diagnostic>& diagnostics) {
  for (const auto& d : diagnostics) std::cerr << d.str() << "\n";
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

}  // namespace

int runAnalyze(const AnalyzeArgs& args) {
  if (args.paths.empty() && !args.compileCommandsDir) {
    std::cerr << "cats-static: error: analyze needs a file, a directory or -p BUILD_DIR\n";
    return 2;
  }
  frontend::Options options;
  options.paths = args.paths;
  options.compileCommandsDir = args.compileCommandsDir;
  options.includeDirs = args.includeDirs;
  options.traceScalars = args.scalars;
  trace::TracerOptions tracerOptions;
  tracerOptions.entries = args.entries;
  for (const auto& text : args.defines) {
    frontend::Define d = parseDefine(text);
    if (d.name.empty()) {
      std::cerr << "cats-static: error: -D needs NAME or NAME=VALUE, got '" << text << "'\n";
      return 2;
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
    return 2;
  } catch (const frontend::InputError& e) {
    std::cerr << "cats-static: error: " << e.what() << "\n";
    return 1;
  }
  if (program.functions.empty() && !hasErrors(program.diagnostics))
    program.diagnostics.push_back(ir::Diagnostic{ir::Severity::Error, {}, "no function definition found to analyse"});
  if (args.dump == "ir") {
    printDiagnostics(program.diagnostics);
    int rc = emit(ir::dump(program), args.output);
    return rc ? rc : (hasErrors(program.diagnostics) ? 1 : 0);
  }
  trace::Trace trace;
  try {
    trace = trace::buildTrace(program, ctx, tracerOptions);
  } catch (const trace::EntryError& e) {
    printDiagnostics(program.diagnostics);
    std::cerr << "cats-static: error: " << e.what() << "\n";
    return 2;
  }
  printDiagnostics(trace.diagnostics);
  std::string text = args.dump == "trace" ? trace::writeTraceJson(trace)
                     : args.format == "json" ? report::analysisJson(trace)
                                             : report::analysisText(trace);
  int rc = emit(text, args.output);
  return rc ? rc : (hasErrors(trace.diagnostics) ? 1 : 0);
}

}  // namespace cats::driver
