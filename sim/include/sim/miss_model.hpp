// Misses as formulas of the problem size (docs/polyhedral.md, "Miss model"): per container and
// cache level, reuse distances and footprints between reuses from the polyhedral model (the layer
// conditions of Kerncraft, symbolic and general), the sizes where a reuse stops fitting a level
// (breakpoints) and the sizes where a reuse maps to too few sets (set-conflict resonance). A
// predictor beside the simulator: where it cannot decide it says so, and scale falls back to
// simulation.
#pragma once

#include "cache/config.hpp"
#include "symbolic/polyhedral.hpp"
#include "tracer/poly_model.hpp"
#include "tracer/trace.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cats::sim {

/// Predicted misses of one container at one level at one parameter point.
struct MissEstimate {
  std::size_t container = 0;  // Trace::containers index
  std::size_t level = 0;      // HierarchyConfig::levels index
  std::optional<double> misses;  // none: the model cannot decide here (see reason)
  std::string reason;
};

/// A size where a reuse stops fitting a level: "B's column reuse fits D1 while 8*N*8 <= 32 KiB".
struct Breakpoint {
  std::size_t container = 0;
  std::size_t level = 0;
  std::string parameter;
  std::int64_t value = 0;     // the first value of "parameter" where the reuse no longer fits
  std::string condition;      // the layer condition, as a formula
  std::string description;    // one sentence for people
};

/// A size where the lines of one reuse map to too few sets of a level, and the padding that helps.
struct Resonance {
  std::size_t container = 0;
  std::size_t level = 0;
  std::string parameter;
  std::int64_t value = 0;
  std::uint64_t setsUsed = 0;     // distinct sets the reuse's lines map to
  std::uint64_t linesNeeded = 0;  // lines the reuse must keep
  std::string padding;            // e.g. "pad rows by 8 elements (64 bytes)"
  std::string description;
};

class MissModel {
 public:
  /// Derives the formulas once from the model of "contexts" for "config".
  static MissModel build(const trace::Trace& contexts, const trace::PolyModel& model, const cache::HierarchyConfig& config);
  /// Every container at every level at "values" (every parameter bound): misses of the source
  /// access stream (what simulate --model O0 replays), 0 for a container no access touches;
  /// no value, with the reason, for a container the model cannot decide (indirect, data-dependent
  /// bounds or branches, non-affine offsets) and for all when a parameter has no value.
  std::vector<MissEstimate> predict(const sym::ParamValues& values) const;
  /// Breakpoints and resonances of "parameter" over [lo, hi], the other parameters at "values";
  /// empty when lo > hi or "parameter" is not a symbol of the trace. Breakpoints are capacity
  /// flips (layer conditions); resonances are listed per value, container and level.
  std::vector<Breakpoint> breakpoints(const std::string& parameter, std::int64_t lo, std::int64_t hi,
                                      const sym::ParamValues& values) const;
  std::vector<Resonance> resonances(const std::string& parameter, std::int64_t lo, std::int64_t hi,
                                    const sym::ParamValues& values) const;

 private:
  struct Impl;
  std::shared_ptr<const Impl> impl_;
};

}  // namespace cats::sim
