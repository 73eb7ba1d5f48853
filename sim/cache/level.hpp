// One level's storage and replacement: per set, its ways (line number, kNoLine when empty, and
// dirty flag: one 16-byte Slot, moved with one copy) in a flat array, plus the policy's state. LRU and FIFO sets are kept in order, most
// recent (LRU: used; FIFO: placed) first and empty ways last, as Cachegrind does: the victim is the
// last way, so a miss needs no victim scan, and a hit on the first way changes nothing. Tree-PLRU
// and Random sets keep a line in the way it was placed in (their victim choice depends on ways).
#pragma once

#include "cache/config.hpp"
#include "cache/hierarchy.hpp"
#include "replacement/plru.hpp"
#include "replacement/random.hpp"

#include <bit>
#include <cstdint>
#include <vector>

namespace cats::cache::detail {

inline constexpr std::uint64_t kNoLine = ~std::uint64_t{0};
inline constexpr std::uint32_t kNoWay = ~std::uint32_t{0};
/* A slot's "dirty" word holds the dirty flag in bit 0 and, when the hierarchy tracks fillers,
   the filler's tag + 1 from this bit up (0: unknown); the tag moves with the slot for free. */
inline constexpr std::uint32_t kFillerShift = 32;

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
     placed there (LRU: always the first way; FIFO: the last hit, or the first way after a fill); a
     line still in that slot is one whose use changes no policy state (LRU: the most recent;
     tree-PLRU: the bits point away from it already; FIFO, Random: hits change nothing). */
  Slot* slotArray() { return slots_.data(); }
  const std::uint32_t* mruSlots() const { return mruSlot_.data(); }

  /* The way of "set" holding "line", or kNoWay. */
  std::uint32_t find(std::uint64_t set, std::uint64_t line) const {
    const Slot* first = slots_.data() + set * ways_;
    const Slot* last = first + ways_;
    for (const Slot* slot = first; slot != last; ++slot)
      if (slot->line == line) return static_cast<std::uint32_t>(slot - first);
    return kNoWay;
  }

  /* find() without branches, for sets whose hits are anywhere (up to 64 ways): a mispredicted
     early exit costs more than comparing every way. */
  std::uint32_t findAnywhere(std::uint64_t set, std::uint64_t line) const {
    if (ways_ > 64) return find(set, line);
    const Slot* first = slots_.data() + set * ways_;
    std::uint64_t hits = 0;
    for (std::uint32_t way = 0; way < ways_; ++way) hits |= std::uint64_t{first[way].line == line} << way;
    return hits != 0 ? static_cast<std::uint32_t>(std::countr_zero(hits)) : kNoWay;
  }

  std::uint64_t lineAt(std::uint64_t set, std::uint32_t way) const { return slots_[set * ways_ + way].line; }
  bool dirtyAt(std::uint64_t set, std::uint32_t way) const { return (slots_[set * ways_ + way].dirty & 1) != 0; }
  void setDirty(std::uint64_t set, std::uint32_t way) { slots_[set * ways_ + way].dirty |= 1; }
  /* The filler word of the line in "way" of "set" (tag + 1 shifted by kFillerShift; 0: unknown), for install(). */
  std::uint64_t fillerAt(std::uint64_t set, std::uint32_t way) const { return slots_[set * ways_ + way].dirty & ~std::uint64_t{1}; }

  /* A demand access used the line in "way" of "set": update the policy's recency. Returns the way
     the line is in now (an ordered LRU set moves it first). */
  std::uint32_t use(std::uint64_t set, std::uint32_t way) {
    switch (replacement_) {
      case Replacement::Lru:
        return use<Policy::Lru>(set, way);
      case Replacement::Fifo:
        return use<Policy::Fifo>(set, way);
      case Replacement::TreePlru:
        return use<Policy::TreePlru>(set, way);
      case Replacement::Random:
        break;
    }
    return use<Policy::Random>(set, way);
  }

  /* The way a new line of "set" goes to: the first empty one if there is one, else the policy's
     victim, which the caller evicts (remove()) before install(). */
  std::uint32_t chooseSlot(std::uint64_t set) {
    switch (replacement_) {
      case Replacement::Lru:
      case Replacement::Fifo:
        return chooseSlot<Policy::Lru>(set);
      case Replacement::TreePlru:
        return chooseSlot<Policy::TreePlru>(set);
      case Replacement::Random:
        break;
    }
    return chooseSlot<Policy::Random>(set);
  }

  /* Put "line" into "way" (from chooseSlot(), now empty) of "set", with filler word "filler"
     (fillerAt()); returns the way it is in. */
  std::uint32_t install(std::uint64_t set, std::uint32_t way, std::uint64_t line, bool dirty, std::uint64_t filler = 0) {
    switch (replacement_) {
      case Replacement::Lru:
      case Replacement::Fifo:
        return install<Policy::Lru>(set, way, line, dirty, filler);
      case Replacement::TreePlru:
        return install<Policy::TreePlru>(set, way, line, dirty, filler);
      case Replacement::Random:
        break;
    }
    return install<Policy::Random>(set, way, line, dirty, filler);
  }

  /* Empty "way" of "set" without changing the order or policy state of the other lines. */
  void remove(std::uint64_t set, std::uint32_t way) {
    if (ordered_)
      remove<Policy::Lru>(set, way);
    else
      remove<Policy::Random>(set, way);
  }

  /* The same operations with the policy "P" known at compile time (Mixed: the switches above). */
  template <Policy P>
  std::uint32_t use(std::uint64_t set, std::uint32_t way);
  template <Policy P>
  std::uint32_t chooseSlot(std::uint64_t set);
  template <Policy P>
  std::uint32_t install(std::uint64_t set, std::uint32_t way, std::uint64_t line, bool dirty, std::uint64_t filler = 0);
  template <Policy P>
  void remove(std::uint64_t set, std::uint32_t way);
  /* The way of "set" holding "line", or kNoWay; LRU and FIFO also set "victim" to chooseSlot()'s
     answer (the last way), the others leave it. */
  template <Policy P>
  std::uint32_t find(std::uint64_t set, std::uint64_t line, std::uint32_t& victim) const {
    if constexpr (P == Policy::Lru || P == Policy::Fifo) {
      victim = ways_ - 1;
      return find(set, line);  // hits are mostly in the first ways, misses scan all: both predictable
    } else {
      return findAnywhere(set, line);
    }
  }

  std::vector<ResidentLine> contents() const;
  /* Appends the lines in way order with their dirty bits, and tree-PLRU's bits (Hierarchy::captureState). */
  void captureState(std::vector<std::uint64_t>& image) const;

 private:
  /* Move the lines of ways [from, to) of "set" one way down (to the way after). */
  void shiftDown(std::uint64_t set, std::uint32_t from, std::uint32_t to) {
    Slot* slots = slots_.data() + set * ways_;
    for (std::uint32_t w = to; w > from; --w) slots[w] = slots[w - 1];
  }

  Replacement replacement_;
  bool ordered_;  // LRU or FIFO: the set's ways are in recency order
  bool writeBack_;
  bool writeAllocate_;
  std::uint32_t lineBits_;
  std::uint32_t lineBytes_;
  std::uint32_t ways_;
  std::uint64_t setMask_;
  std::vector<Slot> slots_;             // sets * ways
  std::vector<std::uint8_t> plru_;      // tree-PLRU: ways bytes per set, node n at [n]
  std::vector<std::uint32_t> mruSlot_;  // per set, see mruSlots()
  SplitMix64 random_;
};

template <Policy P>
inline std::uint32_t Level::use(std::uint64_t set, std::uint32_t way) {
  if constexpr (P == Policy::Mixed) {
    return use(set, way);
  } else if constexpr (P == Policy::Lru) {
    if (way == 0) return 0;
    Slot used = slots_[set * ways_ + way];
    shiftDown(set, 0, way);
    slots_[set * ways_] = used;
    return 0;
  } else if constexpr (P == Policy::Fifo) {
    mruSlot_[set] = static_cast<std::uint32_t>(set * ways_ + way);  // a hit changes nothing: any hit line may repeat inline
    return way;
  } else {
    mruSlot_[set] = static_cast<std::uint32_t>(set * ways_ + way);
    if constexpr (P == Policy::TreePlru) plru::touch(&plru_[set * ways_], ways_, way);
    return way;
  }
}

template <Policy P>
inline std::uint32_t Level::chooseSlot(std::uint64_t set) {
  if constexpr (P == Policy::Mixed) {
    return chooseSlot(set);
  } else if constexpr (P == Policy::Lru || P == Policy::Fifo) {
    return ways_ - 1;  // empty ways are last, else the least recent line is
  } else {
    std::uint32_t empty = find(set, kNoLine);
    if (empty != kNoWay) return empty;
    if constexpr (P == Policy::TreePlru) return plru::victim(&plru_[set * ways_], ways_);
    return static_cast<std::uint32_t>(random_.next() % ways_);
  }
}

template <Policy P>
inline std::uint32_t Level::install(std::uint64_t set, std::uint32_t way, std::uint64_t line, bool dirty, std::uint64_t filler) {
  if constexpr (P == Policy::Mixed) {
    return install(set, way, line, dirty, filler);
  } else if constexpr (P == Policy::Lru || P == Policy::Fifo) {
    shiftDown(set, 0, way);  // "way" is the last way (chooseSlot())
    slots_[set * ways_] = Slot{line, (dirty ? 1u : 0u) | filler};
    if constexpr (P == Policy::Fifo) mruSlot_[set] = static_cast<std::uint32_t>(set * ways_);
    return 0;
  } else {
    std::size_t slot = set * ways_ + way;
    slots_[slot] = Slot{line, (dirty ? 1u : 0u) | filler};
    mruSlot_[set] = static_cast<std::uint32_t>(slot);
    if constexpr (P == Policy::TreePlru) plru::touch(&plru_[set * ways_], ways_, way);
    return way;
  }
}

template <Policy P>
[[gnu::always_inline]] inline void Level::remove(std::uint64_t set, std::uint32_t way) {
  if constexpr (P == Policy::Mixed) {
    remove(set, way);
  } else if constexpr (P == Policy::Lru || P == Policy::Fifo) {
    Slot* slots = slots_.data() + set * ways_;
    for (std::uint32_t w = way; w + 1 < ways_; ++w) slots[w] = slots[w + 1];  // close the gap: empty ways stay last
    slots[ways_ - 1] = Slot{kNoLine, 0};
  } else {
    slots_[set * ways_ + way] = Slot{kNoLine, 0};
  }
}

}  // namespace cats::cache::detail
