// The sweep of `cats-static scale`: which -D item sweeps a parameter (NAME=LO..HI[:xF|:+S]),
// which bind other parameters to expressions of it (M=N+1), and the values of every point.
// Parsed once, here, so the command receives numbers.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace cats::driver {

struct SweepPlan {
  std::string name;  // the swept parameter
  std::int64_t lo = 0, hi = 0;
  std::vector<std::int64_t> values;  // increasing, distinct, within [lo, hi]
  /// Parameters bound to an expression of "name": NAME -> expression text as given.
  std::map<std::string, std::string> derived;
  /// The -D items that are neither (macros and fixed numbers), handed to the sources as given.
  std::vector<std::string> otherDefines;
};

/// The plan from every -D item and --points; a message on a usage error (no range or two,
/// an empty, unbounded or negative range, a bad step or factor, a step and --points together,
/// too many points).
std::variant<SweepPlan, std::string> planSweep(const std::vector<std::string>& defines, std::optional<std::int64_t> points);

/// The value of derived parameter "expression" when "name" is "value"; nullopt when it is not
/// a C integer expression of "name".
std::optional<std::int64_t> evaluateDerived(const std::string& expression, const std::string& name, std::int64_t value);

}  // namespace cats::driver
