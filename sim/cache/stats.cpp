#include "cache/stats.hpp"

namespace cats::cache {

std::string_view toString(MissClass c) {
  switch (c) {
    case MissClass::None:
      return "none";
    case MissClass::Cold:
      return "cold";
    case MissClass::Capacity:
      return "capacity";
    case MissClass::Conflict:
      return "conflict";
  }
  return "none";
}

LevelStats& LevelStats::operator+=(const LevelStats& other) {
  reads += other.reads;
  writes += other.writes;
  readMisses += other.readMisses;
  writeMisses += other.writeMisses;
  evictions += other.evictions;
  invalidations += other.invalidations;
  writebacks += other.writebacks;
  bytesFromBelow += other.bytesFromBelow;
  bytesToBelow += other.bytesToBelow;
  for (std::size_t i = 0; i < readMissClass.size(); ++i) {
    readMissClass[i] += other.readMissClass[i];
    writeMissClass[i] += other.writeMissClass[i];
  }
  return *this;
}

LevelStats repeated(const LevelStats& now, const LevelStats& before, std::uint64_t times) {
  const auto more = [times](std::uint64_t a, std::uint64_t b) { return a + times * (a - b); };
  LevelStats out;
  out.reads = more(now.reads, before.reads);
  out.writes = more(now.writes, before.writes);
  out.readMisses = more(now.readMisses, before.readMisses);
  out.writeMisses = more(now.writeMisses, before.writeMisses);
  out.evictions = more(now.evictions, before.evictions);
  out.invalidations = more(now.invalidations, before.invalidations);
  out.writebacks = more(now.writebacks, before.writebacks);
  out.bytesFromBelow = more(now.bytesFromBelow, before.bytesFromBelow);
  out.bytesToBelow = more(now.bytesToBelow, before.bytesToBelow);
  for (std::size_t i = 0; i < out.readMissClass.size(); ++i) {
    out.readMissClass[i] = more(now.readMissClass[i], before.readMissClass[i]);
    out.writeMissClass[i] = more(now.writeMissClass[i], before.writeMissClass[i]);
  }
  return out;
}

LevelStats LevelOutcome::counts() const {
  LevelStats total = effects;
  addDemand(*this, total);
  return total;
}

MemoryTraffic Outcome::memoryTraffic() const {
  if (levelCount_ == 0) return {};
  const LevelStats& last = levels_[levelCount_ - 1].effects;
  return {last.bytesFromBelow, last.bytesToBelow};
}

}  // namespace cats::cache
