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
