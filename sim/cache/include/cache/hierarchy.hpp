// The multi-level cache simulator: takes (address, size, read/write) and counts, per level, hits,
// misses (optionally classified cold/capacity/conflict), evictions, write-backs and traffic. The
// semantics of every policy combination are in docs/cache-core.md.
#pragma once

#include "cache/config.hpp"
#include "cache/stats.hpp"

#include <array>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace cats::cache {

namespace detail {
class Level;
class MissClassifier;
struct Dispatch;
/* One way of a set: its line number (all ones when empty) and dirty flag, moved as one. */
struct Slot {
  std::uint64_t line;
  std::uint64_t dirty;
};
inline constexpr std::uint32_t kUnknownWay = ~std::uint32_t{0} - 1;  // a way not looked up yet
/* What the observing engine path records besides miss classes (HierarchyConfig's countSetMisses
   and trackFillers); empty and untouched when both are off. */
struct Observations {
  std::vector<std::vector<std::uint64_t>> setMisses;                    // [level][set], countSetMisses
  std::vector<std::unordered_map<std::uint64_t, std::uint64_t>> reuse;  // [level]: filler word | hitter tag -> demand hits
  std::array<std::uint64_t, kMaxLevels> hitFiller{};                    // this access: the filler word of a line it hit, per level
  std::uint64_t requester = 0;                                          // the current access's tag
  bool tracking = false;                                                // trackFillers
};
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
     Inline (below) for the most common first-level hit only. */
  void access(std::uint64_t address, std::uint32_t size, bool isWrite, Outcome& out);

  const HierarchyConfig& config() const { return config_; }
  std::size_t levelCount() const { return config_.levels.size(); }
  const std::vector<LevelStats>& stats() const { return stats_; }
  MemoryTraffic memoryTraffic() const;
  /// Zero the statistics but keep the cache contents (e.g. after a warm-up).
  void resetStats();
  /// Count "reads" and "writes" first-level hits without simulating them: the caller has proved
  /// they hit lines whose repeated use changes no state the future depends on (only level 0's
  /// demand counters change; dirty bits must already be set for writes; docs/performance.md, "Bulk hits").
  void addFirstLevelHits(std::uint64_t reads, std::uint64_t writes) {
    stats_[0].reads += reads;
    stats_[0].writes += writes;
  }

  /// False when part of the state the future depends on is not in captureState(): Random
  /// replacement's generator, miss classification's shadow caches.
  bool capturesState() const;
  /// Appends to "image" every level's lines in set and policy order with their dirty bits, and the
  /// policy's state: from two states with equal images the same accesses do the same.
  void captureState(std::vector<std::uint64_t>& image) const;
  /// Adds "times" more of the statistics gained since "before" (stats() then): the caller has
  /// proved the same accesses repeat "times" more from an equal state (docs/performance.md, "Warping").
  void repeatStats(const std::vector<LevelStats>& before, std::uint64_t times);

  /// countSetMisses: level "level"'s misses per set index (demand misses, one per access as in
  /// stats(), and write-back misses): they sum to stats()[level].misses(). Else empty.
  std::vector<std::uint64_t> setMisses(std::size_t level) const;
  /// trackFillers: the tag of the accesses that follow; a line they bring into a level remembers it.
  void setRequester(std::uint32_t tag) { observed_.requester = tag; }
  /// trackFillers: level "level"'s demand hits (one per access that hit there) by the tag that
  /// brought the line in (the last hit line of a straddling access) and the tag that hit it,
  /// sorted by filler, then hitter; they sum to the level's demand hits. Else empty.
  std::vector<ReuseCount> reuse(std::size_t level) const;

  /// True if the first level holds the line of "address", dirty too if "dirty" (a run of
  /// iterations repeating these lines counts in bulk: docs/performance.md, "Bulk hits").
  bool firstLevelHolds(std::uint64_t address, bool dirty) const;
  /// True if level "level" holds the line of "address".
  bool contains(std::size_t level, std::uint64_t address) const;
  /// Every line level "level" holds, by address.
  std::vector<ResidentLine> contents(std::size_t level) const;

 private:
  friend struct detail::Dispatch;
  void bindFastPaths();
  template <class A>
  static void clearOutcome(Outcome& out);

  /* The engine (engine.hpp): every access but an inline first-level hit runs accessPath<A>, with
     the hierarchy's policies and the outcome's detail as compile-time axes "A" (detail::Axes),
     chosen once in the constructor (dispatch.hpp). Line splitting, write-back propagation, inclusion and
     classification are written once, below, for every combination. */
  using Path = void (Hierarchy::*)(std::uint64_t, std::uint32_t, bool, Outcome&);
  template <bool E>
  static Path pathFor(const HierarchyConfig& config);  // E: record effects (dispatch.hpp)
  template <class A>
  void accessPath(std::uint64_t address, std::uint32_t size, bool isWrite, Outcome& out);
  template <class A>
  void rememberHit(std::uint64_t line);
  template <class A>
  void accessLine(std::uint64_t address, std::uint32_t bytes, bool isWrite, Outcome& out);
  template <class A>
  void accessLines(std::uint64_t address, std::uint32_t bytes, bool isWrite, Outcome& out);

  // Non-inclusive and inclusive hierarchies (requests.hpp).
  template <class A>
  void demandRead(std::size_t k, std::uint64_t address, Outcome& out);
  template <class A>
  void demandWrite(std::size_t k, std::uint64_t address, std::uint32_t bytes, Outcome& out);
  template <class A>
  void forwardWrite(std::size_t k, std::uint64_t address, std::uint32_t bytes, Outcome& out);
  template <class A>
  void allocate(std::size_t k, std::uint64_t line, std::uint32_t victim, bool dirty, Outcome& out);
  template <class A>
  void evict(std::size_t k, std::uint64_t set, std::uint32_t way, Outcome& out);
  template <class A>
  void backInvalidate(std::size_t k, std::uint64_t line, Outcome& out);
  template <class A>
  void receiveWriteback(std::size_t k, std::uint64_t address, std::uint32_t bytes, Outcome& out);

  // Exclusive hierarchies (exclusive.hpp).
  template <class A>
  void exclusiveAccess(std::uint64_t line, std::uint32_t bytes, bool isWrite, Outcome& out);
  template <class A>
  void exclusiveWriteAround(std::uint64_t line, std::uint32_t bytes, Outcome& out);
  template <class A>
  void writeInPlace(std::size_t k, std::uint64_t set, std::uint32_t way, std::uint32_t bytes, Outcome& out);
  template <class A>
  void moveDown(std::size_t k, std::uint64_t set, std::uint32_t way, Outcome& out);
  template <class A>
  void insertVictim(std::size_t k, std::uint64_t line, bool dirty, std::uint64_t filler, Outcome& out);

  // Bookkeeping: the demand access of level "k" is in its outcome flags (counted at the end of
  // the access); everything else is counted at once into both the outcome and stats_.
  LevelOutcome& flag(Outcome& out, std::size_t k) const;
  template <class A>
  void count(Outcome& out, std::size_t k, std::uint64_t LevelStats::*field, std::uint64_t n = 1);
  template <class A>
  void countWriteMissClass(Outcome& out, std::size_t k, MissClass c);
  void noteDemand(std::size_t k, std::uint64_t line, bool hit, bool allocates, LevelOutcome& level);
  void observeDemand(std::size_t k, std::uint64_t set, std::uint64_t line, std::uint32_t way, bool allocates, LevelOutcome& level);
  void countSetMiss(std::size_t k, std::uint64_t set);
  void countReuse(const Outcome& out);
  template <class A>
  std::uint64_t fillerWord() const;

  HierarchyConfig config_;
  std::vector<detail::Level> levels_;
  std::vector<detail::MissClassifier> classifiers_;  // empty unless classifying
  detail::Observations observed_;
  std::vector<LevelStats> stats_;
  Path path_ = nullptr;        // for OutcomeDetail::Full
  Path demandPath_ = nullptr;  // for OutcomeDetail::DemandOnly
  bool hitsObserved_ = false;  // a first-level hit goes through the engine unless it repeats repeatLine_
  std::uint32_t levelCount_ = 0;
  std::uint32_t topBits_ = 0;  // the first level's line bits
  bool topWriteBack_ = false;
  std::uint64_t repeatLine_ = ~std::uint64_t{0};  // classifying: the line of the last first-level hit, if the shadow's most recent

  // The inline hit path of access() (bindFastPaths() sets these: pointers into levels_[0], stats_).
  std::uint64_t topSetMask_ = 0;
  detail::Slot* topSlots_ = nullptr;
  const std::uint32_t* topMru_ = nullptr;
  LevelStats* topStats_ = nullptr;
};

/* A one-line access to the most recent line of its first-level set, with nothing to send down (a
   read, or a write to a write-back level), is settled inline: it needs no scan and changes no
   policy state (LRU: the line is the set's most recent already; tree-PLRU: the bits already point
   away from it; FIFO, Random: hits change nothing), only the dirty bit and the counters. When
   classifying, the line must also be the shadow's most recent (repeatLine_), which makes the hit
   change nothing in the classifier either; when tracking fillers, every hit goes to the engine,
   which counts it by its filler. "out" must hold at most a first-level hit, which this
   overwrites. Everything else runs the engine's path, bound once per hierarchy. */
inline void Hierarchy::access(std::uint64_t address, std::uint32_t size, bool isWrite, Outcome& out) {
  std::uint64_t line = address >> topBits_;
  if (((address + (size != 0 ? size - 1 : 0)) >> topBits_) == line && out.flagged_ <= 1 && out.affected_ == 0 && (!isWrite || topWriteBack_)) {
    detail::Slot& slot = topSlots_[topMru_[line & topSetMask_]];
    if (slot.line == line && (!hitsObserved_ || line == repeatLine_)) {
      if (isWrite) slot.dirty = 1;  // no filler word to keep: tracking fillers never comes here
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
  }
  (this->*(out.detail_ == OutcomeDetail::Full ? path_ : demandPath_))(address, size, isWrite, out);
}

}  // namespace cats::cache
