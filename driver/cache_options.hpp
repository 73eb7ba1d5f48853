// The cache hierarchies a command line describes (--D1/--L2/--L3/--LL, --machine, policies).
#pragma once

#include "cache/config.hpp"
#include "simulate_command.hpp"

#include <string>
#include <variant>
#include <vector>

namespace cats::driver {

void addCacheOptions(CLI::App& cmd, CacheArgs& args);
/// simulate's optional statistics: --set-histogram, --reuse-matrix, --traffic.
void addStatisticsOptions(CLI::App& cmd, CacheArgs& args);
/// The hierarchy, or a message saying what is wrong with the options (also when they describe several).
std::variant<cache::HierarchyConfig, std::string> hierarchyFrom(const CacheArgs& args);
/// Every hierarchy the options describe (docs/decisions.md, "Several cache configurations"):
/// geometry options given more than once pair up in order, one given once goes into every
/// configuration; --machine adds each hierarchy of each file or preset. Or what is wrong.
std::variant<std::vector<cache::HierarchyConfig>, std::string> hierarchiesFrom(const CacheArgs& args);

}  // namespace cats::driver
