// cats-static: predicts how C programs use the cache hierarchy before they run.
#include "analyze_command.hpp"
#include "deps_command.hpp"
#include "report_command.hpp"
#include "review_command.hpp"
#include "scale_command.hpp"
#include "simulate_command.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <set>
#include <string>

namespace {

/* The subcommand the command line names (its first word that is one), or "" (help, a typo). */
std::string namedCommand(int argc, char** argv) {
  static const std::set<std::string> commands{"analyze", "simulate", "deps", "scale", "report", "review"};
  for (int i = 1; i < argc; ++i)
    if (commands.count(argv[i])) return argv[i];
  return {};
}

int run(int argc, char** argv) {
  CLI::App app{"cats-static: static cache-behaviour analysis of C programs"};
  app.require_subcommand(1);
  constexpr const char* kVersion = "0.1.0";
  app.set_version_flag("--version", std::string("cats-static ") + kVersion);
  // Only the subcommand named is set up, when one is: CLI11 checks each new option against the
  // ones before it, and setting up all six took a tenth of a small run's instructions.
  const std::string named = namedCommand(argc, argv);
  auto wanted = [&](const char* command) { return named.empty() || named == command; };
  CLI::App none;  // stands for the subcommands not set up: never parsed
  cats::driver::AnalyzeArgs analyze;
  cats::driver::SimulateArgs simulate;
  cats::driver::DepsArgs deps;
  CLI::App* analyzeCommand = wanted("analyze") ? cats::driver::addAnalyzeCommand(app, analyze) : &none;
  CLI::App* simulateCommand = wanted("simulate") ? cats::driver::addSimulateCommand(app, simulate) : &none;
  CLI::App* depsCommand = wanted("deps") ? cats::driver::addDepsCommand(app, deps) : &none;
  cats::driver::ScaleArgs scale;
  CLI::App* scaleCommand = wanted("scale") ? cats::driver::addScaleCommand(app, scale) : &none;
  cats::driver::ReportArgs report;
  CLI::App* reportCommand = wanted("report") ? cats::driver::addReportCommand(app, report) : &none;
  cats::driver::ReviewArgs review;
  review.toolVersion = kVersion;
  CLI::App* reviewCommand = wanted("review") ? cats::driver::addReviewCommand(app, review) : &none;
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  try {
    if (analyzeCommand->parsed()) return cats::driver::runAnalyze(analyze);
    if (simulateCommand->parsed()) return cats::driver::runSimulate(simulate);
    if (depsCommand->parsed()) return cats::driver::runDeps(deps);
    if (scaleCommand->parsed()) return cats::driver::runScale(scale);
    if (reportCommand->parsed()) return cats::driver::runReport(report);
    if (reviewCommand->parsed()) return cats::driver::runReview(review);
  } catch (const std::exception& e) {
    std::cerr << "cats-static: error: " << e.what() << "\n";
    return 1;
  }
  return 2;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kLeakCheck = true;
#elif defined(__has_feature)
constexpr bool kLeakCheck = __has_feature(address_sanitizer);
#else
constexpr bool kLeakCheck = false;
#endif

/* Ends the process without static destructors, as Clang's -disable-free does: tearing down
   LLVM's, Clang's and GiNaC's globals took 0.5-1.6 ms of a run (docs/decisions.md, "Exit
   without teardown"). Sanitizer builds return from main, so that the leak check still runs. */
int finish(int code) {
  if (kLeakCheck) return code;
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);  // NOLINT(cert-err33-c): nothing to do about a failed flush on the way out
  std::_Exit(code);
}

}  // namespace

// Nothing escapes main: an exception outside a command (CLI11's set-up, out of memory) is an analysis error.
int main(int argc, char** argv) {
  try {
    return finish(run(argc, argv));
  } catch (const std::exception& e) {
    std::cerr << "cats-static: error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "cats-static: error: unknown exception\n";
  }
  return 1;
}
