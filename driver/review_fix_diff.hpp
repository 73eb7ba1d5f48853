// `cats-static review --fix-diff` (docs/review.md, "--fix-diff"): the source patch of the best
// recommended finding that has a simple one, as a unified diff, confirmed by simulating the
// patched sources again with the same options.
#pragma once

#include "review_command.hpp"

#include "cache/config.hpp"
#include "reports/review.hpp"

#include <string>
#include <vector>

namespace cats::driver {

struct FixDiffOutcome {
  std::string text;  // the diff with its header lines; "" when no finding has a simple patch
  int exitCode = 0;  // 1: the patched sources could not be simulated (nothing is written then)
};

/// The patch of the first of "findings" (sorted, filtered; of args.fixKind when given) that is
/// recommended and that the frontend can rewrite simply, re-simulated with "configs"; one line
/// on stderr for every other finding, saying why it is not in the diff.
FixDiffOutcome fixDiff(const ReviewArgs& args, const std::vector<cache::HierarchyConfig>& configs, const std::vector<report::Finding>& findings);

}  // namespace cats::driver
