// Several cache hierarchies fed the same stream in one pass (`simulate` with several
// configurations): run<> in sim/simulate.cpp drives it like one engine whose levels are every
// configuration's levels side by side, configuration c's at firstLevels()[c]. Single-level LRU
// configurations sharing set count and line size run as one LruStackFamily.
#pragma once

#include "attribution.hpp"
#include "cache/lru_stack_family.hpp"

#include <cstddef>
#include <vector>

namespace cats::sim {

class EngineSet {
 public:
  /// What one access did in every member: fast engines, general ones, stack families.
  struct Outcome {
    std::vector<cache::MruOutcome> fast;
    std::vector<cache::Outcome> general;
    std::vector<cache::FamilyOutcome> families;
  };

  explicit EngineSet(const std::vector<cache::HierarchyConfig>& configs);

  /// The levels of all configurations: the counters of one event are this many LevelCounts.
  std::size_t levels() const { return levels_; }
  /// Where configuration c's first level sits among levels().
  const std::vector<std::size_t>& firstLevels() const { return firstLevels_; }

  /// One access through every member.
  void access(std::uint64_t address, std::uint32_t size, bool isWrite, Outcome& out) {
    if (out.fast.size() != fast_.size() || out.general.size() != general_.size() || out.families.size() != families_.size()) resize(out);
    for (std::size_t i = 0; i < fast_.size(); ++i) fast_[i].engine.access(address, size, isWrite, out.fast[i]);
    for (std::size_t i = 0; i < general_.size(); ++i) general_[i].engine.access(address, size, isWrite, out.general[i]);
    for (std::size_t i = 0; i < families_.size(); ++i) families_[i].engine.access(address, size, isWrite, out.families[i]);
  }

  /// Adds "out" to the counters of one event ("counts": levels() of them).
  void attribute(const Outcome& out, bool isWrite, LevelCounts* counts) const {
    for (std::size_t i = 0; i < fast_.size(); ++i) attributeMru(out.fast[i], fast_[i].levels, isWrite, counts + fast_[i].offset);
    for (std::size_t i = 0; i < general_.size(); ++i)
      sim::attribute(out.general[i], general_[i].levels, isWrite, counts + general_[i].offset);
    for (std::size_t i = 0; i < families_.size(); ++i) attributeFamily(families_[i], out.families[i].missed, isWrite, counts);
  }

  /// Completes counters attribute() left to the end ("counts": levels() per event).
  void completeCounts(std::vector<LevelCounts>& counts) const;

  /// True if every member's first level holds the line of "address" (dirty too if "dirty").
  bool firstLevelHolds(std::uint64_t address, bool dirty) const;

  /// First-level hits every member's caller proved changed nothing but the counters.
  void addFirstLevelHits(std::uint64_t reads, std::uint64_t writes);

  std::vector<cache::LevelStats> stats(std::size_t config) const;

 private:
  template <class Engine>
  struct Member {
    Engine engine;
    std::size_t config = 0;  // index in the configurations given
    std::size_t offset = 0;  // its first level among levels()
    std::size_t levels = 0;
  };

  /// A configuration a stack family simulates: its member there.
  struct Slot {
    std::size_t config = 0;
    std::size_t offset = 0;
    std::size_t member = 0;
  };
  struct Family {
    cache::LruStackFamily engine;
    std::vector<Slot> slots;
  };

  /* Every family member sees every access: its reads and writes go to the first slot only
     (completeCounts() copies them), its misses to each slot whose member missed. */
  static void attributeFamily(const Family& family, std::uint64_t missed, bool isWrite, LevelCounts* counts) {
    LevelCounts& lead = counts[family.slots.front().offset];
    lead.writes += isWrite;
    lead.reads += !isWrite;
    if (missed == 0) return;
    for (const Slot& slot : family.slots)
      if (missed >> slot.member & 1) ++(isWrite ? counts[slot.offset].writeMisses : counts[slot.offset].readMisses);
  }

  void resize(Outcome& out) const;
  void addFamilies(const std::vector<cache::HierarchyConfig>& configs, std::vector<bool>& placed);

  std::vector<Member<cache::MruHierarchy>> fast_;
  std::vector<Member<cache::Hierarchy>> general_;
  std::vector<Family> families_;
  std::vector<std::size_t> firstLevels_;
  std::size_t levels_ = 0;
};

}  // namespace cats::sim
