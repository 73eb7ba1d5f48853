#include "cache_options.hpp"

#include "cache/machine_file.hpp"
#include "cache/presets.hpp"

#include <filesystem>

namespace cats::driver {

void addCacheOptions(CLI::App& cmd, CacheArgs& args) {
  cmd.add_option("--D1", args.d1, "First-level data cache: size,assoc,line in bytes (Cachegrind syntax)");
  cmd.add_option("--L2", args.l2, "Second level: size,assoc,line");
  cmd.add_option("--L3", args.l3, "Third level: size,assoc,line");
  cmd.add_option("--LL", args.ll, "Last level: size,assoc,line");
  cmd.add_option("--machine", args.machine, "Machine file (JSON, docs/cache-core.md) or preset: " + [] {
    std::string names;
    for (const auto& n : cache::presetNames()) names += (names.empty() ? "" : ", ") + n;
    return names;
  }());
  cmd.add_option("--replacement", args.replacement, "Replacement of every level: lru, fifo, random, plru");
  cmd.add_option("--write-policy", args.writePolicy, "write-back or write-through, every level");
  cmd.add_option("--allocate", args.allocate, "write-allocate or no-write-allocate, every level");
  cmd.add_option("--inclusion", args.inclusion, "non-inclusive, inclusive or exclusive");
  cmd.add_flag("--miss-classes", args.missClasses,
               "Classify misses as cold, capacity or conflict (a fully associative shadow per level; about 2.5x slower)");
  cmd.add_option("--seed", args.seed, "Seed of every random choice (replacement, indirect offsets, branch draws)")->capture_default_str();
}

std::variant<cache::HierarchyConfig, std::string> hierarchyFrom(const CacheArgs& args) {
  cache::HierarchyConfig config;
  bool geometry = args.d1 || args.l2 || args.l3 || args.ll;
  try {
    if (args.machine && geometry) return std::string("--machine and --D1/--L2/--L3/--LL cannot be combined");
    if (args.machine) {
      config = std::filesystem::exists(*args.machine) ? cache::readMachineFile(*args.machine) : cache::preset(*args.machine);
    } else if (!geometry) {
      config = cache::preset("cats-paper");
    } else {
      auto level = [&](const std::optional<std::string>& text, const std::string& fallback, const char* name) -> std::string {
        auto parsed = cache::parseGeometry(text.value_or(fallback), name);
        if (!parsed.value) return "--" + std::string(name) + ": " + parsed.error;
        config.levels.push_back(*parsed.value);
        return {};
      };
      if (auto e = level(args.d1, "32768,8,64", "D1"); !e.empty()) return e;
      if (args.l2)
        if (auto e = level(args.l2, "", "L2"); !e.empty()) return e;
      if (args.l3)
        if (auto e = level(args.l3, "", "L3"); !e.empty()) return e;
      if (args.ll)
        if (auto e = level(args.ll, "", "LL"); !e.empty()) return e;
    }
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
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
  std::vector<std::string> problems = cache::validate(config);
  if (!problems.empty()) {
    std::string text = "invalid cache configuration:";
    for (const auto& p : problems) text += "\n  " + p;
    return text;
  }
  return config;
}

}  // namespace cats::driver
