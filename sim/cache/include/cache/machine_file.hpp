// Machine files: a cache hierarchy as versioned JSON ("format": "cats-static-machine",
// "version": 1), documented field by field in docs/cache-core.md.
#pragma once

#include "cache/config.hpp"

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cats::cache {

inline constexpr int kMachineFormatVersion = 1;

class MachineFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The hierarchy a machine file's text describes; throws MachineFileError naming the field that is
/// wrong ("levels[1].size: ..."), or listing validate()'s problems.
HierarchyConfig parseMachineJson(std::string_view text);
/// parseMachineJson() of the file at "path"; messages start with the path.
HierarchyConfig readMachineFile(const std::string& path);
/// Every hierarchy of a machine file: the one its "levels" describe, or each member of its
/// "hierarchies" list, in order (parseMachineJson() accepts a list of one only).
std::vector<HierarchyConfig> parseMachinesJson(std::string_view text);
/// parseMachinesJson() of the file at "path"; messages start with the path.
std::vector<HierarchyConfig> readMachinesFile(const std::string& path);
/// The machine file of "config" (2-space indented, fields in a fixed order); parseMachineJson()
/// reads it back equal, except classifyMisses, which is an analysis option, not part of a machine.
std::string writeMachineJson(const HierarchyConfig& config);

}  // namespace cats::cache
