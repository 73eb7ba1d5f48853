// Single-level LRU caches of the same set count and line size that differ only in associativity,
// all simulated at once from one per-set LRU stack (Mattson's stack distances): a line found at
// depth d hits in every member with more than d ways. Statistics equal the separate engines'
// (tests/configurations_test.cpp compares them access by access through sim::simulateAll).
#pragma once

#include "cache/config.hpp"
#include "cache/stats.hpp"

#include <cstdint>
#include <vector>

namespace cats::cache {

/// What one access did: bit i set if member i missed (every member is accessed).
struct FamilyOutcome {
  std::uint64_t missed = 0;
};

class LruStackFamily {
 public:
  static constexpr std::size_t kMaxMembers = 64;

  /// Whether "config" can be a member: one level, LRU, write-back, write-allocate, set-associative, unclassified.
  static bool fits(const HierarchyConfig& config);
  /// The set count and line size members must share: sets * 2^32 + line.
  static std::uint64_t familyKey(const HierarchyConfig& config);
  /// Members with distinct associativities (at most kMaxMembers), each fits() and of one familyKey().
  explicit LruStackFamily(const std::vector<HierarchyConfig>& members);

  /// One access; a one-line access to the line on top of its set's stack is settled here, inline.
  void access(std::uint64_t address, std::uint32_t size, bool isWrite, FamilyOutcome& out) {
    const std::uint64_t line = address >> lineBits_;
    if (size != 0 && ((address + size - 1) >> lineBits_) == line) {
      Entry& top = entries_[(line & setMask_) * depth_];
      if (top.key == line + 1) {
        if (isWrite) top.cleanFrom = 0;
        ++(isWrite ? writes_ : reads_);
        out.missed = 0;
        return;
      }
    }
    accessSlow(address, size, isWrite, out);
  }
  /// First-level hits the caller proved changed nothing but the counters, in every member.
  void addFirstLevelHits(std::uint64_t reads, std::uint64_t writes) {
    reads_ += reads;
    writes_ += writes;
  }

  /// True if every member holds the line of "address" (a member with write-allocate: a written
  /// line it holds is dirty).
  bool firstLevelHolds(std::uint64_t address) const;

  std::size_t members() const { return ways_.size(); }
  /// Member "i"'s statistics, as its own engine's stats() (one level).
  std::vector<LevelStats> stats(std::size_t i) const;
  MemoryTraffic memoryTraffic(std::size_t i) const;

 private:
  struct Entry {
    std::uint64_t key = 0;       // line + 1; 0: empty (only at the bottom of a set's stack)
    std::uint32_t cleanFrom = 0;  // the line is dirty in members with more ways than this (kClean: in none)
  };
  struct MemberCounts {
    std::uint64_t readMisses = 0, writeMisses = 0, evictions = 0, writebacks = 0, fills = 0;
  };

  void accessSlow(std::uint64_t address, std::uint32_t size, bool isWrite, FamilyOutcome& out);
  /// One line through every member's set; the members that missed.
  std::uint64_t demand(std::uint64_t line, bool isWrite);
  void pushDown(Entry* row, std::size_t count);

  std::uint64_t setMask_ = 0;
  std::uint32_t lineBytes_ = 0, lineBits_ = 0;
  std::size_t depth_ = 0;                  // the largest associativity: entries kept per set
  std::vector<std::uint32_t> ways_;        // per member
  std::vector<int> memberOfWays_;          // [w]: the member with w ways, -1 if none (0..depth_)
  std::vector<std::uint64_t> missedAt_;    // [d]: the members a line at depth d misses in (0..depth_)
  std::vector<Entry> entries_;             // per set, most recent first
  std::vector<MemberCounts> counts_;
  std::uint64_t reads_ = 0, writes_ = 0;  // every member sees every access
};

}  // namespace cats::cache
