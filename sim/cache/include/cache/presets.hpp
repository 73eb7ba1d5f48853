// Named machines, so a user can say "--machine intel-skylake" instead of writing a machine file.
#pragma once

#include "cache/config.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace cats::cache {

/// The machine called "name"; throws std::invalid_argument naming the known ones otherwise.
HierarchyConfig preset(std::string_view name);
/// Every name preset() knows, in a fixed order.
std::vector<std::string> presetNames();

}  // namespace cats::cache
