// cats-static: predicts how C programs use the cache hierarchy before they run.
#include "analyze_command.hpp"
#include "deps_command.hpp"
#include "report_command.hpp"
#include "review_command.hpp"
#include "scale_command.hpp"
#include "simulate_command.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

namespace {

int run(int argc, char** argv) {
  CLI::App app{"cats-static: static cache-behaviour analysis of C programs"};
  app.require_subcommand(1);
  constexpr const char* kVersion = "0.1.0";
  app.set_version_flag("--version", std::string("cats-static ") + kVersion);
  cats::driver::AnalyzeArgs analyze;
  cats::driver::SimulateArgs simulate;
  cats::driver::DepsArgs deps;
  CLI::App* analyzeCommand = cats::driver::addAnalyzeCommand(app, analyze);
  CLI::App* simulateCommand = cats::driver::addSimulateCommand(app, simulate);
  CLI::App* depsCommand = cats::driver::addDepsCommand(app, deps);
  cats::driver::ScaleArgs scale;
  CLI::App* scaleCommand = cats::driver::addScaleCommand(app, scale);
  cats::driver::ReportArgs report;
  CLI::App* reportCommand = cats::driver::addReportCommand(app, report);
  cats::driver::ReviewArgs review;
  review.toolVersion = kVersion;
  CLI::App* reviewCommand = cats::driver::addReviewCommand(app, review);
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

}  // namespace

// Nothing escapes main: an exception outside a command (CLI11's set-up, out of memory) is an analysis error.
int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "cats-static: error: " << e.what() << "\n";
  } catch (...) {
    std::cerr << "cats-static: error: unknown exception\n";
  }
  return 1;
}
