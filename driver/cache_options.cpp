#include "cache_options.hpp"

#include "cache/machine_file.hpp"
#include "cache/presets.hpp"

#include <algorithm>
#include <filesystem>

namespace cats::driver {

void addCacheOptions(CLI::App& cmd, CacheArgs& args) {
  const std::string repeat = " (repeatable: one configuration each, simulated in one pass)";
  cmd.add_option("--D1", args.d1, "First-level data cache: size,assoc,line in bytes (Cachegrind syntax)" + repeat)->allow_extra_args(false);
  cmd.add_option("--L2", args.l2, "Second level: size,assoc,line" + repeat)->allow_extra_args(false);
  cmd.add_option("--L3", args.l3, "Third level: size,assoc,line" + repeat)->allow_extra_args(false);
  cmd.add_option("--LL", args.ll, "Last level: size,assoc,line" + repeat)->allow_extra_args(false);
  cmd.add_option("--machine", args.machine, "Machine file (JSON, docs/cache-core.md; may list several hierarchies) or preset" + repeat + ": " + [] {
       std::string names;
       for (const auto& n : cache::presetNames()) names += (names.empty() ? "" : ", ") + n;
       return names;
     }())->allow_extra_args(false);
  cmd.add_option("--replacement", args.replacement, "Replacement of every level: lru, fifo, random, plru");
  cmd.add_option("--write-policy", args.writePolicy, "write-back or write-through, every level");
  cmd.add_option("--allocate", args.allocate, "write-allocate or no-write-allocate, every level");
  cmd.add_option("--inclusion", args.inclusion, "non-inclusive, inclusive or exclusive");
  cmd.add_flag("--miss-classes", args.missClasses,
               "Classify misses as cold, capacity or conflict (a fully associative shadow per level; about 2.5x slower)");
  cmd.add_option("--seed", args.seed, "Seed of every random choice (replacement, indirect offsets, branch draws)")->capture_default_str();
}

void addStatisticsOptions(CLI::App& cmd, CacheArgs& args) {
  cmd.add_flag(
      "--set-histogram", args.setHistogram,
      "Also count misses per set index of every level, to expose conflict thrashing (one configuration; plain engine, no warping)");
  cmd.add_flag("--reuse-matrix", args.reuseMatrix,
               "Also count hits by the calling context that brought the line in and the one that hit it (one configuration; plain "
               "engine, no bulk hits or warping)");
  cmd.add_flag("--traffic", args.traffic, "Also report the bytes moved across the boundary below each level (one configuration)");
}

namespace {

struct GeometryOption {
  const char* name;
  const std::vector<std::string>* values;
};

/* How many configurations the geometry options make: each is given 0, 1 or the same n > 1
   times; otherwise a message (a cross product or a guess at pairing would be ambiguous). */
std::variant<std::size_t, std::string> geometryCount(const std::vector<GeometryOption>& options) {
  std::size_t count = 1;
  const GeometryOption* repeated = nullptr;
  for (const GeometryOption& o : options) {
    if (o.values->size() <= 1) continue;
    if (repeated && o.values->size() != count)
      return "--" + std::string(repeated->name) + " is given " + std::to_string(count) + " times and --" + o.name + " " +
             std::to_string(o.values->size()) + " times: options given more than once pair up in order, so they must be given equally often";
    repeated = &o;
    count = o.values->size();
  }
  return count;
}

/* Configuration "index" of the geometry options, or a message. */
std::variant<cache::HierarchyConfig, std::string> geometryConfig(const std::vector<GeometryOption>& options, std::size_t index) {
  cache::HierarchyConfig config;
  for (const GeometryOption& o : options) {
    const bool first = std::string(o.name) == "D1";
    if (o.values->empty() && !first) continue;
    const std::string text = o.values->empty() ? "32768,8,64" : (*o.values)[o.values->size() == 1 ? 0 : index];
    auto parsed = cache::parseGeometry(text, o.name);
    if (!parsed.value) return "--" + std::string(o.name) + ": " + parsed.error;
    config.levels.push_back(*parsed.value);
  }
  return config;
}

/* The hierarchies of --machine (files, each one or more, or presets) or of the geometry options. */
std::variant<std::vector<cache::HierarchyConfig>, std::string> baseConfigs(const CacheArgs& args) {
  const std::vector<GeometryOption> geometry = {{"D1", &args.d1}, {"L2", &args.l2}, {"L3", &args.l3}, {"LL", &args.ll}};
  const bool anyGeometry = std::any_of(geometry.begin(), geometry.end(), [](const GeometryOption& o) { return !o.values->empty(); });
  std::vector<cache::HierarchyConfig> out;
  if (!args.machine.empty() && anyGeometry) return std::string("--machine and --D1/--L2/--L3/--LL cannot be combined");
  if (!args.machine.empty()) {
    for (const std::string& machine : args.machine) {
      if (!std::filesystem::exists(machine)) {
        out.push_back(cache::preset(machine));
        continue;
      }
      std::vector<cache::HierarchyConfig> listed = cache::readMachinesFile(machine);
      out.insert(out.end(), listed.begin(), listed.end());
    }
    return out;
  }
  if (!anyGeometry) return std::vector<cache::HierarchyConfig>{cache::preset("cats-paper")};
  auto count = geometryCount(geometry);
  if (auto* message = std::get_if<std::string>(&count)) return *message;
  for (std::size_t i = 0; i < std::get<std::size_t>(count); ++i) {
    auto config = geometryConfig(geometry, i);
    if (auto* message = std::get_if<std::string>(&config)) return *message;
    out.push_back(std::get<cache::HierarchyConfig>(config));
  }
  return out;
}

/* The policy options applied to "config", or a message. */
std::string applyPolicies(const CacheArgs& args, cache::HierarchyConfig& config) {
  if (args.replacement) {
    auto r = cache::parseReplacement(*args.replacement);
    if (!r) return "--replacement: '" + *args.replacement + "' is not lru, fifo, random or plru";
    for (auto& l : config.levels) l.replacement = *r;
  }
  if (args.writePolicy) {
    auto w = cache::parseWritePolicy(*args.writePolicy);
    if (!w) return "--write-policy: '" + *args.writePolicy + "' is not write-back or write-through";
    for (auto& l : config.levels) l.write = *w;
  }
  if (args.allocate) {
    auto a = cache::parseAllocatePolicy(*args.allocate);
    if (!a) return "--allocate: '" + *args.allocate + "' is not write-allocate or no-write-allocate";
    for (auto& l : config.levels) l.allocate = *a;
  }
  if (args.inclusion) {
    auto i = cache::parseInclusion(*args.inclusion);
    if (!i) return "--inclusion: '" + *args.inclusion + "' is not non-inclusive, inclusive or exclusive";
    config.inclusion = *i;
  }
  config.seed = args.seed;
  config.classifyMisses = args.missClasses;
  config.countSetMisses = args.setHistogram;
  config.trackFillers = args.reuseMatrix;
  return {};
}

}  // namespace

std::variant<std::vector<cache::HierarchyConfig>, std::string> hierarchiesFrom(const CacheArgs& args) {
  std::variant<std::vector<cache::HierarchyConfig>, std::string> base;
  try {
    base = baseConfigs(args);
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
  if (auto* message = std::get_if<std::string>(&base)) return *message;
  auto& configs = std::get<std::vector<cache::HierarchyConfig>>(base);
  if (configs.size() > 1 && (args.setHistogram || args.reuseMatrix || args.traffic))
    return "--set-histogram, --reuse-matrix and --traffic take one cache configuration; the options describe " +
           std::to_string(configs.size());
  for (std::size_t c = 0; c < configs.size(); ++c) {
    if (auto message = applyPolicies(args, configs[c]); !message.empty()) return message;
    std::vector<std::string> problems = cache::validate(configs[c]);
    if (!problems.empty()) {
      std::string text = configs.size() == 1 ? "invalid cache configuration:" : "invalid cache configuration " + std::to_string(c + 1) + ":";
      for (const auto& p : problems) text += "\n  " + p;
      return text;
    }
  }
  return configs;
}

std::variant<cache::HierarchyConfig, std::string> hierarchyFrom(const CacheArgs& args) {
  auto configs = hierarchiesFrom(args);
  if (auto* message = std::get_if<std::string>(&configs)) return *message;
  const auto& all = std::get<std::vector<cache::HierarchyConfig>>(configs);
  if (all.size() != 1) return "this command takes one cache configuration; the options describe " + std::to_string(all.size());
  return all.front();
}

}  // namespace cats::driver
