// The preset machines. Levels are named "D1"/"LL" in two-level hierarchies (Cachegrind's names, so
// reports line up with cg_annotate) and "D1"/"L2"/"L3" in three-level ones. All use LRU: real
// caches use PLRU variants whose details vendors do not publish, and LRU is what Cachegrind models.
#include "cache/presets.hpp"

#include <array>
#include <stdexcept>

namespace cats::cache {

namespace {

constexpr std::uint64_t kKiB = 1024;
constexpr std::uint64_t kMiB = 1024 * kKiB;

LevelConfig level(std::string name, std::uint64_t size, std::uint32_t ways) { return LevelConfig{std::move(name), size, ways, 64}; }

/* Section 4 of the CATS paper: 2 levels, inclusive, LRU, write-back, write-allocate, 64-byte lines;
   the same geometry as its Cachegrind runs (--D1=32768,8,64 --LL=262144,8,64). */
HierarchyConfig catsPaper() {
  HierarchyConfig c;
  c.levels = {level("D1", 32 * kKiB, 8), level("LL", 256 * kKiB, 8)};
  c.inclusion = Inclusion::Inclusive;
  return c;
}

/* Cachegrind's model with the paper's geometry: non-inclusive, so that miss counts equal
   Cachegrind's when both replay the same trace of aligned accesses. */
HierarchyConfig cachegrind() {
  HierarchyConfig c = catsPaper();
  c.inclusion = Inclusion::NonInclusive;
  return c;
}

/* One core of a Skylake server part: private 32 KiB L1d and 1 MiB L2, and an 8 MiB 16-way slice
   of the shared, non-inclusive L3 (the real slice is 1.375 MiB 11-way per core; a single-core run
   gets more of it). */
HierarchyConfig intelSkylake() {
  HierarchyConfig c;
  c.levels = {level("D1", 32 * kKiB, 8), level("L2", 1 * kMiB, 16), level("L3", 8 * kMiB, 16)};
  c.inclusion = Inclusion::NonInclusive;
  return c;
}

/* One Zen 3 core: 32 KiB L1d, 512 KiB L2 that includes it, and the 32 MiB L3 of its CCX. The real
   L3 is a victim cache of the L2; one inclusion mode per hierarchy models the L1/L2 relation. */
HierarchyConfig amdZen3() {
  HierarchyConfig c;
  c.levels = {level("D1", 32 * kKiB, 8), level("L2", 512 * kKiB, 8), level("L3", 32 * kMiB, 16)};
  c.inclusion = Inclusion::Inclusive;
  return c;
}

struct Preset {
  std::string_view name;
  HierarchyConfig (*make)();
};

constexpr std::array<Preset, 4> kPresets{{
    {"cats-paper", catsPaper},
    {"cachegrind", cachegrind},
    {"intel-skylake", intelSkylake},
    {"amd-zen3", amdZen3},
}};

}  // namespace

HierarchyConfig preset(std::string_view name) {
  for (const Preset& p : kPresets)
    if (p.name == name) return p.make();
  std::string known;
  for (const Preset& p : kPresets) known += (known.empty() ? "" : ", ") + std::string(p.name);
  throw std::invalid_argument("unknown machine \"" + std::string(name) + "\"; known machines: " + known);
}

std::vector<std::string> presetNames() {
  std::vector<std::string> names;
  names.reserve(kPresets.size());
  for (const Preset& p : kPresets) names.emplace_back(p.name);
  return names;
}

}  // namespace cats::cache
