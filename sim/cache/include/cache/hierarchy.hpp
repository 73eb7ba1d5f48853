// The multi-level cache simulator: takes (address, size, read/write) and counts, per level, hits,
// misses (optionally classified cold/capacity/conflict), evictions, write-backs and traffic. The
// semantics of every policy combination are in docs/cache-core.md.
#pragma once

#include "cache/config.hpp"
#include "cache/stats.hpp"

#include <cstdint>
#include <vector>

namespace cats::cache {

namespace detail {
class Level;
class MissClassifier;
inline constexpr std::uint32_t kUnknownWay = ~std::uint32_t{0} - 1;  // a way not looked up yet
}  // namespace detail

/// A line held by a level: its first byte's address and whether it is dirty.
struct ResidentLine {
  std::uint64_t address = 0;
  bool dirty = false;
  bool operator==(const ResidentLine&) const = default;
};

class Hierarchy {
 public:
  /// Throws std::invalid_argument with validate()'s messages, one per line, if "config" is invalid.
  explicit Hierarchy(HierarchyConfig config);
  Hierarchy(const Hierarchy& other);
  Hierarchy(Hierarchy&& other) noexcept;
  Hierarchy& operator=(const Hierarchy& other);
  Hierarchy& operator=(Hierarchy&& other) noexcept;
  ~Hierarchy();

  /* Simulate one access of "size" bytes at "address" ("size" 0 counts as 1) and describe in "out"
     what it did at each level. The bytes must lie below 2^64 - 1. A line-straddling access touches
     every line it covers and counts as one access per level, missed if any of its lines missed.
     Inline (below) for the most common case only. */
  void access(std::uint64_t address, std::uint32_t size, bool isWrite, Outcome& out);

  const HierarchyConfig& config() const { return config_; }
  std::size_t levelCount() const { return config_.levels.size(); }
  const std::vector<LevelStats>& stats() const { return stats_; }
  MemoryTraffic memoryTraffic() const;
  /// First-level hits the caller proved changed nothing but the counters (docs/performance.md, "Bulk hits").
  void addFirstLevelHits(std::uint64_t reads, std::uint64_t writes) {
    stats_[0].reads += reads;
    stats_[0].writes += writes;
  }
  /// Zero the statistics but keep the cache contents (e.g. after a warm-up).
  void resetStats();

  /// True if level "level" holds the line of "address".
  bool contains(std::size_t level, std::uint64_t address) const;
  /// Every line level "level" holds, by address.
  std::vector<ResidentLine> contents(std::size_t level) const;

 private:
  void bindFastPaths();
  static void clearOutcome(Outcome& out);
  void fastMiss(std::uint64_t line, bool isWrite, Outcome& out);
  void rememberHit(std::uint64_t line, std::uint64_t set, std::uint32_t way);
  void accessGeneral(std::uint64_t address, std::uint32_t size, bool isWrite, Outcome& out);
  void firstLevelHit(std::uint64_t set, std::uint32_t way, std::uint64_t line, bool isWrite, Outcome& out);
  void accessLine(std::uint64_t address, std::uint32_t bytes, bool isWrite, Outcome& out);

  // Non-inclusive and inclusive hierarchies (hierarchy.cpp).
  void demandRead(std::size_t k, std::uint64_t address, Outcome& out, std::uint32_t way = detail::kUnknownWay);
  void demandWrite(std::size_t k, std::uint64_t address, std::uint32_t bytes, Outcome& out, std::uint32_t way = detail::kUnknownWay);
  void forwardWrite(std::size_t k, std::uint64_t address, std::uint32_t bytes, Outcome& out);
  std::uint32_t allocate(std::size_t k, std::uint64_t line, Outcome& out);
  void evict(std::size_t k, std::uint64_t set, std::uint32_t way, Outcome& out);
  void backInvalidate(std::size_t k, std::uint64_t line, Outcome& out);
  void receiveWriteback(std::size_t k, std::uint64_t address, std::uint32_t bytes, Outcome& out);

  // Exclusive hierarchies (exclusive.cpp).
  void exclusiveAccess(std::uint64_t line, std::uint32_t bytes, bool isWrite, Outcome& out);
  void exclusiveWriteAround(std::uint64_t line, std::uint32_t bytes, Outcome& out);
  void writeInPlace(std::size_t k, std::uint64_t set, std::uint32_t way, std::uint32_t bytes, Outcome& out);
  void moveDown(std::size_t k, std::uint64_t set, std::uint32_t way, Outcome& out);
  void insertVictim(std::size_t k, std::uint64_t line, bool dirty, Outcome& out);

  // Bookkeeping: the demand access of level "k" is in its outcome flags (counted at the end of
  // the access); everything else is counted at once into both the outcome and stats_.
  LevelOutcome& flag(Outcome& out, std::size_t k) const;
  void count(Outcome& out, std::size_t k, std::uint64_t LevelStats::*field, std::uint64_t n = 1);
  void countWriteMissClass(Outcome& out, std::size_t k, MissClass c);
  void noteDemand(std::size_t k, std::uint64_t line, bool hit, bool allocates, LevelOutcome& level);

  HierarchyConfig config_;
  std::vector<detail::Level> levels_;
  std::vector<detail::MissClassifier> classifiers_;  // empty unless classifying
  std::vector<LevelStats> stats_;
  bool exclusive_ = false;
  bool inclusive_ = false;
  bool classifying_ = false;
  std::uint32_t levelCount_ = 0;
  std::uint32_t topBits_ = 0;  // the first level's line bits
  bool topWriteBack_ = false;
  std::uint64_t repeatLine_ = ~std::uint64_t{0};  // the line of the last first-level hit, if nothing changed since
  std::uint8_t* repeatDirty_ = nullptr;           // its dirty flag in the first level

  // The inline paths of access() (bindFastPaths() sets these; pointers into levels_[0] and stats_).
  bool fastHits_ = false;
  bool fastMisses_ = false;
  bool topLru_ = false;
  std::uint32_t topWays_ = 0;
  std::uint64_t topSetMask_ = 0;
  const std::uint64_t* topLines_ = nullptr;
  std::uint8_t* topDirty_ = nullptr;
  std::uint64_t* topStamps_ = nullptr;
  std::uint64_t* topClock_ = nullptr;
  LevelStats* topStats_ = nullptr;
};

/* Two inline paths; everything else goes to accessGeneral().

   The first-level hit path (fastHits_: not exclusive, not classifying, a write-back first level
   with LRU or FIFO replacement): a one-line access whose line the first level holds changes only
   that way's recency (LRU: its stamp) and dirty bit, and the first level's demand counters; a miss
   goes to the out-of-line fastMiss() where the whole hierarchy allows it (fastMisses_).

   Otherwise, the line of the previous access, a first-level hit, again, with nothing to send down,
   is settled here: it needs no lookup and changes no policy state (LRU: it is the most recent
   already; PLRU: its bits already point away; FIFO, Random: hits change nothing), nor the
   classifier's (see rememberHit()). "out" must hold at most a first-level hit, which this
   overwrites. */
inline void Hierarchy::access(std::uint64_t address, std::uint32_t size, bool isWrite, Outcome& out) {
  if (fastHits_) {
    std::uint64_t line = address >> topBits_;
    if (((address + (size != 0 ? size - 1 : 0)) >> topBits_) == line) {
      std::uint64_t base = (line & topSetMask_) * topWays_;
      const std::uint64_t* tags = topLines_ + base;
      std::uint32_t way = 0;
      while (way < topWays_ && tags[way] != line) ++way;
      if (way < topWays_) {
        if (out.flagged_ > 1 || out.affected_ != 0) clearOutcome(out);
        std::uint64_t slot = base + way;
        if (topLru_) topStamps_[slot] = ++*topClock_;
        if (isWrite) topDirty_[slot] = 1;
        LevelOutcome& o = out.levels_[0];
        o.accessed = true;
        o.isWrite = isWrite;
        o.missed = false;
        o.missClass = MissClass::None;
        out.flagged_ = 1;
        out.levelCount_ = levelCount_;
        ++(isWrite ? topStats_->writes : topStats_->reads);
        return;
      }
      if (fastMisses_) {
        fastMiss(line, isWrite, out);
        return;
      }
    }
    accessGeneral(address, size, isWrite, out);
    return;
  }
  if ((address >> topBits_) != repeatLine_ || ((address + size - 1) >> topBits_) != repeatLine_ || (isWrite && !topWriteBack_) ||
      out.affected_ != 0 || out.flagged_ > 1) {
    accessGeneral(address, size, isWrite, out);
    return;
  }
  if (isWrite) *repeatDirty_ = 1;
  LevelOutcome& o = out.levels_[0];
  o.accessed = true;
  o.isWrite = isWrite;
  o.missed = false;
  o.missClass = MissClass::None;
  out.flagged_ = 1;
  out.levelCount_ = levelCount_;
  ++(isWrite ? stats_[0].writes : stats_[0].reads);
}

}  // namespace cats::cache
