// The MRU-ordered engine. Event order per miss follows Hierarchy: the victim is evicted (and
// written back) before the new line is fetched from below.
#include "cache/mru_hierarchy.hpp"

#include <bit>
#include <stdexcept>

namespace cats::cache {

bool MruHierarchy::supports(const HierarchyConfig& config) {
  if (config.levels.empty() || config.observes() ||
      config.inclusion != Inclusion::NonInclusive || !validate(config).empty())
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
  lineBits_ = static_cast<std::uint32_t>(std::countr_zero(lineBytes_));
  for (const auto& l : config.levels) {
    Level level;
    std::uint64_t sets = l.sizeBytes / l.lineBytes / l.associativity;
    level.setMask = sets - 1;
    level.ways = l.associativity;
    level.slots.assign(sets * l.associativity, 0);
    levels_.push_back(std::move(level));
  }
  stats_.assign(levels_.size(), LevelStats{});
  firstSlots_ = levels_[0].slots.data();
  firstSetMask_ = levels_[0].setMask;
  firstWays_ = levels_[0].ways;
  firstStats_ = &stats_[0];
}

bool MruHierarchy::firstLevelHolds(std::uint64_t address, bool dirty) const {
  const std::uint64_t line = address >> lineBits_;
  const std::uint64_t* row = firstSlots_ + (line & firstSetMask_) * firstWays_;
  for (std::uint32_t w = 0; w < firstWays_; ++w)
    if ((row[w] & ~std::uint64_t{1}) == (line + 1) << 1) return !dirty || (row[w] & 1) != 0;
  return false;
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
  const std::uint64_t key = (line + 1) << 1;
  for (std::uint32_t w = 0; w < level.ways; ++w)
    if ((row[w] & ~std::uint64_t{1}) == key) {
      row[w] |= 1;  // present: now dirty, recency unchanged
      return;
    }
  ++s.writeMisses;  // absent: never allocated, it passes on down
  s.bytesToBelow += lineBytes_;
  writeback(k + 1, line);
}

namespace {

/* Scan and shift in one pass: each way takes its predecessor's slot as the scan goes, so a hit at
   way w has shifted ways 0..w-1 down by then (and moves to way 0), and a miss has shifted the whole
   row and leaves the victim in "carry" (half the work of a scan followed by a shift; unrolling it
   for eight ways changed the instruction count by under 1 %). */
bool scanShift(std::uint64_t* row, std::uint32_t ways, std::uint64_t key, std::uint64_t dirty, std::uint64_t& carry) {
  carry = row[0];
  for (std::uint32_t w = 1; w < ways; ++w) {
    const std::uint64_t here = row[w];
    row[w] = carry;
    if ((here & ~std::uint64_t{1}) == key) {
      row[0] = here | dirty;
      return true;
    }
    carry = here;
  }
  return false;
}

}  // namespace

void MruHierarchy::demand(std::uint64_t line, bool isWrite, MruOutcome& out) {
  const std::uint64_t key = (line + 1) << 1;
  // Level by level, a loop rather than a call per level: the fill below a miss is a read.
  for (std::size_t k = 0; k < levels_.size(); ++k, isWrite = false) {
    Level& level = levels_[k];
    out.accessed |= 1u << k;
    std::uint64_t* row = &level.slots[(line & level.setMask) * level.ways];
    const std::uint64_t dirty = isWrite ? 1 : 0;
    if ((row[0] & ~std::uint64_t{1}) == key) {
      row[0] |= dirty;
      return;
    }
    std::uint64_t carry = 0;
    if (scanShift(row, level.ways, key, dirty, carry)) return;
    out.missed |= 1u << k;
    LevelStats& s = stats_[k];
    if (carry != 0) {  // the last way's old line (way 0's with one way) is evicted
      ++s.evictions;
      if (carry & 1) {
        ++s.writebacks;
        s.bytesToBelow += lineBytes_;
        writeback(k + 1, (carry >> 1) - 1);
      }
    }
    row[0] = key | dirty;
    s.bytesFromBelow += lineBytes_;
  }
}

void MruHierarchy::accessLine(std::uint64_t line, bool isWrite, MruOutcome& out) {
  out.accessed = out.missed = 0;
  demand(line, isWrite, out);
  ++(isWrite ? stats_[0].writes : stats_[0].reads);
  if (out.missed & 1) ++(isWrite ? stats_[0].writeMisses : stats_[0].readMisses);
  for (std::size_t k = 1; k < levels_.size() && (out.accessed >> k & 1); ++k) {
    ++stats_[k].reads;
    stats_[k].readMisses += out.missed >> k & 1;
  }
}

void MruHierarchy::accessSlow(std::uint64_t address, std::uint32_t size, bool isWrite, MruOutcome& out) {
  out.accessed = out.missed = 0;
  const std::uint64_t end = address + (size == 0 ? 1 : size);
  const std::uint64_t first = address >> lineBits_, last = (end - 1) >> lineBits_;
  for (std::uint64_t line = first; line <= last; ++line) demand(line, isWrite, out);
  for (std::size_t k = 0; k < levels_.size(); ++k) {
    if (!(out.accessed >> k & 1)) break;
    bool missed = out.missed >> k & 1;
    bool write = k == 0 && isWrite;  // fills below the first level are reads
    LevelStats& s = stats_[k];
    ++(write ? s.writes : s.reads);
    if (missed) ++(write ? s.writeMisses : s.readMisses);
  }
}

}  // namespace cats::cache
