// One point of a sweep: formulas evaluated, the rest counted on the O0 stream, and on request
// the simulation of the same point (sim/scale.hpp).
#include "sim/scale.hpp"

#include <algorithm>

namespace cats::sim {

namespace {

bool metricNeedsStream(ScaleMetric m) { return m == ScaleMetric::Accesses || m == ScaleMetric::Bytes || m == ScaleMetric::Footprint; }

/* Whether a modelled guess went into "e": a warning on its offset or a data-dependent offset. */
bool eventIsGuessed(const trace::Trace& t, std::size_t e) {
  const auto& c = t.events.at(e).classification;
  return c.approximate || c.kind == trace::AccessClass::Indirect;
}

bool groupIsGuessed(const trace::Trace& t, const ScaleGroup& g) {
  return std::any_of(g.events.begin(), g.events.end(), [&](std::size_t e) { return eventIsGuessed(t, e); });
}

/* The value of a stream-countable metric of group "g" in "counts". */
double streamValue(const StreamCounts& counts, std::size_t g, ScaleMetric m, std::uint32_t lineBytes) {
  switch (m) {
    case ScaleMetric::Accesses: return static_cast<double>(counts.accesses[g]);
    case ScaleMetric::Bytes: return static_cast<double>(counts.bytes[g]);
    case ScaleMetric::Footprint: return static_cast<double>(counts.lines[g]) * lineBytes;
    default: return 0;
  }
}

/* Accesses or misses of "g" at "level" in a simulation result. */
double simulatedValue(const SimulationResult& result, const ScaleGroup& g, ScaleMetric m, std::size_t level) {
  std::uint64_t sum = 0;
  for (std::size_t e : g.events) {
    if (e >= result.byEvent.size()) continue;
    const LevelCounts& c = result.byEvent[e][level];
    sum += m == ScaleMetric::Accesses ? c.accesses() : c.misses();
  }
  return static_cast<double>(sum);
}

}  // namespace

std::vector<std::vector<ScaleCell>> measurePoint(const trace::Trace& contexts, const std::vector<ScaleGroup>& groups,
                                                 const ScaleFormulas& formulas, const PointSetup& setup) {
  const std::uint32_t lineBytes = setup.config.levels.empty() ? 64 : setup.config.levels.front().lineBytes;
  const bool wantsLines = std::find(setup.metrics.begin(), setup.metrics.end(), ScaleMetric::Footprint) != setup.metrics.end();
  std::vector<std::vector<ScaleCell>> cells(groups.size(), std::vector<ScaleCell>(setup.metrics.size()));

  std::optional<StreamCounts> counted;  // the O0 stream of the point, counted only when a formula is missing
  auto countedO0 = [&]() -> const StreamCounts& {
    if (!counted) {
      ConcretizeOptions o0 = setup.options;
      o0.model = RegisterModel::O0;
      StreamOptions stream = setup.stream;
      stream.model = RegisterModel::O0;
      counted = countStream(concretize(contexts, o0), stream, groups, contexts.events.size(), wantsLines ? lineBytes : 0);
    }
    return *counted;
  };

  for (std::size_t g = 0; g < groups.size(); ++g) {
    const bool guessed = groupIsGuessed(contexts, groups[g]);
    for (std::size_t m = 0; m < setup.metrics.size(); ++m) {
      ScaleCell& cell = cells[g][m];
      std::string why;
      if (auto value = formulas.evaluate(g, setup.metrics[m], setup.options.bindings, &why)) {
        cell.predicted = value;
        cell.method = "formula";
        if (setup.metrics[m] == ScaleMetric::Footprint) {
          cell.approximate = true;  // the formula takes every container to start on a line boundary
          cell.note = "assumes line-aligned containers";
        }
      } else if (formulas.hasFormula(g, setup.metrics[m])) {
        cell.note = why;  // a formula without a value here: counting the stream would not end
      } else if (metricNeedsStream(setup.metrics[m])) {
        const StreamCounts& counts = countedO0();
        cell.predicted = streamValue(counts, g, setup.metrics[m], lineBytes);
        cell.method = "counted";
        cell.note = why;
        cell.approximate = guessed || counts.approximate;
      } else {
        cell.note = why.empty() ? "the miss model cannot decide here" : why;
      }
    }
  }
  if (!setup.simulate) return cells;

  CompilationPlan plan = planCompilation(contexts, setup.target);
  ConcretizeOptions options = setup.options;
  options.plan = &plan;
  Program program = concretize(contexts, options);
  SimulationResult result = simulate(program, contexts.events.size(), setup.config, setup.stream, setup.progress);
  std::optional<StreamCounts> simulatedStream;
  for (std::size_t m = 0; m < setup.metrics.size(); ++m) {
    ScaleMetric metric = setup.metrics[m];
    if ((metric == ScaleMetric::Bytes || metric == ScaleMetric::Footprint) && !simulatedStream)
      simulatedStream = countStream(program, setup.stream, groups, contexts.events.size(), wantsLines ? lineBytes : 0);
    for (std::size_t g = 0; g < groups.size(); ++g) {
      ScaleCell& cell = cells[g][m];
      if (metric == ScaleMetric::Bytes || metric == ScaleMetric::Footprint) cell.simulated = streamValue(*simulatedStream, g, metric, lineBytes);
      else cell.simulated = simulatedValue(result, groups[g], metric, metric == ScaleMetric::Accesses ? 0 : missLevel(metric, setup.config).value_or(0));
      if (result.approximate && groupIsGuessed(contexts, groups[g])) cell.approximate = true;
    }
  }
  return cells;
}

}  // namespace cats::sim
