// The report of `cats-static simulate`: cache statistics grouped by meaning (container,
// struct field, function, loop, source line, calling context), as text tables or versioned
// JSON ("format": "cats-static-simulation", "version": 1; docs/simulation-format.md).
#pragma once

#include "cache/config.hpp"
#include "sim/concretize.hpp"
#include "sim/simulate.hpp"
#include "tracer/trace.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cats::report {

inline constexpr int kSimulationFormatVersion = 1;
// 1: the "configurations" extension (several configurations in one pass); 2: "set_misses",
// "reuse" and "traffic" (--set-histogram, --reuse-matrix, --traffic).
inline constexpr int kSimulationFormatMinorVersion = 2;
inline constexpr int kCompilerModelFormatVersion = 1;  // the "compiler_model" section (--explain-model)

// CompiledFunction: the function of the binary the code ends up in (inlined code counts in its
// caller), as a profiler of the binary (Cachegrind) names it; the source function without a plan.
enum class GroupBy { Container, Field, Function, CompiledFunction, Loop, Line, Context };
std::optional<GroupBy> parseGroupBy(const std::string& text);
std::string_view toString(GroupBy g);

struct Group {
  std::string name;
  std::vector<sim::LevelCounts> levels;
  bool approximate = false;
};

/// Events grouped by "by", sorted by misses at the first level, then at the next, then by name.
std::vector<Group> groupEvents(const trace::Trace& trace, const sim::SimulationResult& result, GroupBy by,
                               const sim::CompilationPlan* plan = nullptr);

/// The name of the group of "by" that "event" belongs to.
std::string groupName(const trace::Trace& trace, std::size_t event, GroupBy by, const sim::CompilationPlan* plan = nullptr);

/// Whether a modelled guess (a drawn offset, a branch policy, an assumed trip count) went into "event".
/// With "result", accesses and loops that the integers the program stored made exact are not.
bool eventIsApproximate(const trace::Trace& trace, std::size_t event, const sim::SimulationResult* result = nullptr);

/// A Cachegrind cost centre: the accesses of one source line in one function of the binary.
struct LineCost {
  std::string file;      // as the trace names it; empty when the access has no place in the sources
  std::string function;  // the compiled function (GroupBy::CompiledFunction)
  unsigned line = 0;
  std::vector<sim::LevelCounts> levels;
};

/// Accesses grouped by (file, compiled function, line), sorted by them: the function as a
/// profiler of the binary names it, the line as the source has it (inlined code keeps its line).
std::vector<LineCost> lineCosts(const trace::Trace& trace, const sim::SimulationResult& result, const sim::CompilationPlan* plan);

struct SimulationReportInput {
  const trace::Trace& trace;
  const sim::SimulationResult& result;
  const cache::HierarchyConfig& config;
  sim::RegisterModel model;
  const sim::CompilationPlan* plan = nullptr;  // the compiler's decisions, when the simulation made them
  bool explainModel = false;                   // with "plan": also what the compiler model assumed (--explain-model)
  bool traffic = false;                        // also the bytes between levels (--traffic)
  std::size_t rows = 0;                        // text: rows of the group table, busiest first (0: all)
};

/// What "plan" assumed for "contexts", as a tree by function, call and loop with file:line
/// (reports/compiler_model.cpp; docs/register-model.md).
std::string compilerModelText(const trace::Trace& contexts, const sim::CompilationPlan& plan);

std::string simulationText(const SimulationReportInput& in, GroupBy by);
std::string simulationJson(const SimulationReportInput& in);

/// The simulation in Cachegrind's profile format (docs/cachegrind-format.md): cg_annotate and
/// KCachegrind show the predicted data accesses and misses per source line. "command" fills `cmd:`.
std::string cachegrindOut(const SimulationReportInput& in, const std::string& command);

/// Several configurations simulated in one pass (sim::simulateAll): "results" and "configs" in
/// the same order, at least two.
struct ConfigurationsReportInput {
  const trace::Trace& trace;
  const std::vector<sim::SimulationResult>& results;
  const std::vector<cache::HierarchyConfig>& configs;
  sim::RegisterModel model;
  const sim::CompilationPlan* plan = nullptr;
  bool explainModel = false;
  std::size_t rows = 0;  // text: rows of the group table, busiest first (0: all)
};

/// A configuration's geometry in one line, to head its columns: "D1 32KiB/8/64 LL 8MiB/16/64".
std::string configurationLabel(const cache::HierarchyConfig& config);

/// The report of the first configuration with a column set per configuration in every table.
std::string simulationText(const ConfigurationsReportInput& in, GroupBy by);
/// The first configuration's version-1 report, plus "minor_version" and "configurations": every
/// configuration's hierarchy, totals and groups (docs/simulation-format.md).
std::string simulationJson(const ConfigurationsReportInput& in);

}  // namespace cats::report
