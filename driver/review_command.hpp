// `cats-static review`: sources -> trace -> dependences and candidate transformations -> each
// variant simulated like the program -> findings with the misses predicted before and after
// (issue 11, docs/review.md).
#pragma once

#include "simulate_command.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace cats::driver {

struct ReviewArgs {
  SimulateArgs simulation;  // sources, cache, compiler, branches, trips, placement
  double minGain = 1.0;     // percent of the D1 misses a finding must save
  std::uint32_t threads = 4;  // cores a parallel loop's iterations are dealt to (false sharing)
  std::string format = "text";
  std::optional<std::string> output;
  bool fixDiff = false;                // write the patch of the best simple fix instead of the report
  std::optional<std::string> fixKind;  // with fixDiff: only findings of this kind
  std::string toolVersion;
};

CLI::App* addReviewCommand(CLI::App& app, ReviewArgs& args);
/// 0 ok (findings or not), 1 analysis error, 2 usage error.
int runReview(const ReviewArgs& args);

}  // namespace cats::driver
