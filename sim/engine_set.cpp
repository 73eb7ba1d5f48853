// Building the engine set: single-level LRU configurations of one set count and line size, two
// or more associativities, share a stack family; every other configuration gets its own engine,
// the fast one where it applies.
#include "engine_set.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

namespace cats::sim {

EngineSet::EngineSet(const std::vector<cache::HierarchyConfig>& configs) {
  for (const cache::HierarchyConfig& config : configs) {
    firstLevels_.push_back(levels_);
    levels_ += config.levels.size();
  }
  std::vector<bool> placed(configs.size(), false);
  addFamilies(configs, placed);
  for (std::size_t c = 0; c < configs.size(); ++c) {
    if (placed[c]) continue;
    const cache::HierarchyConfig& config = configs[c];
    if (cache::MruHierarchy::supports(config))
      fast_.push_back({cache::MruHierarchy(config), c, firstLevels_[c], config.levels.size()});
    else
      general_.push_back({cache::Hierarchy(config), c, firstLevels_[c], config.levels.size()});
  }
}

/* A stack family for every set count and line size that at least two associativities share;
   a configuration repeated shares its member. Marks the configurations placed. */
void EngineSet::addFamilies(const std::vector<cache::HierarchyConfig>& configs, std::vector<bool>& placed) {
  std::map<std::uint64_t, std::vector<std::size_t>> byKey;
  for (std::size_t c = 0; c < configs.size(); ++c)
    if (cache::LruStackFamily::fits(configs[c])) byKey[cache::LruStackFamily::familyKey(configs[c])].push_back(c);
  for (const auto& [key, group] : byKey) {
    std::map<std::uint32_t, std::size_t> memberOfWays;
    std::vector<cache::HierarchyConfig> members;
    std::vector<Slot> slots;
    for (std::size_t c : group) {
      const std::uint32_t ways = configs[c].levels[0].associativity;
      auto it = memberOfWays.find(ways);
      if (it == memberOfWays.end()) {
        if (members.size() == cache::LruStackFamily::kMaxMembers) continue;
        it = memberOfWays.emplace(ways, members.size()).first;
        members.push_back(configs[c]);
      }
      slots.push_back({c, firstLevels_[c], it->second});
    }
    if (members.size() < 2) continue;
    for (const Slot& slot : slots) placed[slot.config] = true;
    families_.push_back({cache::LruStackFamily(members), std::move(slots)});
  }
}

bool EngineSet::firstLevelHolds(std::uint64_t address, bool dirty) const {
  return std::all_of(fast_.begin(), fast_.end(), [&](const auto& m) { return m.engine.firstLevelHolds(address, dirty); }) &&
         std::all_of(general_.begin(), general_.end(), [&](const auto& m) { return m.engine.firstLevelHolds(address, dirty); }) &&
         std::all_of(families_.begin(), families_.end(), [&](const auto& f) { return f.engine.firstLevelHolds(address); });
}

void EngineSet::addFirstLevelHits(std::uint64_t reads, std::uint64_t writes) {
  for (auto& m : fast_) m.engine.addFirstLevelHits(reads, writes);
  for (auto& m : general_) m.engine.addFirstLevelHits(reads, writes);
  for (auto& f : families_) f.engine.addFirstLevelHits(reads, writes);
}

std::vector<cache::LevelStats> EngineSet::stats(std::size_t config) const {
  for (const auto& m : fast_)
    if (m.config == config) return m.engine.stats();
  for (const auto& m : general_)
    if (m.config == config) return m.engine.stats();
  for (const auto& f : families_)
    for (const Slot& slot : f.slots)
      if (slot.config == config) return f.engine.stats(slot.member);
  throw std::out_of_range("EngineSet::stats: no configuration " + std::to_string(config));
}

void EngineSet::completeCounts(std::vector<LevelCounts>& counts) const {
  for (std::size_t event = 0; event + levels_ <= counts.size(); event += levels_)
    for (const Family& family : families_) {
      const LevelCounts& lead = counts[event + family.slots.front().offset];
      for (const Slot& slot : family.slots) {
        counts[event + slot.offset].reads = lead.reads;
        counts[event + slot.offset].writes = lead.writes;
      }
    }
}

void EngineSet::resize(Outcome& out) const {
  out.fast.resize(fast_.size());
  out.general.resize(general_.size());
  out.families.resize(families_.size());
}

}  // namespace cats::sim
