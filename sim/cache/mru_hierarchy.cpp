// The MRU-ordered engine. Event order per miss follows Hierarchy (requests.hpp, exclusive.hpp):
// the victim is evicted (purged from the levels above when inclusive, then written back) before
// the new line is fetched from below; exclusive, the line found below leaves its level before the
// first level's victim moves down.
#include "cache/mru_hierarchy.hpp"

#include "cache/mru_row.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace cats::cache {

bool MruHierarchy::supports(const HierarchyConfig& config) {
  if (config.levels.empty() || config.observes() || !validate(config).empty())
    return false;
  for (const auto& l : config.levels)
    if (l.replacement != Replacement::Lru || l.write != WritePolicy::WriteBack || l.allocate != AllocatePolicy::WriteAllocate ||
        l.lineBytes != config.levels[0].lineBytes || l.associativity == 0)
      return false;
  return true;
}

MruHierarchy::MruHierarchy(const HierarchyConfig& config) {
  if (!supports(config)) throw std::invalid_argument("MruHierarchy does not implement this configuration");
  lineBytes_ = config.levels[0].lineBytes;
  inclusion_ = config.inclusion;
  lineBits_ = static_cast<std::uint32_t>(std::countr_zero(lineBytes_));
  for (const auto& l : config.levels) {
    Level level;
    std::uint64_t sets = l.sizeBytes / l.lineBytes / l.associativity;
    level.setMask = sets - 1;
    level.ways = l.associativity;
    level.slots.assign(sets * l.associativity, 0);
    levels_.push_back(std::move(level));
  }
  levelCount_ = levels_.size();
  stats_.assign(levels_.size(), LevelStats{});
  firstSlots_ = levels_[0].slots.data();
  if (levels_.size() == 2 && levels_[0].ways == 8 && levels_[1].ways == 8) {
    twoLevels_ = inclusion_ == Inclusion::Inclusive   ? TwoLevels::Inclusive
                 : inclusion_ == Inclusion::Exclusive ? TwoLevels::Exclusive
                                                      : TwoLevels::NonInclusive;
    secondSlots_ = levels_[1].slots.data();
    secondSetMask_ = levels_[1].setMask;
  }
  firstSetMask_ = levels_[0].setMask;
  firstWays_ = levels_[0].ways;
  firstStats_ = &stats_[0];
  vectorScans_ = config.vectorScans && twoLevels_ != TwoLevels::No && mru_row::vectorRowsSupported();
}

using mru_row::findWayIn;
using mru_row::lineOf;
using mru_row::removeWay;
using mru_row::shiftDown;
using mru_row::touchLine;

namespace {

/* The way of "row" holding "key", or "ways" if none. */
std::uint32_t findWay(const std::uint64_t* row, std::uint32_t ways, std::uint64_t key) {
  std::uint32_t w = 0;
  while (w < ways && (row[w] & ~std::uint64_t{1}) != key) ++w;
  return w;
}

/* findWay() for the inclusive purge, which looks every victim of a lower level up in the levels
   above and mostly finds nothing there: eight ways written out take the all-miss inclusive stream
   from 350 to 323 instructions per access (bench/cache_ir.sh). A hit found early gains nothing,
   so the other lookups keep the loop. */
std::uint32_t findWayAbsent(const std::uint64_t* row, std::uint32_t ways, std::uint64_t key) {
  return ways == 8 ? findWayIn<8>(row, key) : findWay(row, ways, key);
}

}  // namespace

bool MruHierarchy::firstLevelHolds(std::uint64_t address, bool dirty) const {
  const std::uint64_t line = address >> lineBits_;
  const std::uint64_t* row = firstSlots_ + (line & firstSetMask_) * firstWays_;
  const std::uint32_t w = findWay(row, firstWays_, (line + 1) << 1);
  return w < firstWays_ && (!dirty || (row[w] & 1) != 0);
}

std::vector<ResidentLine> MruHierarchy::contents(std::size_t k) const {
  std::vector<ResidentLine> out;
  for (std::uint64_t slot : levels_[k].slots)
    if (slot != 0) out.push_back({lineOf(slot) << lineBits_, (slot & 1) != 0});
  std::sort(out.begin(), out.end(), [](const ResidentLine& a, const ResidentLine& b) { return a.address < b.address; });
  return out;
}

MemoryTraffic MruHierarchy::memoryTraffic() const { return trafficBelow(stats_.back()); }

void MruHierarchy::captureState(std::vector<std::uint64_t>& image) const {
  for (const Level& level : levels_) image.insert(image.end(), level.slots.begin(), level.slots.end());
}

void MruHierarchy::repeatStats(const std::vector<LevelStats>& before, std::uint64_t times) {
  for (std::size_t k = 0; k < stats_.size(); ++k) stats_[k] = repeated(stats_[k], before[k], times);
}

void MruHierarchy::writeback(std::size_t k, std::uint64_t line) {
  if (k == levels_.size()) return;
  LevelStats& s = stats_[k];
  ++s.writes;
  Level& level = levels_[k];
  std::uint64_t* row = &level.slots[(line & level.setMask) * level.ways];
  if (const std::uint32_t w = findWay(row, level.ways, (line + 1) << 1); w < level.ways) {
    row[w] |= 1;  // present: now dirty, recency unchanged
    return;
  }
  ++s.writeMisses;  // absent: never allocated, it passes on down
  s.bytesToBelow += lineBytes_;
  writeback(k + 1, line);
}

[[gnu::always_inline]] inline std::uint64_t MruHierarchy::purgeAbove(std::size_t k, std::uint64_t line) {
  const std::uint64_t key = (line + 1) << 1;
  std::uint64_t dirtied = 0;
  for (std::size_t j = 0; j < k; ++j) {  // top first: dirty data travels down level by level
    Level& upper = levels_[j];
    std::uint64_t* row = &upper.slots[(line & upper.setMask) * upper.ways];
    const std::uint32_t w = findWayAbsent(row, upper.ways, key);
    if (w == upper.ways) continue;
    const bool dirty = (row[w] & 1) != 0;
    removeWay(row, upper.ways, w);
    LevelStats& s = stats_[j];
    ++s.invalidations;
    if (!dirty) continue;
    ++s.writebacks;
    s.bytesToBelow += lineBytes_;
    if (j + 1 == k) {  // into the victim itself, which Hierarchy still holds in level k at this point
      ++stats_[k].writes;
      dirtied = 1;
    } else {
      writeback(j + 1, line);
    }
  }
  return dirtied;
}

void MruHierarchy::moveDown(std::size_t k, std::uint64_t victim) {
  const bool dirty = (victim & 1) != 0;
  LevelStats& s = stats_[k];
  ++s.evictions;
  if (dirty) ++s.writebacks;
  const bool last = k + 1 == levels_.size();
  if (dirty || !last) s.bytesToBelow += lineBytes_;
  if (last) return;
  // The victim arrives at level k + 1: not an access; it takes the newest way, that level's own
  // victim moving down first.
  Level& below = levels_[k + 1];
  const std::uint64_t line = lineOf(victim);
  std::uint64_t* row = &below.slots[(line & below.setMask) * below.ways];
  const std::uint64_t evicted = row[below.ways - 1];
  shiftDown(row, below.ways);
  if (evicted != 0) moveDown(k + 1, evicted);
  row[0] = victim;
}

void MruHierarchy::demandExclusive(std::uint64_t line, bool isWrite, MruOutcome& out) {
  const std::uint64_t key = (line + 1) << 1;
  const std::uint64_t written = isWrite ? 1 : 0;
  Level& top = levels_[0];
  out.accessed |= 1;
  std::uint64_t* row = &top.slots[(line & top.setMask) * top.ways];
  std::uint64_t victim = 0;
  if (touchLine(row, top.ways, key, written, victim)) return;
  out.missed |= 1;
  // Below the first level, the line is looked up until found; it leaves the level it is in.
  std::uint64_t fetched = 0;  // the dirty bit it brings along
  std::size_t source = levels_.size();
  for (std::size_t k = 1; k < levels_.size(); ++k) {
    Level& level = levels_[k];
    out.accessed |= 1u << k;
    std::uint64_t* lower = &level.slots[(line & level.setMask) * level.ways];
    const std::uint32_t w = findWay(lower, level.ways, key);
    if (w == level.ways) {
      out.missed |= 1u << k;
      continue;
    }
    fetched = lower[w] & 1;
    removeWay(lower, level.ways, w);
    source = k;
    break;
  }
  for (std::size_t k = 0; k < source; ++k) stats_[k].bytesFromBelow += lineBytes_;
  if (victim != 0) moveDown(0, victim);
  row[0] = key | fetched | written;
}

void MruHierarchy::evict(std::size_t k, std::uint64_t victim) {
  if (k > 0 && inclusion_ == Inclusion::Inclusive) victim |= purgeAbove(k, lineOf(victim));
  if ((victim & 1) == 0) return;
  LevelStats& s = stats_[k];
  ++s.writebacks;
  s.bytesToBelow += lineBytes_;
  writeback(k + 1, lineOf(victim));
}

template <bool Count>
[[gnu::always_inline]] inline void MruHierarchy::fillBelow(std::uint64_t line, std::uint32_t& accessed, std::uint32_t& missed) {
  const std::uint64_t key = (line + 1) << 1;
  const bool purges = inclusion_ == Inclusion::Inclusive;
  for (std::size_t k = 1; k < levelCount_; ++k) {
    Level& level = levels_[k];
    LevelStats& s = stats_[k];
    accessed |= 1u << k;
    if constexpr (Count) ++s.reads;
    std::uint64_t* row = level.slots.data() + (line & level.setMask) * level.ways;
    std::uint64_t carry = 0;
    if (touchLine(row, level.ways, key, 0, carry)) return;
    missed |= 1u << k;
    if constexpr (Count) ++s.readMisses;
    s.bytesFromBelow += lineBytes_;
    if (carry == 0) continue;  // the last way (way 0 with one way) was empty
    ++s.evictions;
    if ((carry & 1) != 0 || purges) evict(k, carry);
  }
}

[[gnu::always_inline]] inline bool MruHierarchy::missFirst(std::uint64_t line, std::uint64_t dirty) {
  const std::uint64_t key = (line + 1) << 1;
  std::uint64_t* row = firstSlots_ + (line & firstSetMask_) * firstWays_;
  std::uint64_t carry = 0;
  if (touchLine(row, firstWays_, key, dirty, carry)) return false;
  firstStats_->bytesFromBelow += lineBytes_;
  if (carry != 0) {
    ++firstStats_->evictions;
    if ((carry & 1) != 0) evict(0, carry);
  }
  return true;
}

[[gnu::always_inline]] inline void MruHierarchy::demand(std::uint64_t line, bool isWrite, MruOutcome& out) {
  if (inclusion_ == Inclusion::Exclusive) return demandExclusive(line, isWrite, out);
  // The fill below a first-level miss is a read. The outcome is kept in registers (written
  // through "out", it would be stored at every level).
  std::uint32_t accessed = out.accessed | 1, missed = out.missed;
  if (missFirst(line, isWrite ? 1 : 0)) {
    missed |= 1;
    fillBelow<false>(line, accessed, missed);
  }
  out.accessed = accessed;
  out.missed = missed;
}

/* The first level's step of accessTwoLevels() and accessTwoExclusive(): counts the access; a hit
   sets "out" and gives null, a miss is counted and gives the set's row, the line newest in it
   and "victim" the slot it displaced. Not "Counted" (one line of an access across lines, which
   count() counts once): the access and its miss are not counted, and "out" gains bits instead. */
template <bool Counted>
[[gnu::always_inline]] inline std::uint64_t* MruHierarchy::firstOfTwo(std::uint64_t line, std::uint64_t key, bool isWrite, std::uint64_t& victim,
                                                                     MruOutcome& out) {
  LevelStats& first = *firstStats_;
  if constexpr (Counted) ++(isWrite ? first.writes : first.reads);
  std::uint64_t* row = firstSlots_ + (line & firstSetMask_) * 8;
  if (touchLine<8>(row, 8, key, isWrite ? 1 : 0, victim)) {
    setOutcome<Counted>(out, 1, 0);
    return nullptr;
  }
  countFirstMiss<Counted>(isWrite);
  return row;
}

/* accessLine() for two eight-way levels, not exclusive (Cachegrind's geometry and most machine
   files): the level loop unrolled and the associativity a constant (bench/cache_ir.sh). */
template <bool Inclusive, bool Counted>
[[gnu::always_inline]] inline void MruHierarchy::accessTwoLevels(std::uint64_t line, bool isWrite, MruOutcome& out) {
  const std::uint64_t key = (line + 1) << 1;
  std::uint64_t carry = 0;
  if (firstOfTwo<Counted>(line, key, isWrite, carry, out) == nullptr) return;  // a first-level hit
  belowFirstOfTwo<Inclusive, Counted>(line, key, carry, out);
}

/* demandExclusive() and count() for two eight-way levels: the line found in the second level
   leaves it, the first level's victim moves down into it, and the second level's own victim
   leaves the hierarchy (moveDown twice, written out). */
template <bool Counted>
[[gnu::always_inline]] inline void MruHierarchy::accessTwoExclusive(std::uint64_t line, bool isWrite, MruOutcome& out) {
  const std::uint64_t key = (line + 1) << 1;
  std::uint64_t victim = 0;
  std::uint64_t* row = firstOfTwo<Counted>(line, key, isWrite, victim, out);
  if (row == nullptr) return;
  belowFirstExclusive<Counted>(line, key, row, victim, isWrite, out);
}

template <bool Counted>
[[gnu::always_inline]] inline void MruHierarchy::belowFirstExclusive(std::uint64_t line, std::uint64_t key, std::uint64_t* row, std::uint64_t victim,
                                                                    bool isWrite, MruOutcome& out) {
  LevelStats& first = *firstStats_;
  LevelStats& second = stats_[1];
  if constexpr (Counted) ++second.reads;
  std::uint64_t fetched = 0;  // the dirty bit the line brings up
  std::uint64_t* lower = secondSlots_ + (line & secondSetMask_) * 8;
  if (const std::uint32_t w = findWayIn<8>(lower, key); w < 8) {
    fetched = lower[w] & 1;
    removeWay(lower, 8, w);
    setOutcome<Counted>(out, 3, 1);
  } else {
    if constexpr (Counted) ++second.readMisses;
    second.bytesFromBelow += lineBytes_;
    setOutcome<Counted>(out, 3, 3);
  }
  if (victim != 0) {  // moveDown(0, victim)
    ++first.evictions;
    if ((victim & 1) != 0) ++first.writebacks;
    first.bytesToBelow += lineBytes_;
    std::uint64_t* below = secondSlots_ + (lineOf(victim) & secondSetMask_) * 8;
    const std::uint64_t evicted = below[7];
    shiftDown<8>(below, 8);
    below[0] = victim;
    if (evicted != 0) {  // moveDown(1, evicted): out of the hierarchy
      ++second.evictions;
      if ((evicted & 1) != 0) {
        ++second.writebacks;
        second.bytesToBelow += lineBytes_;
      }
    }
  }
  row[0] = key | fetched | (isWrite ? 1 : 0);
}

void MruHierarchy::writebackIntoSecond(std::uint64_t victim) {
  std::uint64_t* row = secondSlots_ + (lineOf(victim) & secondSetMask_) * 8;
  const std::uint32_t w = findWayIn<8>(row, victim & ~std::uint64_t{1});
  if (w < 8) row[w] |= 1;
  countWritebackIntoSecond(w < 8);
}

template <bool Counted>
void MruHierarchy::missedFirstOfTwo(std::uint64_t line, std::uint64_t* row, std::uint64_t carry, bool isWrite, MruOutcome& out) {
  switch (twoLevels_) {
    case TwoLevels::No: break;  // not called (NewestHits checks)
    case TwoLevels::NonInclusive: return missedFirstNonInclusive<false, Counted>(line, row, carry, isWrite, out);  // NewestHits inlines it
    case TwoLevels::Inclusive: return belowFirstOfTwo<true, Counted>(line, fillFirst<false, Counted>(line, row, isWrite), carry, out);
    case TwoLevels::Exclusive: return belowFirstExclusive<Counted>(line, fillFirst<false, Counted>(line, row, isWrite), row, carry, isWrite, out);
  }
}
template void MruHierarchy::missedFirstOfTwo<true>(std::uint64_t, std::uint64_t*, std::uint64_t, bool, MruOutcome&);
template void MruHierarchy::missedFirstOfTwo<false>(std::uint64_t, std::uint64_t*, std::uint64_t, bool, MruOutcome&);

void MruHierarchy::accessLine(std::uint64_t line, bool isWrite, MruOutcome& out) {
  switch (twoLevels_) {
    case TwoLevels::No: break;
    case TwoLevels::NonInclusive: return accessTwoLevels<false, true>(line, isWrite, out);
    case TwoLevels::Inclusive: return accessTwoLevels<true, true>(line, isWrite, out);
    case TwoLevels::Exclusive: return accessTwoExclusive<true>(line, isWrite, out);
  }
  if (inclusion_ == Inclusion::Exclusive) {
    out.accessed = out.missed = 0;
    demandExclusive(line, isWrite, out);
    return countAccess(isWrite, out);
  }
  // demand() and countAccess() in one: each level counts as it goes.
  LevelStats& first = *firstStats_;
  ++(isWrite ? first.writes : first.reads);
  std::uint32_t accessed = 1, missed = 0;
  if (missFirst(line, isWrite ? 1 : 0)) {
    ++(isWrite ? first.writeMisses : first.readMisses);
    missed = 1;
    fillBelow<true>(line, accessed, missed);
  }
  out.accessed = accessed;
  out.missed = missed;
}

[[gnu::always_inline]] inline void MruHierarchy::demandLines(std::uint64_t address, std::uint32_t size, bool isWrite, unsigned bit,
                                                             std::uint64_t mask, std::uint64_t part, MruOutcome& out) {
  out.accessed = out.missed = 0;
  const std::uint64_t end = address + (size == 0 ? 1 : size);
  const std::uint64_t first = address >> lineBits_, last = (end - 1) >> lineBits_;
  // The engine's layout is decided once per access, not per line: two eight-way levels take
  // their written-out paths, uncounted (most split accesses are a vector across a line boundary).
  const auto eachLine = [&](auto demandLine) __attribute__((always_inline)) {
    for (std::uint64_t line = first; line <= last; ++line)
      if ((((line << lineBits_) >> bit) & mask) == part) demandLine(line);
  };
  switch (twoLevels_) {
    case TwoLevels::NonInclusive: return eachLine([&](std::uint64_t line) { accessTwoLevels<false, false>(line, isWrite, out); });
    case TwoLevels::Inclusive: return eachLine([&](std::uint64_t line) { accessTwoLevels<true, false>(line, isWrite, out); });
    case TwoLevels::Exclusive: return eachLine([&](std::uint64_t line) { accessTwoExclusive<false>(line, isWrite, out); });
    case TwoLevels::No: return eachLine([&](std::uint64_t line) { demand(line, isWrite, out); });
  }
}

void MruHierarchy::accessSlow(std::uint64_t address, std::uint32_t size, bool isWrite, MruOutcome& out) {
  demandLines(address, size, isWrite, 0, 0, 0, out);  // one part: every line
  count(isWrite, out);
}

void MruHierarchy::accessPart(std::uint64_t address, std::uint32_t size, bool isWrite, unsigned bit, std::uint64_t mask, std::uint64_t part,
                              MruOutcome& out) {
  demandLines(address, size, isWrite, bit, mask, part, out);
}

void MruHierarchy::countAccess(bool isWrite, const MruOutcome& out) { count(isWrite, out); }

[[gnu::always_inline]] inline void MruHierarchy::count(bool isWrite, const MruOutcome& out) {
  if ((out.accessed & 1) == 0) return;
  LevelStats* s = stats_.data();
  const std::uint64_t missedFirst = out.missed & 1;
  if (isWrite) {
    ++s[0].writes;
    s[0].writeMisses += missedFirst;
  } else {
    ++s[0].reads;
    s[0].readMisses += missedFirst;
  }
  for (std::size_t k = 1; k < levelCount_ && (out.accessed >> k & 1) != 0; ++k) {  // fills below the first level are reads
    ++s[k].reads;
    s[k].readMisses += out.missed >> k & 1;
  }
}

}  // namespace cats::cache
