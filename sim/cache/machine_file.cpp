// Reading and writing machine files. Every error names the JSON field it is about.
#include "cache/machine_file.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <limits>
#include <set>
#include <sstream>

namespace cats::cache {

namespace {

using nlohmann::json;

constexpr std::string_view kFormat = "cats-static-machine";

[[noreturn]] void fail(const std::string& field, const std::string& problem) { throw MachineFileError(field + ": " + problem); }

/* The path of member "key" of the object at "field" ("" is the root). */
std::string member(const std::string& field, const std::string& key) { return field.empty() ? key : field + "." + key; }

/* Reject members of "object" (at "field") not in "known": a misspelt optional field would
   otherwise be silently ignored. */
void rejectUnknown(const json& object, const std::string& field, const std::set<std::string>& known) {
  for (const auto& [key, value] : object.items())
    if (!known.contains(key)) fail(member(field, key), "unknown field");
}

const json& required(const json& object, const std::string& field, const std::string& key) {
  auto it = object.find(key);
  if (it == object.end()) fail(field, "missing");
  return *it;
}

std::string text(const json& value, const std::string& field) {
  if (!value.is_string()) fail(field, "must be a string");
  return value.get<std::string>();
}

std::uint64_t whole(const json& value, const std::string& field, std::uint64_t max) {
  if (!value.is_number_unsigned()) fail(field, "must be a non-negative whole number");
  std::uint64_t n = value.get<std::uint64_t>();
  if (n > max) fail(field, std::to_string(n) + " is too large");
  return n;
}

/* A policy field: absent keeps "fallback"; present must be one of the names "parse" accepts. */
template <class E>
E policy(const json& level, const std::string& field, const std::string& key, E fallback, std::optional<E> (*parse)(std::string_view),
         std::string_view choices) {
  auto it = level.find(key);
  if (it == level.end()) return fallback;
  std::string name = text(*it, member(field, key));
  if (auto value = parse(name)) return *value;
  fail(member(field, key), "unknown value \"" + name + "\" (expected " + std::string(choices) + ")");
}

std::uint64_t size(const json& value, const std::string& field) {
  if (value.is_number()) return whole(value, field, std::numeric_limits<std::uint64_t>::max());
  Parsed<std::uint64_t> parsed = parseByteSize(text(value, field));
  if (!parsed.value) fail(field, parsed.error);
  return *parsed.value;
}

std::uint32_t associativity(const json& value, const std::string& field) {
  if (value.is_string()) {
    if (value.get<std::string>() == "full") return 0;
    fail(field, "must be a whole number or \"full\"");
  }
  return static_cast<std::uint32_t>(whole(value, field, std::numeric_limits<std::uint32_t>::max()));
}

LevelConfig levelFrom(const json& value, const std::string& field) {
  if (!value.is_object()) fail(field, "must be an object");
  rejectUnknown(value, field, {"name", "size", "associativity", "line", "replacement", "write", "allocate"});
  LevelConfig level;
  level.name = text(required(value, field + ".name", "name"), field + ".name");
  level.sizeBytes = size(required(value, field + ".size", "size"), field + ".size");
  level.associativity = associativity(required(value, field + ".associativity", "associativity"), field + ".associativity");
  level.lineBytes = static_cast<std::uint32_t>(
      whole(required(value, field + ".line", "line"), field + ".line", std::numeric_limits<std::uint32_t>::max()));
  level.replacement = policy(value, field, "replacement", level.replacement, parseReplacement, "lru, fifo, random or plru");
  level.write = policy(value, field, "write", level.write, parseWritePolicy, "write-back or write-through");
  level.allocate = policy(value, field, "allocate", level.allocate, parseAllocatePolicy, "write-allocate or no-write-allocate");
  return level;
}

/* The hierarchy of the object at "field" ("" is the root): inclusion, seed and levels. */
HierarchyConfig hierarchyAt(const json& object, const std::string& field) {
  if (auto it = object.find("description"); it != object.end()) text(*it, member(field, "description"));
  HierarchyConfig config;
  config.inclusion = policy(object, field, "inclusion", config.inclusion, parseInclusion, "non-inclusive, inclusive or exclusive");
  if (auto it = object.find("seed"); it != object.end()) config.seed = whole(*it, member(field, "seed"), std::numeric_limits<std::uint64_t>::max());
  const json& levels = required(object, member(field, "levels"), "levels");
  if (!levels.is_array() || levels.empty()) fail(member(field, "levels"), "must be a non-empty array");
  for (std::size_t i = 0; i < levels.size(); ++i)
    config.levels.push_back(levelFrom(levels[i], member(field, "levels[" + std::to_string(i) + "]")));
  std::vector<std::string> problems = validate(config);
  if (!problems.empty()) {
    std::string message = field.empty() ? "invalid cache hierarchy:" : field + ": invalid cache hierarchy:";
    for (const std::string& p : problems) message += "\n  " + p;
    throw MachineFileError(message);
  }
  return config;
}

/* Every hierarchy of the file: its own levels, or each member of "hierarchies". */
std::vector<HierarchyConfig> hierarchiesFrom(const json& root) {
  if (!root.is_object()) fail("machine file", "must be a JSON object");
  rejectUnknown(root, "", {"format", "version", "description", "inclusion", "seed", "levels", "hierarchies"});
  if (text(required(root, "format", "format"), "format") != kFormat) fail("format", "must be \"" + std::string(kFormat) + "\"");
  if (whole(required(root, "version", "version"), "version", std::numeric_limits<int>::max()) != kMachineFormatVersion)
    fail("version", "must be " + std::to_string(kMachineFormatVersion));
  auto list = root.find("hierarchies");
  if (list == root.end()) return {hierarchyAt(root, "")};
  for (const char* key : {"inclusion", "seed", "levels"})
    if (root.contains(key)) fail(key, "not allowed beside \"hierarchies\" (give it in each hierarchy)");
  if (!list->is_array() || list->empty()) fail("hierarchies", "must be a non-empty array");
  std::vector<HierarchyConfig> out;
  for (std::size_t i = 0; i < list->size(); ++i) {
    const std::string field = "hierarchies[" + std::to_string(i) + "]";
    if (!(*list)[i].is_object()) fail(field, "must be an object");
    rejectUnknown((*list)[i], field, {"description", "inclusion", "seed", "levels"});
    out.push_back(hierarchyAt((*list)[i], field));
  }
  return out;
}

json parse(std::string_view text) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    throw MachineFileError(std::string("not valid JSON: ") + e.what());
  }
}

std::string contents(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw MachineFileError(path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::vector<HierarchyConfig> parseMachinesJson(std::string_view text) { return hierarchiesFrom(parse(text)); }

HierarchyConfig parseMachineJson(std::string_view text) {
  std::vector<HierarchyConfig> all = parseMachinesJson(text);
  if (all.size() != 1) fail("hierarchies", "holds " + std::to_string(all.size()) + " hierarchies where one is expected");
  return all.front();
}

std::vector<HierarchyConfig> readMachinesFile(const std::string& path) {
  std::string text = contents(path);
  try {
    return parseMachinesJson(text);
  } catch (const MachineFileError& e) {
    throw MachineFileError(path + ": " + e.what());
  }
}

HierarchyConfig readMachineFile(const std::string& path) {
  std::string text = contents(path);
  try {
    return parseMachineJson(text);
  } catch (const MachineFileError& e) {
    throw MachineFileError(path + ": " + e.what());
  }
}

std::string writeMachineJson(const HierarchyConfig& config) {
  nlohmann::ordered_json root;
  root["format"] = kFormat;
  root["version"] = kMachineFormatVersion;
  root["inclusion"] = toString(config.inclusion);
  root["seed"] = config.seed;
  root["levels"] = nlohmann::ordered_json::array();
  for (const LevelConfig& level : config.levels) {
    nlohmann::ordered_json l;
    l["name"] = level.name;
    std::string size = formatByteSize(level.sizeBytes);
    if (size == std::to_string(level.sizeBytes))
      l["size"] = level.sizeBytes;
    else
      l["size"] = size;
    if (level.associativity == 0)
      l["associativity"] = "full";
    else
      l["associativity"] = level.associativity;
    l["line"] = level.lineBytes;
    l["replacement"] = toString(level.replacement);
    l["write"] = toString(level.write);
    l["allocate"] = toString(level.allocate);
    root["levels"].push_back(std::move(l));
  }
  return root.dump(2) + "\n";
}

}  // namespace cats::cache
