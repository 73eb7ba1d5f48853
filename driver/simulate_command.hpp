// `cats-static simulate`: sources -> trace -> concretiser -> cache hierarchy -> report, or a
// Dinero din trace straight into the cache hierarchy (--din).
#pragma once

#include "compiler_options.hpp"
#include "source_options.hpp"
#include "cache/config.hpp"
#include "sim/compiler.hpp"
#include "sim/concretize.hpp"
#include "sim/simulate.hpp"
#include "tracer/trace.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace cats::driver {

struct CacheArgs {
  std::vector<std::string> d1, l2, l3, ll;  // Cachegrind-style size,assoc,line; repeated: one per configuration
  std::vector<std::string> machine;         // machine files (each one or more hierarchies) or preset names
  std::optional<std::string> replacement, writePolicy, allocate, inclusion;
  bool missClasses = false;
  bool setHistogram = false, reuseMatrix = false, traffic = false;  // simulate's optional statistics (addStatisticsOptions)
  std::uint64_t seed = 1;
};

struct SimulateArgs {
  SourceArgs sources;
  CacheArgs cache;
  CompilerArgs compiler;
  std::string branch = "both";
  std::int64_t unknownTrips = 1;
  std::vector<std::string> trips;  // LOC=EXPR: iterations of a loop whose trip count is data
  std::vector<std::string> place;  // NAME=ADDR
  std::vector<std::string> align;  // NAME=BYTES
  std::string by = "container";
  std::string format = "text";  // text, json, cachegrind (docs/cachegrind-format.md) or cats (docs/cats-trace-format.md)
  std::size_t maxEvents = 1000000;  // --format cats: events written at most
  std::size_t maxContextEvents = kSimulatedContextEvents;  // calling contexts expanded at most (0: no limit)
  std::optional<std::string> output;
  std::optional<std::string> din;
  bool noStackSlots = false;  // -O0 without the loads and stores of local scalars' stack slots
  bool explainModel = false;  // also list what the compiler model assumed, per function, loop and call
  std::size_t rows = 40;      // rows of the text report's table, busiest first (0: all)
  unsigned threads = 0;       // simulation threads splitting the cache sets (0: one per core; docs/decisions.md)
};

CLI::App* addSimulateCommand(CLI::App& app, SimulateArgs& args);
/// The options that shape a simulation (sources, cache, compiler, branches, trips, placement),
/// shared by the commands that simulate.
void addSimulationOptions(CLI::App& cmd, SimulateArgs& args);
int runSimulate(const SimulateArgs& args);

/// What simulating the sources gave: the traces, the concretised program, the compiler's plan
/// and one result per configuration. No results: it failed ("exitCode" says how, the
/// diagnostics were printed).
struct SimulationRun {
  int exitCode = 0;
  std::optional<trace::Trace> summaries;  // as traced (the access classes)
  trace::Trace contexts;                  // expanded: what the results' event indices name
  sim::Program program;
  sim::CompilationPlan plan;
  sim::StreamOptions stream;  // what the stream was made with (an export walks it again)
  sim::ConcretizeOptions concretize;  // what the program was concretised with ("plan" left empty: it is run.plan)
  std::vector<sim::SimulationResult> results;
};

/// Sources -> trace -> concretiser -> every hierarchy of "configs" in one pass (the simulate
/// pipeline without its report; `report` shares it).
SimulationRun simulateSources(const SimulateArgs& args, const std::vector<cache::HierarchyConfig>& configs);

/// A transformed copy of run.contexts concretised exactly as "run" was (the compiler model plans
/// it afresh). Throws as sim::concretize does.
sim::Program concretizeVariant(const SimulationRun& run, const trace::Trace& variant);

/// A transformed copy of run.contexts (same containers and events, scopes rearranged: what
/// `review` predicts a fix from) concretised and simulated exactly as "run" was: the same
/// bindings, branches, placement, compiler target and stream. Throws sim::BindingError and
/// sim::OptionError as sim::concretize does.
std::vector<sim::SimulationResult> simulateVariant(const SimulationRun& run, const trace::Trace& variant,
                                                   const std::vector<cache::HierarchyConfig>& configs);

}  // namespace cats::driver
