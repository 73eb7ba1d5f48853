// One level's storage and replacement: per set, its ways' line numbers (kNoLine when empty), dirty
// flags and policy state in flat arrays. A line stays in the way it was placed in until it leaves.
#pragma once

#include "cache/config.hpp"
#include "cache/hierarchy.hpp"
#include "replacement/lru.hpp"
#include "replacement/plru.hpp"
#include "replacement/random.hpp"

#include <bit>
#include <cstdint>
#include <vector>

namespace cats::cache::detail {

inline constexpr std::uint64_t kNoLine = ~std::uint64_t{0};
inline constexpr std::uint32_t kNoWay = ~std::uint32_t{0};

/* The replacement policy of every level of a hierarchy as a template argument of the engine;
   Mixed when the levels differ (each level then switches on its own policy per operation). */
enum class Policy : std::uint8_t { Lru, Fifo, TreePlru, Random, Mixed };

class Level {
 public:
  Level(const LevelConfig& config, std::uint64_t seed);

  std::uint32_t lineBits() const { return lineBits_; }
  std::uint32_t lineBytes() const { return lineBytes_; }
  std::uint64_t lineCount() const { return (setMask_ + 1) * ways_; }
  bool writeBack() const { return writeBack_; }
  bool writeAllocate() const { return writeAllocate_; }
  std::uint64_t setOf(std::uint64_t line) const { return line & setMask_; }
  std::uint32_t ways() const { return ways_; }
  std::uint64_t setMask() const { return setMask_; }
  Replacement replacement() const { return replacement_; }

  /* The flat arrays, for Hierarchy's inline first-level hit path; valid while the level lives and
     is not copied or moved. mruSlots: per set, the slot (set * ways + way) of the last line used or
     placed there; a line that is still in that slot is the set's most recent. */
  const std::uint64_t* lineArray() const { return lines_.data(); }
  std::uint8_t* dirtyArray() { return dirty_.data(); }
  const std::uint32_t* mruSlots() const { return mruSlot_.data(); }

  /* LRU or FIFO only: the way of "set" holding "line", or kNoWay with "victim" set to what
     chooseSlot() would return; the look-up, then on a miss the victim scan. */
  std::uint32_t findOrOldest(std::uint64_t set, std::uint64_t line, std::uint32_t& victim) const {
    std::uint32_t way = find(set, line);
    if (way == kNoWay) victim = lru::oldest(&stamps_[set * ways_], ways_);
    return way;
  }

  /* The way of "set" holding "line", or kNoWay. */
  std::uint32_t find(std::uint64_t set, std::uint64_t line) const {
    const std::uint64_t* first = lines_.data() + set * ways_;
    if (ways_ <= 64) {  // without branches: a hit's way is unpredictable, a mispredicted exit costs more than the compares
      std::uint64_t hits = 0;
      for (std::uint32_t way = 0; way < ways_; ++way) hits |= std::uint64_t{first[way] == line} << way;
      return hits != 0 ? static_cast<std::uint32_t>(std::countr_zero(hits)) : kNoWay;
    }
    const std::uint64_t* last = first + ways_;
    for (const std::uint64_t* slot = first; slot != last; ++slot)
      if (*slot == line) return static_cast<std::uint32_t>(slot - first);
    return kNoWay;
  }

  std::uint64_t lineAt(std::uint64_t set, std::uint32_t way) const { return lines_[set * ways_ + way]; }
  bool dirtyAt(std::uint64_t set, std::uint32_t way) const { return dirty_[set * ways_ + way] != 0; }
  void setDirty(std::uint64_t set, std::uint32_t way) { dirty_[set * ways_ + way] = 1; }
  /* The dirty flag of "way" of "set", valid while the level lives and is not copied or moved. */
  std::uint8_t* dirtyFlag(std::uint64_t set, std::uint32_t way) { return &dirty_[set * ways_ + way]; }

  /* A demand access used the line in "way" of "set": update the policy's recency. */
  void use(std::uint64_t set, std::uint32_t way) {
    mruSlot_[set] = static_cast<std::uint32_t>(set * ways_ + way);
    switch (replacement_) {
      case Replacement::Lru:
        stamps_[set * ways_ + way] = ++clock_;
        return;
      case Replacement::TreePlru:
        plru::touch(&plru_[set * ways_], ways_, way);
        return;
      case Replacement::Fifo:
      case Replacement::Random:
        return;
    }
  }

  /* The way a new line of "set" goes to: the first empty one if there is one, else the policy's
     victim, which the caller evicts (remove()) before install(). */
  std::uint32_t chooseSlot(std::uint64_t set);

  /* Put "line" into "way" (from chooseSlot(), now empty) of "set". */
  void install(std::uint64_t set, std::uint32_t way, std::uint64_t line, bool dirty);

  /* Empty "way" of "set" without touching the policy state of the other ways. */
  void remove(std::uint64_t set, std::uint32_t way);

  /* The same operations with the policy "P" known at compile time (Mixed: the switch above). */
  template <Policy P>
  void use(std::uint64_t set, std::uint32_t way);
  template <Policy P>
  std::uint32_t chooseSlot(std::uint64_t set);
  template <Policy P>
  void install(std::uint64_t set, std::uint32_t way, std::uint64_t line, bool dirty);
  template <Policy P>
  void remove(std::uint64_t set, std::uint32_t way);
  /* The way of "set" holding "line", or kNoWay; LRU and FIFO also set "victim" to chooseSlot()'s
     answer on a miss (one pass over the ways), the others leave it. */
  template <Policy P>
  std::uint32_t find(std::uint64_t set, std::uint64_t line, std::uint32_t& victim) const {
    if constexpr (P == Policy::Lru || P == Policy::Fifo)
      return findOrOldest(set, line, victim);
    else
      return find(set, line);
  }

  std::vector<ResidentLine> contents() const;

 private:
  bool stamped() const { return replacement_ == Replacement::Lru || replacement_ == Replacement::Fifo; }

  Replacement replacement_;
  bool writeBack_;
  bool writeAllocate_;
  std::uint32_t lineBits_;
  std::uint32_t lineBytes_;
  std::uint32_t ways_;
  std::uint64_t setMask_;
  std::vector<std::uint64_t> lines_;   // sets * ways
  std::vector<std::uint8_t> dirty_;    // sets * ways
  std::vector<std::uint64_t> stamps_;  // LRU, FIFO: sets * ways, 0 when empty
  std::uint64_t clock_ = 0;
  std::vector<std::uint8_t> plru_;  // tree-PLRU: ways bytes per set, node n at [n]
  std::vector<std::uint32_t> mruSlot_;  // per set, see mruSlots()
  SplitMix64 random_;
};

inline std::uint32_t Level::chooseSlot(std::uint64_t set) {
  std::size_t base = set * ways_;
  if (stamped()) return lru::oldest(&stamps_[base], ways_);
  std::uint32_t empty = find(set, kNoLine);
  if (empty != kNoWay) return empty;
  if (replacement_ == Replacement::TreePlru) return plru::victim(&plru_[base], ways_);
  return static_cast<std::uint32_t>(random_.next() % ways_);
}

inline void Level::install(std::uint64_t set, std::uint32_t way, std::uint64_t line, bool dirty) {
  std::size_t slot = set * ways_ + way;
  lines_[slot] = line;
  dirty_[slot] = dirty ? 1 : 0;
  mruSlot_[set] = static_cast<std::uint32_t>(slot);
  if (stamped()) stamps_[slot] = ++clock_;
  if (replacement_ == Replacement::TreePlru) plru::touch(&plru_[set * ways_], ways_, way);
}

inline void Level::remove(std::uint64_t set, std::uint32_t way) {
  std::size_t slot = set * ways_ + way;
  lines_[slot] = kNoLine;
  dirty_[slot] = 0;
  if (stamped()) stamps_[slot] = 0;
}

template <Policy P>
inline void Level::use(std::uint64_t set, std::uint32_t way) {
  if constexpr (P == Policy::Mixed) {
    use(set, way);
  } else {
    mruSlot_[set] = static_cast<std::uint32_t>(set * ways_ + way);
    if constexpr (P == Policy::Lru) stamps_[set * ways_ + way] = ++clock_;
    if constexpr (P == Policy::TreePlru) plru::touch(&plru_[set * ways_], ways_, way);
  }
}

template <Policy P>
inline std::uint32_t Level::chooseSlot(std::uint64_t set) {
  if constexpr (P == Policy::Mixed) {
    return chooseSlot(set);
  } else if constexpr (P == Policy::Lru || P == Policy::Fifo) {
    return lru::oldest(&stamps_[set * ways_], ways_);
  } else {
    std::uint32_t empty = find(set, kNoLine);
    if (empty != kNoWay) return empty;
    if constexpr (P == Policy::TreePlru) return plru::victim(&plru_[set * ways_], ways_);
    return static_cast<std::uint32_t>(random_.next() % ways_);
  }
}

template <Policy P>
inline void Level::install(std::uint64_t set, std::uint32_t way, std::uint64_t line, bool dirty) {
  if constexpr (P == Policy::Mixed) {
    install(set, way, line, dirty);
  } else {
    std::size_t slot = set * ways_ + way;
    lines_[slot] = line;
    dirty_[slot] = dirty ? 1 : 0;
    mruSlot_[set] = static_cast<std::uint32_t>(slot);
    if constexpr (P == Policy::Lru || P == Policy::Fifo) stamps_[slot] = ++clock_;
    if constexpr (P == Policy::TreePlru) plru::touch(&plru_[set * ways_], ways_, way);
  }
}

template <Policy P>
inline void Level::remove(std::uint64_t set, std::uint32_t way) {
  if constexpr (P == Policy::Mixed) {
    remove(set, way);
  } else {
    std::size_t slot = set * ways_ + way;
    lines_[slot] = kNoLine;
    dirty_[slot] = 0;
    if constexpr (P == Policy::Lru || P == Policy::Fifo) stamps_[slot] = 0;
  }
}

}  // namespace cats::cache::detail
