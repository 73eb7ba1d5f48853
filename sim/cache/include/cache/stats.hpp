// What the simulator counts per level, and what one access did to every level (Outcome), so that a
// caller can attribute the same counts to its own tags (array, loop, source line).
#pragma once

#include "cache/config.hpp"

#include <array>
#include <cstdint>
#include <string_view>

namespace cats::cache {

/// The 3C classes; None for hits and when classification is off. Declared in priority order: an
/// access whose lines missed for different reasons takes the first of them.
enum class MissClass : std::uint8_t { None, Cold, Capacity, Conflict };
std::string_view toString(MissClass c);  // "none", "cold", "capacity", "conflict"

/// Index into LevelStats' miss-class arrays: 0 cold, 1 capacity, 2 conflict.
constexpr std::size_t missClassIndex(MissClass c) { return static_cast<std::size_t>(c) - 1; }

struct LevelStats {
  std::uint64_t reads = 0;   // demand reads: core reads and fills for the level above
  std::uint64_t writes = 0;  // demand writes plus write-backs received from the level above
  std::uint64_t readMisses = 0;
  std::uint64_t writeMisses = 0;
  std::uint64_t evictions = 0;                   // valid lines this level's replacement displaced
  std::uint64_t invalidations = 0;               // lines removed to keep an inclusive hierarchy inclusive
  std::uint64_t writebacks = 0;                  // dirty lines this level sent down
  std::uint64_t bytesFromBelow = 0;              // bytes that crossed the boundary below this level upwards
  std::uint64_t bytesToBelow = 0;                // bytes that crossed it downwards (write-backs, write-throughs, ...)
  std::array<std::uint64_t, 3> readMissClass{};  // by missClassIndex(); filled only when classifying
  std::array<std::uint64_t, 3> writeMissClass{};

  std::uint64_t accesses() const { return reads + writes; }
  std::uint64_t misses() const { return readMisses + writeMisses; }
  LevelStats& operator+=(const LevelStats& other);
  bool operator==(const LevelStats&) const = default;
};

/// "now" plus "times" more of what it gained since "before": the statistics of a stretch of
/// accesses repeated "times" more from the same state (docs/performance.md, "Warping").
LevelStats repeated(const LevelStats& now, const LevelStats& before, std::uint64_t times);

/// Bytes between the last level and memory.
struct MemoryTraffic {
  std::uint64_t readBytes = 0;
  std::uint64_t writeBytes = 0;
  bool operator==(const MemoryTraffic&) const = default;
};

/// Bytes between "last" (a hierarchy's last level) and memory.
inline MemoryTraffic trafficBelow(const LevelStats& last) { return {last.bytesFromBelow, last.bytesToBelow}; }

/// Demand hits at one level on lines a requester "filler" brought in, by requester "hitter"
/// (Hierarchy::setRequester's tags; kUnknownFiller: the line's filler is not known).
struct ReuseCount {
  static constexpr std::uint32_t kUnknownFiller = ~std::uint32_t{0};
  std::uint32_t filler = kUnknownFiller;
  std::uint32_t hitter = 0;
  std::uint64_t hits = 0;
  bool operator==(const ReuseCount&) const = default;
};

/// What one core access did at one level. The flags describe its demand access there (at most
/// one per core access, see docs/cache-core.md); "effects" holds everything else it caused there:
/// write-backs received, evictions, invalidations, write-backs sent, traffic.
struct LevelOutcome {
  bool accessed = false;
  bool isWrite = false;
  bool missed = false;
  MissClass missClass = MissClass::None;
  LevelStats effects;

  /// Everything this access added to the level's LevelStats: the demand access plus "effects".
  LevelStats counts() const;
};

/// Count the demand access described by the flags of "level" (if any) into "stats".
inline void addDemand(const LevelOutcome& level, LevelStats& stats) {
  if (!level.accessed) return;
  bool classified = level.missed && level.missClass != MissClass::None;
  if (level.isWrite) {
    ++stats.writes;
    stats.writeMisses += level.missed;
    if (classified) ++stats.writeMissClass[missClassIndex(level.missClass)];
  } else {
    ++stats.reads;
    stats.readMisses += level.missed;
    if (classified) ++stats.readMissClass[missClassIndex(level.missClass)];
  }
}

/// How much an Outcome records: every level's demand flags and effects, or the demand flags only
/// (effects stay zero; faster on misses, for callers that attribute hits and misses alone).
enum class OutcomeDetail : std::uint8_t { Full, DemandOnly };

/// Filled by Hierarchy::access(). Reused from one access to the next: it clears only what the
/// previous access set, which keeps the first-level hit path short.
class Outcome {
 public:
  Outcome() = default;
  explicit Outcome(OutcomeDetail detail) : detail_(detail) {}

  OutcomeDetail detail() const { return detail_; }
  std::size_t levelCount() const { return levelCount_; }
  const LevelOutcome& level(std::size_t index) const { return levels_[index]; }
  /// Memory traffic of this access (the last level's bytes across its lower boundary).
  MemoryTraffic memoryTraffic() const;
  /// True if the access hit the first level and did nothing else at any level (in either detail).
  bool firstLevelHitOnly() const { return flagged_ == 1 && !levels_[0].missed && affected_ == 0; }

 private:
  friend class Hierarchy;

  std::array<LevelOutcome, kMaxLevels> levels_{};
  std::uint32_t levelCount_ = 0;
  std::uint32_t flagged_ = 0;   // levels_[flagged_..] have all flags clear
  std::uint32_t affected_ = 0;  // levels_[affected_..] have all effects zero
  bool classAffected_ = false;  // some effects' miss-class counts may be nonzero
  OutcomeDetail detail_ = OutcomeDetail::Full;
};

}  // namespace cats::cache
