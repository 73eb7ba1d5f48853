// The findings of `cats-static review` (issue 11): cache problems a transformation of the
// model fixes, each with the misses the simulator predicted before and after it. Built once by
// the driver, rendered as text (largest gain first), JSON ("format": "cats-static-review",
// "version": 1) or SARIF 2.1.0 (docs/review.md). Renderers compute nothing.
#pragma once

#include "ir/ir.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cats::report {

inline constexpr int kReviewFormatVersion = 1;

/// Misses of one cache level, as the program is and with the fix applied.
struct PredictedMisses {
  std::string level;  // "D1", "LL", ...
  std::uint64_t before = 0;
  std::uint64_t after = 0;
  /// What the fix saves, in percent of "before" (negative: it costs).
  double gainPercent() const;
};

/// Where `review --fix-diff` rewrites the source for a finding (docs/review.md, "--fix-diff").
/// Not part of any report format: the finders know the places, the fix-diff writer uses them.
struct SourceFix {
  enum class Kind { SwapLoopHeaders, GrowLastDimension };
  Kind kind = Kind::SwapLoopHeaders;
  ir::SourceLoc first;        // SwapLoopHeaders: the outer loop; GrowLastDimension: the array's declaration
  ir::SourceLoc second;       // SwapLoopHeaders: the inner loop
  std::int64_t elements = 0;  // GrowLastDimension: added to the last dimension
};

struct Finding {
  std::string kind;  // "interchange", "padding", "fusion", "tiling", ...; "false-sharing" (its predicted levels start with "coherence")
  std::string function;
  std::string file;
  int line = 0;
  std::string message;         // the problem, in words
  std::string recommendation;  // what to do; empty when nothing is recommended (illegal, not evaluated)
  std::optional<bool> legal;   // the dependences' verdict; none: unknown
  /// The first level (D1) then the others nearest the core first; empty: not evaluated.
  std::vector<PredictedMisses> predicted;
  /// hoisting: the first level's accesses (not misses) before and after, in the text report
  /// only (the JSON's "predicted" stays misses); none for the other kinds.
  std::optional<PredictedMisses> accesses = std::nullopt;
  /// The simple source patch of a recommended finding, when its kind has one.
  std::optional<SourceFix> fix = std::nullopt;
  /// The problem as a function of the size, where the sizes are parameters of the model and
  /// the formulas decide it: sentences on the layer conditions and resonances (docs/review.md).
  std::vector<std::string> sizes = {};
  /// The D1 gain in percent, none when not evaluated: of misses, or the larger of the miss
  /// and access gains when "accesses" is known (what --min-gain and the order use).
  std::optional<double> gainPercent() const;
};

/// Largest predicted gain first, the unevaluated last; ties by file, line and kind.
void sortFindings(std::vector<Finding>& findings);
/// "findings" without the evaluated ones whose predicted gain is below "minGainPercent".
std::vector<Finding> withMinimumGain(std::vector<Finding> findings, double minGainPercent);

std::string reviewText(const std::vector<Finding>& findings);
std::string reviewJson(const std::vector<Finding>& findings);
std::string reviewSarif(const std::vector<Finding>& findings, const std::string& toolVersion);

}  // namespace cats::report
