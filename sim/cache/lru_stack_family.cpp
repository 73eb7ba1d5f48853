// The LRU stack of every set, deep as the largest member. A line pushed from depth p to p+1 is
// what the member with p+1 ways evicts; it was dirty there if it was written since it last sat
// at depth p+1 or deeper ("cleanFrom": the deepest depth reached since its last write).
#include "cache/lru_stack_family.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <stdexcept>

namespace cats::cache {

namespace {

constexpr std::uint32_t kClean = std::numeric_limits<std::uint32_t>::max();

}  // namespace

bool LruStackFamily::fits(const HierarchyConfig& config) {
  if (config.levels.size() != 1 || config.observes() || !validate(config).empty())
    return false;
  const LevelConfig& l = config.levels[0];
  return l.replacement == Replacement::Lru && l.write == WritePolicy::WriteBack && l.allocate == AllocatePolicy::WriteAllocate &&
         l.associativity != 0;
}

std::uint64_t LruStackFamily::familyKey(const HierarchyConfig& config) {
  const LevelConfig& l = config.levels.at(0);
  return (l.sizeBytes / l.lineBytes / l.associativity) << 32 | l.lineBytes;
}

LruStackFamily::LruStackFamily(const std::vector<HierarchyConfig>& members) {
  if (members.empty() || members.size() > kMaxMembers) throw std::invalid_argument("LruStackFamily: 1 to 64 members");
  for (const HierarchyConfig& m : members)
    if (!fits(m) || familyKey(m) != familyKey(members[0])) throw std::invalid_argument("LruStackFamily: a member does not fit the family");
  const LevelConfig& first = members[0].levels[0];
  lineBytes_ = first.lineBytes;
  lineBits_ = static_cast<std::uint32_t>(std::countr_zero(lineBytes_));
  const std::uint64_t sets = first.sizeBytes / first.lineBytes / first.associativity;
  setMask_ = sets - 1;
  for (const HierarchyConfig& m : members) ways_.push_back(m.levels[0].associativity);
  depth_ = *std::max_element(ways_.begin(), ways_.end());
  memberOfWays_.assign(depth_ + 1, -1);
  missedAt_.assign(depth_ + 1, 0);
  for (std::size_t i = 0; i < ways_.size(); ++i) {
    if (memberOfWays_[ways_[i]] != -1) throw std::invalid_argument("LruStackFamily: two members with the same associativity");
    memberOfWays_[ways_[i]] = static_cast<int>(i);
    for (std::size_t d = ways_[i]; d <= depth_; ++d) missedAt_[d] |= std::uint64_t{1} << i;
  }
  entries_.assign(sets * depth_, Entry{});
  counts_.assign(ways_.size(), MemberCounts{});
}

void LruStackFamily::accessSlow(std::uint64_t address, std::uint32_t size, bool isWrite, FamilyOutcome& out) {
  const std::uint64_t end = address + (size == 0 ? 1 : size);
  const std::uint64_t first = address >> lineBits_, last = (end - 1) >> lineBits_;
  std::uint64_t missed = 0;
  for (std::uint64_t line = first; line <= last; ++line) missed |= demand(line, isWrite);
  ++(isWrite ? writes_ : reads_);
  out.missed = missed;
  for (std::uint64_t m = missed; m != 0; m &= m - 1) {
    MemberCounts& c = counts_[static_cast<std::size_t>(std::countr_zero(m))];
    ++(isWrite ? c.writeMisses : c.readMisses);
  }
}

bool LruStackFamily::firstLevelHolds(std::uint64_t address) const {
  const std::uint64_t line = address >> lineBits_;
  const Entry* row = &entries_[(line & setMask_) * depth_];
  const std::uint32_t fewest = *std::min_element(ways_.begin(), ways_.end());
  for (std::uint32_t d = 0; d < fewest && d < depth_; ++d)
    if (row[d].key == line + 1) return true;
  return false;
}

/* Move the top "count" entries of "row" one deeper (the one at depth_ - 1 falls off), each
   leaving the member whose ways it passes. */
void LruStackFamily::pushDown(Entry* row, std::size_t count) {
  for (std::size_t p = count; p-- > 0;) {
    Entry e = row[p];
    if (e.key == 0) continue;  // empty: so is everything below it
    const auto passed = static_cast<std::uint32_t>(p + 1);
    if (int m = memberOfWays_[passed]; m >= 0) {
      MemberCounts& c = counts_[static_cast<std::size_t>(m)];
      ++c.evictions;
      c.writebacks += e.cleanFrom < passed;
    }
    e.cleanFrom = e.cleanFrom == kClean ? kClean : std::max(e.cleanFrom, passed);
    if (passed < depth_) row[passed] = e;
  }
}

std::uint64_t LruStackFamily::demand(std::uint64_t line, bool isWrite) {
  Entry* row = &entries_[(line & setMask_) * depth_];
  const std::uint64_t key = line + 1;
  std::size_t d = 0;
  while (d < depth_ && row[d].key != key) ++d;
  Entry found = d < depth_ ? row[d] : Entry{key, kClean};
  pushDown(row, d < depth_ ? d : depth_);
  found.cleanFrom = isWrite ? 0 : found.cleanFrom;
  row[0] = found;
  const std::uint64_t missed = missedAt_[d];
  for (std::uint64_t m = missed; m != 0; m &= m - 1) ++counts_[static_cast<std::size_t>(std::countr_zero(m))].fills;
  return missed;
}

std::vector<LevelStats> LruStackFamily::stats(std::size_t i) const {
  const MemberCounts& c = counts_.at(i);
  LevelStats s;
  s.reads = reads_;
  s.writes = writes_;
  s.readMisses = c.readMisses;
  s.writeMisses = c.writeMisses;
  s.evictions = c.evictions;
  s.writebacks = c.writebacks;
  s.bytesFromBelow = c.fills * lineBytes_;
  s.bytesToBelow = c.writebacks * lineBytes_;
  return {s};
}

MemoryTraffic LruStackFamily::memoryTraffic(std::size_t i) const { return trafficBelow(stats(i).front()); }

}  // namespace cats::cache
