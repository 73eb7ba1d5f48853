// The cache hierarchy a command line describes (--D1/--L2/--L3/--LL, --machine, policies).
#pragma once

#include "cache/config.hpp"
#include "simulate_command.hpp"

#include <string>
#include <variant>

namespace cats::driver {

void addCacheOptions(CLI::App& cmd, CacheArgs& args);
/// The hierarchy, or a message saying what is wrong with the options.
std::variant<cache::HierarchyConfig, std::string> hierarchyFrom(const CacheArgs& args);

}  // namespace cats::driver
