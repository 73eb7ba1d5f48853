// Scaling analysis (`cats-static scale`, docs/scale-format.md): the values of a metric per group
// of accesses (total, container, function, loop) at each point of a parameter sweep, predicted
// and, on request, simulated. The typed records here are what the reports render; the driver
// fills them point by point.
#pragma once

#include "cache/config.hpp"
#include "sim/concretize.hpp"
#include "sim/simulate.hpp"
#include "sim/stream.hpp"
#include "symbolic/polyhedral.hpp"
#include "tracer/trace.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cats::sim {

enum class ScaleMetric { Accesses, Bytes, Footprint, MissesD1, MissesL2, MissesLL };
std::optional<ScaleMetric> parseScaleMetric(std::string_view text);
std::string_view toString(ScaleMetric metric);
/// The cache level a misses_* metric reads in "config" (D1: the first, LL: the last, L2: the
/// level named L2); nullopt for the other metrics, or a message when the hierarchy has no such level.
std::optional<std::size_t> missLevel(ScaleMetric metric, const cache::HierarchyConfig& config, std::string* problem = nullptr);

enum class ScaleGroupKind { Total, Container, Function, Loop };
std::string_view toString(ScaleGroupKind kind);

/// Access events that are reported together; "name" is stable across points (and across traces
/// of the same sources with other parameter values), event indices are not.
struct ScaleGroup {
  ScaleGroupKind kind = ScaleGroupKind::Total;
  std::string name;
  std::vector<std::size_t> events;
};

/// The access events of "contexts" grouped: the total first, then containers, functions and
/// loops, each sorted by name. Loop names are those of `simulate --by loop`.
std::vector<ScaleGroup> scaleGroups(const trace::Trace& contexts);

/// Whether the symbol "name" occurs in any expression of "contexts" (offsets, bounds, steps,
/// conditions, sizes): a parameter the sweep can change without reading the sources again.
bool usesParameter(const trace::Trace& contexts, const std::string& name);

/// Per group, what one pass over the address stream counts without a cache: records, bytes and
/// distinct lines of "lineBytes" (0: lines are not counted, which is much faster).
struct StreamCounts {
  std::vector<std::uint64_t> accesses, bytes, lines;
  bool approximate = false;  // a random draw or a branch policy shaped the stream
};
StreamCounts countStream(const Program& program, const StreamOptions& options, const std::vector<ScaleGroup>& groups,
                         std::size_t eventCount, std::uint32_t lineBytes);

/// One value of one metric of one group at one point. "method" says where "predicted" comes
/// from: "formula" (derived once, evaluated here), "counted" (the O0 stream of this point was
/// counted: accesses the model does not describe), or "" with a "note" saying why there is none.
struct ScaleCell {
  std::optional<double> predicted;
  std::optional<double> simulated;
  std::string method;
  std::string note;
  bool approximate = false;
};

struct ScalePoint {
  std::int64_t value = 0;                      // of the swept parameter
  std::map<std::string, std::int64_t> bound;   // every parameter the sweep set at this point
  std::vector<std::vector<ScaleCell>> cells;   // [group][metric]
};

/// The formulas of the predicted side, derived once from a trace and evaluated per point:
/// counts and footprints from the polyhedral model, misses from the miss model. A group or
/// metric without a formula is counted per point instead (see measurePoint).
class ScaleFormulas {
 public:
  ScaleFormulas() = default;
  /// Derives what it can for "groups" of "contexts" and "metrics"; never throws.
  static ScaleFormulas derive(const trace::Trace& contexts, const std::vector<ScaleGroup>& groups, const std::vector<ScaleMetric>& metrics,
                              const cache::HierarchyConfig& config, const sym::CountLimits& limits = {});
  /// The formula's value for group "group", metric "metric" at "values"; nullopt when there is
  /// no formula (then "why", if given, says why).
  std::optional<double> evaluate(std::size_t group, ScaleMetric metric, const std::map<std::string, std::int64_t>& values,
                                 std::string* why = nullptr) const;
  /// Whether group "group" has an exact formula for "metric" (then a point where it has no value,
  /// e.g. a count beyond 64 bits, is left empty instead of being counted on the stream).
  bool hasFormula(std::size_t group, ScaleMetric metric) const;
  /// Sentences on the formulas (breakpoints, resonances) over [lo, hi] of "parameter".
  std::vector<std::string> breakpoints(const std::string& parameter, std::int64_t lo, std::int64_t hi,
                                       const std::map<std::string, std::int64_t>& values) const;
  std::vector<std::string> resonances(const std::string& parameter, std::int64_t lo, std::int64_t hi,
                                      const std::map<std::string, std::int64_t>& values) const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

/// What measuring one point needs besides the trace.
struct PointSetup {
  ConcretizeOptions options;  // bindings of this point, the simulated register model, placement
  CompilerTarget target;      // the compiler the simulated side models: its plan is made per point's trace
  StreamOptions stream;
  cache::HierarchyConfig config;
  std::vector<ScaleMetric> metrics;
  bool simulate = false;
  Progress progress;  // of the simulation, may be empty
};

/// The cells of every group of "groups" (made from "contexts") at one point, [group][metric]:
/// predicted by "formulas" (derived from the same trace), else counted on this point's O0
/// stream; simulated when asked. Throws BindingError when a parameter has no value.
std::vector<std::vector<ScaleCell>> measurePoint(const trace::Trace& contexts, const std::vector<ScaleGroup>& groups,
                                                 const ScaleFormulas& formulas, const PointSetup& setup);

/// A whole sweep, ready to render.
struct ScaleSeries {
  std::string parameter;
  std::vector<ScaleMetric> metrics;
  std::vector<ScaleGroup> groups;  // events of the first point's trace (names are what matters)
  std::vector<ScalePoint> points;
  bool simulated = false;
  std::string model;  // the compiler the simulated side models ("gcc -O2")
  std::vector<std::string> breakpoints;  // one sentence each
  std::vector<std::string> resonances;
  std::vector<std::string> notes;        // how values were obtained, modelling choices
};

}  // namespace cats::sim
