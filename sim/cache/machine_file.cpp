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

HierarchyConfig hierarchyFrom(const json& root) {
  if (!root.is_object()) fail("machine file", "must be a JSON object");
  rejectUnknown(root, "", {"format", "version", "description", "inclusion", "seed", "levels"});
  if (text(required(root, "format", "format"), "format") != kFormat) fail("format", "must be \"" + std::string(kFormat) + "\"");
  if (whole(required(root, "version", "version"), "version", std::numeric_limits<int>::max()) != kMachineFormatVersion)
    fail("version", "must be " + std::to_string(kMachineFormatVersion));
  if (auto it = root.find("description"); it != root.end()) text(*it, "description");
  HierarchyConfig config;
  config.inclusion = policy(root, "", "inclusion", config.inclusion, parseInclusion, "non-inclusive, inclusive or exclusive");
  if (auto it = root.find("seed"); it != root.end()) config.seed = whole(*it, "seed", std::numeric_limits<std::uint64_t>::max());
  const json& levels = required(root, "levels", "levels");
  if (!levels.is_array() || levels.empty()) fail("levels", "must be a non-empty array");
  for (std::size_t i = 0; i < levels.size(); ++i) config.levels.push_back(levelFrom(levels[i], "levels[" + std::to_string(i) + "]"));
  std::vector<std::string> problems = validate(config);
  if (!problems.empty()) {
    std::string message = "invalid cache hierarchy:";
    for (const std::string& p : problems) message += "\n  " + p;
    throw MachineFileError(message);
  }
  return config;
}

}  // namespace

HierarchyConfig parseMachineJson(std::string_view text) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    throw MachineFileError(std::string("not valid JSON: ") + e.what());
  }
  return hierarchyFrom(root);
}

HierarchyConfig readMachineFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw MachineFileError(path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return parseMachineJson(text.str());
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
