// A fast engine for the most common hierarchies: every level LRU, write-back, write-allocate,
// one line size, no miss classification; non-inclusive (Cachegrind's), inclusive (the default
// machine's) or exclusive. Ways are kept in most-recently-used order (as Cachegrind does), so a
// hit on the newest line is one compare and the victim is always the last way. It counts exactly
// what Hierarchy counts for such a configuration (tests/cache/mru_hierarchy_test.cpp checks it
// access by access, and the contents at the end).
#pragma once

#include "cache/config.hpp"
#include "cache/hierarchy.hpp"
#include "cache/mru_row.hpp"
#include "cache/stats.hpp"

#include <boost/align/aligned_allocator.hpp>

#include <cstdint>
#include <vector>

namespace cats::cache {

/// What one access did: bit k of "accessed" / "missed" for level k's demand access.
struct MruOutcome {
  std::uint32_t accessed = 0;
  std::uint32_t missed = 0;
};

class MruHierarchy {
  // Two eight-way levels and their inclusion (twoLevels_): accessTwoLevels(), accessTwoExclusive().
  enum class TwoLevels : std::uint8_t { No, NonInclusive, Inclusive, Exclusive };

 public:
  /// True if "config" is the configuration this engine implements.
  static bool supports(const HierarchyConfig& config);
  explicit MruHierarchy(const HierarchyConfig& config);

  /// One access; the hit on the newest line of its set is settled here, inline.
  void access(std::uint64_t address, std::uint32_t size, bool isWrite, MruOutcome& out) {
    const std::uint64_t line = address >> lineBits_;
    if (size != 0 && ((address + size - 1) >> lineBits_) == line) {
      std::uint64_t* row = firstSlots_ + (line & firstSetMask_) * firstWays_;
      if ((row[0] & ~std::uint64_t{1}) == (line + 1) << 1) {
        row[0] |= isWrite ? 1 : 0;
        ++(isWrite ? firstStats_->writes : firstStats_->reads);
        out.accessed = 1;
        out.missed = 0;
        return;
      }
      return accessLine(line, isWrite, out);
    }
    accessSlow(address, size, isWrite, out);
  }

  /// access() for a caller's loop that keeps the first level's fields in registers (the
  /// engine's own are reloaded after every store the caller makes): a hit on a set's newest
  /// line is settled and counted here, flush() adds the counts to the engine's statistics.
  /// Nothing may read them in between.
  class NewestHits {
   public:
    explicit NewestHits(MruHierarchy& engine)
        : engine_(&engine), slots_(engine.firstSlots_), setMask_(engine.firstSetMask_), ways_(engine.firstWays_), lineBits_(engine.lineBits_),
          stats_(engine.firstStats_), twoLevels_(engine.twoLevels_) {}
    /// As access(), but true (and "out" untouched) for a hit on the newest line of its set.
    [[gnu::always_inline]] bool access(std::uint64_t address, std::uint32_t size, bool isWrite, MruOutcome& out) {
      return accessUncounted(address, size, isWrite, out) && counted(isWrite);
    }
    /// access() leaving a hit uncounted: the caller counts it (addFirstLevelHits). "Vector": the
    /// eight-way scans in AVX-512 registers, for a caller compiled for x86-64-v4 that checked
    /// vectorScans() (mru_row::scanShift8Vector).
    template <bool Vector = false>
    [[gnu::always_inline]] bool accessUncounted(std::uint64_t address, std::uint32_t size, bool isWrite, MruOutcome& out) {
      const std::uint64_t line = address >> lineBits_;
      if (size == 0 || ((address + size - 1) >> lineBits_) != line) {
        // Across two lines, the first of them its set's newest (a vector tap of a misaligned
        // row, which has just used it): that line's step only sets its dirty bit and adds
        // nothing to the outcome, so the access is the second line's, counted as accessSlow()
        // would count the pair (docs/performance.md, stop 40, "Accesses across two lines").
        std::uint64_t* row = slots_ + (line & setMask_) * ways_;
        if (size != 0 && ((address + size - 1) >> lineBits_) == line + 1 && (row[0] & ~std::uint64_t{1}) == (line + 1) << 1) {
          markNewest<Vector>(row, isWrite);
          return accessInLineUncounted<Vector>((line + 1) << lineBits_, isWrite, out);
        }
        engine_->accessSlow(address, size, isWrite, out);
        return false;
      }
      return accessInLineUncounted<Vector>(address, isWrite, out);
    }
    /// accessUncounted() of an access the caller knows to lie within one line (and not to be empty).
    /// "Counted" false: not even its other outcomes' demand counts (every level's reads, writes
    /// and misses) are counted; the caller counts them from the outcomes (countDemands).
    template <bool Vector = false, bool Counted = true>
    [[gnu::always_inline]] bool accessInLineUncounted(std::uint64_t address, bool isWrite, MruOutcome& out) {
      const std::uint64_t line = address >> lineBits_;
      const std::uint64_t key = (line + 1) << 1;
      std::uint64_t* row = slots_ + (line & setMask_) * ways_;
      if ((row[0] & ~std::uint64_t{1}) == key) {
        markNewest<Vector>(row, isWrite);
        return true;
      }
      if (twoLevels_ == TwoLevels::No) {
        engine_->accessLine(line, isWrite, out);
        return false;
      }
      // Two eight-way levels: a first-level hit below the newest line is settled here too (a
      // call into the engine costs as much as the scan), counted as accessLine() counts it.
      if constexpr (Counted) ++(isWrite ? stats_->writes : stats_->reads);
      std::uint64_t carry = 0;
      if (mru_row::scanShiftWays<8, Vector>(row, 8, key, isWrite ? 1 : 0, carry)) {
        out.accessed = 1;
        out.missed = 0;
        return false;
      }
      if constexpr (!Counted) out = MruOutcome{};  // the uncounted paths OR their bits in
      if (twoLevels_ == TwoLevels::NonInclusive)  // Cachegrind's: the second level inline too
        engine_->missedFirstNonInclusive<Vector, Counted>(line, row, carry, isWrite, out);
      else
        engine_->missedFirstOfTwo<Counted>(line, row, carry, isWrite, out);
      return false;
    }
    /// A write to the newest line of "row" makes it dirty. With vector scans only if it is
    /// clean: a word stored into a row that a 64-byte load reads soon after stalls the load
    /// until the store lands (no store forwarding), and a written line is nearly always dirty already.
    template <bool Vector>
    [[gnu::always_inline]] static void markNewest(std::uint64_t* row, bool isWrite) {
      if constexpr (Vector) {
        if (isWrite && (row[0] & 1) == 0) row[0] |= 1;
      } else {
        row[0] |= isWrite ? 1 : 0;
      }
    }
    /// Counts a hit on the newest line; true.
    bool counted(bool isWrite) {
      ++(isWrite ? writes_ : reads_);
      return true;
    }
    void flush() {
      stats_->reads += reads_;
      stats_->writes += writes_;
      reads_ = writes_ = 0;
    }

   private:
    MruHierarchy* engine_;
    std::uint64_t* slots_;
    std::uint64_t setMask_;
    std::uint64_t ways_;
    std::uint32_t lineBits_;
    LevelStats* stats_;
    TwoLevels twoLevels_;  // the engine's: with two eight-way levels the first level's scan is inline here
    std::uint64_t reads_ = 0, writes_ = 0;
  };

  /// A split simulation's share of an access (sim/partition.hpp): only its lines whose address
  /// has "part" in bits bit.. (mask: parts - 1) go through the hierarchy, and the access is not
  /// counted; countAccess() counts it once, with the outcomes of every part's lines combined.
  void accessPart(std::uint64_t address, std::uint32_t size, bool isWrite, unsigned bit, std::uint64_t mask, std::uint64_t part,
                  MruOutcome& out);
  /// Counts one access whose lines did "out" (bit k: level k reached / missed by some line).
  void countAccess(bool isWrite, const MruOutcome& out);
  /// Counts "times" accesses of one line that NewestHits left uncounted, each reaching one level
  /// more than "missed" (the levels it missed, nearest first): what countAccess() counts for each.
  void countDemands(bool isWrite, std::size_t missed, std::uint64_t times) {
    LevelStats* s = stats_.data();
    (isWrite ? s[0].writes : s[0].reads) += times;
    if (missed > 0) (isWrite ? s[0].writeMisses : s[0].readMisses) += times;
    for (std::size_t k = 1; k < levelCount_ && k <= missed; ++k) {  // fills below the first level are reads
      s[k].reads += times;
      if (k < missed) s[k].readMisses += times;
    }
  }

  /// First-level hits the caller proved changed nothing but the counters (docs/performance.md, "Bulk hits").
  void addFirstLevelHits(std::uint64_t reads, std::uint64_t writes) {
    firstStats_->reads += reads;
    firstStats_->writes += writes;
  }

  /// As Hierarchy's: the first level holds the line of "address" (dirty too if "dirty").
  bool firstLevelHolds(std::uint64_t address, bool dirty) const;
  /// True if the first level surely still holds the lines of the last "accesses" accesses, each
  /// within one line, written ones dirty; "missed" is their outcomes' missed bits, ORed. An LRU
  /// set keeps its newest "ways" lines, written lines stay dirty in a write-back level, and only
  /// an inclusive level's eviction below (on a miss there) takes a line out of it otherwise.
  bool firstLevelKeeps(std::size_t accesses, std::uint32_t missed) const {
    return accesses <= firstWays_ && (inclusion_ != Inclusion::Inclusive || (missed & ~std::uint32_t{1}) == 0);
  }

  /// As Hierarchy's: the state the future depends on, and statistics of repeated accesses.
  static bool capturesState() { return true; }
  void captureState(std::vector<std::uint64_t>& image) const;
  void repeatStats(const std::vector<LevelStats>& before, std::uint64_t times);

  /// As Hierarchy's: level "k"'s lines by address, with their dirty bits.
  std::vector<ResidentLine> contents(std::size_t k) const;

  /// True if NewestHits may scan eight-way sets in AVX-512 registers (its "Vector" paths): two
  /// eight-way levels, a processor that has AVX-512, and the configuration allows it.
  bool vectorScans() const { return vectorScans_; }
  std::uint64_t lineBytes() const { return lineBytes_; }
  std::uint32_t lineBits() const { return lineBits_; }
  /// The first level's set count minus one: a line's set is its low bits.
  std::uint64_t firstSetMask() const { return firstSetMask_; }
  /// True if an access to one first-level set never takes a line from another: the hierarchy
  /// is not inclusive, or every level's sets split the first level's (as many or more).
  bool firstSetsIndependent() const {
    for (const Level& l : levels_)
      if (inclusion_ == Inclusion::Inclusive && (l.setMask & firstSetMask_) != firstSetMask_) return false;
    return true;
  }
  /// The first level's associativity, and whether the hierarchy is inclusive.
  std::uint32_t firstWays() const { return firstWays_; }
  bool inclusive() const { return inclusion_ == Inclusion::Inclusive; }
  /// Makes the first-level line of "address", which the first level holds, its set's newest
  /// ("dirty" ORed in): the recency a hit leaves, with nothing counted and nothing below touched.
  void refreshFirst(std::uint64_t address, bool dirty) {
    const std::uint64_t line = address >> lineBits_;
    std::uint64_t* row = firstSlots_ + (line & firstSetMask_) * firstWays_;
    const std::uint64_t key = (line + 1) << 1;
    std::uint32_t way = 0;
    while (way < firstWays_ && (row[way] ^ key) >= 2) ++way;
    if (way == firstWays_) return;  // not held: the caller's premise failed; nothing to move
    const std::uint64_t slot = row[way] | (dirty ? 1 : 0);
    for (; way > 0; --way) row[way] = row[way - 1];
    row[0] = slot;
  }
  std::size_t levelCount() const { return levels_.size(); }
  const std::vector<LevelStats>& stats() const { return stats_; }
  MemoryTraffic memoryTraffic() const;

 private:
  struct Level {
    std::uint64_t setMask = 0;
    std::uint32_t ways = 0;
    // Per set, most recent first: (line + 1) << 1 | dirty, 0 = empty; an eight-way row in one
    // host cache line, for the vector scans.
    std::vector<std::uint64_t, boost::alignment::aligned_allocator<std::uint64_t, 64>> slots;
  };

  /// An access's outcome from one line's demand: the whole outcome when the access is one line
  /// ("Counted"), else ORed into what its other lines did.
  template <bool Counted>
  static void setOutcome(MruOutcome& out, std::uint32_t accessed, std::uint32_t missed) {
    if constexpr (Counted) {
      out.accessed = accessed;
      out.missed = missed;
    } else {
      out.accessed |= accessed;
      out.missed |= missed;
    }
  }
  /// An access within one line that is not a hit on its set's newest line.
  void accessLine(std::uint64_t line, bool isWrite, MruOutcome& out);
  /// accessLine() when twoLevels_ says the hierarchy is two eight-way levels, inclusive or not;
  /// not "Counted", demand() for one line of an access across lines (count() counts it).
  template <bool Inclusive, bool Counted>
  void accessTwoLevels(std::uint64_t line, bool isWrite, MruOutcome& out);
  /// accessLine() when twoLevels_ says the hierarchy is two eight-way levels, exclusive.
  template <bool Counted>
  void accessTwoExclusive(std::uint64_t line, bool isWrite, MruOutcome& out);
  /// The first level's step of both; null on a hit (then "out" is set).
  template <bool Counted>
  std::uint64_t* firstOfTwo(std::uint64_t line, std::uint64_t key, bool isWrite, std::uint64_t& victim, MruOutcome& out);
  /// firstOfTwo()'s count of a miss.
  template <bool Counted>
  void countFirstMiss(bool isWrite);
  /// The rest of accessTwoLevels() after the first level missed and displaced "carry".
  template <bool Inclusive, bool Counted, bool Vector = false>
  void belowFirstOfTwo(std::uint64_t line, std::uint64_t key, std::uint64_t carry, MruOutcome& out);
  /// The rest of accessTwoExclusive() after the first level missed: "row" its set, "victim" the slot it displaced.
  template <bool Counted>
  void belowFirstExclusive(std::uint64_t line, std::uint64_t key, std::uint64_t* row, std::uint64_t victim, bool isWrite, MruOutcome& out);
  /// NewestHits's first-level miss when twoLevels_ says two eight-way levels: "row" (the line's
  /// first-level set) has been scanned and shifted by mru_row::scanShiftWays<8> and "carry" is
  /// the slot it displaced; the rest of accessLine(), counted.
  /// "Counted" false: as belowFirstOfTwo's, the demand counts left to the caller and the outcome ORed in.
  template <bool Counted>
  void missedFirstOfTwo(std::uint64_t line, std::uint64_t* row, std::uint64_t carry, bool isWrite, MruOutcome& out);
  /// missedFirstOfTwo() for a non-inclusive hierarchy, inline: the commonest miss of the
  /// commonest geometry (Cachegrind's) without a call, but for a dirty victim's write-back.
  template <bool Vector, bool Counted = true>
  void missedFirstNonInclusive(std::uint64_t line, std::uint64_t* row, std::uint64_t carry, bool isWrite, MruOutcome& out);
  /// missedFirstOfTwo()'s first step: "line" (returned as its slot key) becomes the newest of
  /// its first-level "row", the miss counted.
  template <bool Vector, bool Counted = true>
  std::uint64_t fillFirst(std::uint64_t line, std::uint64_t* row, bool isWrite);
  /// A dirty first-level victim (a slot word) written back into the second of two eight-way
  /// levels, which keeps its order; counted there, and on to memory if that level lacks it.
  void writebackIntoSecond(std::uint64_t victim);
  /// Its counts, "held": the second level held the line (now dirty there).
  void countWritebackIntoSecond(bool held) {
    LevelStats& first = *firstStats_;
    LevelStats& second = stats_[1];
    ++first.writebacks;
    first.bytesToBelow += lineBytes_;
    ++second.writes;
    if (held) return;
    ++second.writeMisses;  // not allocated: on to memory
    second.bytesToBelow += lineBytes_;
  }
  /// An access across lines.
  void accessSlow(std::uint64_t address, std::uint32_t size, bool isWrite, MruOutcome& out);
  /// The first level's part of a demand access (not exclusive): true if it missed, after the fill
  /// and the victim's eviction.
  bool missFirst(std::uint64_t line, std::uint64_t dirty);
  /// The levels below the first after its miss (not exclusive), setting their bits of the
  /// outcome; with "Count", counting their reads and misses as countAccess() would.
  template <bool Count>
  void fillBelow(std::uint64_t line, std::uint32_t& accessed, std::uint32_t& missed);
  /// accessPart(), inlined into accessSlow().
  void demandLines(std::uint64_t address, std::uint32_t size, bool isWrite, unsigned bit, std::uint64_t mask, std::uint64_t part,
                   MruOutcome& out);
  /// countAccess(), inlined into accessSlow().
  void count(bool isWrite, const MruOutcome& out);
  /// Demand access of "line" from the first level down to the level that has it, on the general
  /// path (not two eight-way levels: demandLines() takes their written-out paths).
  void demand(std::uint64_t line, bool isWrite, MruOutcome& out);
  /// Level "k"'s replacement displaced "victim" (a slot word): out of the levels above when
  /// inclusive, then written back if dirty (the counting of the eviction is the caller's).
  void evict(std::size_t k, std::uint64_t victim);
  /// A dirty line written back into level "k" (or memory when k is the level count).
  void writeback(std::size_t k, std::uint64_t line);
  /// Inclusive: level "k" evicts "line"; take it out of the levels above, their dirty data
  /// written back on the way down. Returns 1 if that data landed in the victim itself.
  std::uint64_t purgeAbove(std::size_t k, std::uint64_t line);
  /// Exclusive: the demand access of "line" (the line moves up to the first level).
  void demandExclusive(std::uint64_t line, bool isWrite, MruOutcome& out);
  /// Exclusive: level "k"'s victim (a slot word) moves one level down, or leaves the last one.
  void moveDown(std::size_t k, std::uint64_t victim);

  std::vector<Level> levels_;
  std::size_t levelCount_ = 0;  // levels_.size() without a division by sizeof(Level) on the miss path
  std::vector<LevelStats> stats_;
  Inclusion inclusion_ = Inclusion::NonInclusive;
  std::uint64_t* firstSlots_ = nullptr;  // the first level's arrays, for the inline hit
  std::uint64_t firstSetMask_ = 0;
  std::uint32_t firstWays_ = 0;
  LevelStats* firstStats_ = nullptr;
  TwoLevels twoLevels_ = TwoLevels::No;  // two eight-way levels: accessTwoLevels(), accessTwoExclusive()
  std::uint64_t* secondSlots_ = nullptr;
  std::uint64_t secondSetMask_ = 0;
  std::uint32_t lineBits_ = 6;
  std::uint64_t lineBytes_ = 64;
  bool vectorScans_ = false;
};

// Inline for NewestHits (the stream's loops); the engine's other paths share them.

template <bool Counted>
[[gnu::always_inline]] inline void MruHierarchy::countFirstMiss(bool isWrite) {
  LevelStats& first = *firstStats_;
  if constexpr (Counted) ++(isWrite ? first.writeMisses : first.readMisses);
  first.bytesFromBelow += lineBytes_;
}

template <bool Inclusive, bool Counted, bool Vector>
[[gnu::always_inline]] inline void MruHierarchy::belowFirstOfTwo(std::uint64_t line, std::uint64_t key, std::uint64_t carry, MruOutcome& out) {
  LevelStats& first = *firstStats_;
  LevelStats& second = stats_[1];
  if (carry != 0) {
    ++first.evictions;
    if ((carry & 1) != 0) {  // evict(0, carry)
      if constexpr (mru_row::kVectorScan<8, Vector>)
        countWritebackIntoSecond(mru_row::markDirty8Vector(secondSlots_ + (mru_row::lineOf(carry) & secondSetMask_) * 8, carry & ~std::uint64_t{1}));
      else
        writebackIntoSecond(carry);
    }
  }
  if constexpr (Counted) ++second.reads;
  if (mru_row::touchLine<8, Vector>(secondSlots_ + (line & secondSetMask_) * 8, 8, key, 0, carry)) {
    setOutcome<Counted>(out, 3, 1);
    return;
  }
  setOutcome<Counted>(out, 3, 3);
  if constexpr (Counted) ++second.readMisses;
  second.bytesFromBelow += lineBytes_;
  if (carry == 0) return;
  ++second.evictions;
  if constexpr (Inclusive) {  // purgeAbove(1, victim): out of the first level, its dirty data into the victim
    std::uint64_t* upper = firstSlots_ + (mru_row::lineOf(carry) & firstSetMask_) * 8;
    if (const std::uint32_t w = mru_row::findWayIn<8>(upper, carry & ~std::uint64_t{1}); w < 8) {
      const std::uint64_t dirty = upper[w] & 1;
      mru_row::removeWay(upper, 8, w);
      ++first.invalidations;
      if (dirty != 0) {
        ++first.writebacks;
        first.bytesToBelow += lineBytes_;
        ++second.writes;
        carry |= 1;
      }
    }
  }
  if ((carry & 1) != 0) {  // evict(1, victim): to memory
    ++second.writebacks;
    second.bytesToBelow += lineBytes_;
  }
}

template <bool Vector, bool Counted>
[[gnu::always_inline]] inline void MruHierarchy::missedFirstNonInclusive(std::uint64_t line, std::uint64_t* row, std::uint64_t carry, bool isWrite,
                                                                        MruOutcome& out) {
  belowFirstOfTwo<false, Counted, Vector>(line, fillFirst<Vector, Counted>(line, row, isWrite), carry, out);
}

template <bool Vector, bool Counted>
[[gnu::always_inline]] inline std::uint64_t MruHierarchy::fillFirst(std::uint64_t line, std::uint64_t* row, bool isWrite) {
  const std::uint64_t key = (line + 1) << 1;
  // touchLine()'s miss, as firstOfTwo() would have left it; the vector scan has written it (and
  // a word stored over its 64-byte store would stall the row's next load).
  if constexpr (!mru_row::kVectorScan<8, Vector>) row[0] = key | (isWrite ? 1 : 0);
  countFirstMiss<Counted>(isWrite);
  return key;
}

}  // namespace cats::cache
