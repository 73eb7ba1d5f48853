// `cats-static simulate`: sources -> trace -> concretiser -> cache hierarchy -> report, or a
// Dinero din trace straight into the cache hierarchy (--din).
#pragma once

#include "compiler_options.hpp"
#include "source_options.hpp"

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
  std::string format = "text";
  std::optional<std::string> output;
  std::optional<std::string> din;
  bool noStackSlots = false;  // -O0 without the loads and stores of local scalars' stack slots
  bool explainModel = false;  // also list what the compiler model assumed, per function, loop and call
};

CLI::App* addSimulateCommand(CLI::App& app, SimulateArgs& args);
int runSimulate(const SimulateArgs& args);

}  // namespace cats::driver
