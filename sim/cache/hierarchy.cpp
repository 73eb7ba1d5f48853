// The access path, and the request handling of non-inclusive and inclusive hierarchies: demand
// reads and writes go down level by level as far as they miss or are written through; a level that
// allocates evicts its victim first (writing it back, and in an inclusive hierarchy purging it from
// the levels above), then fetches the line from below. docs/cache-core.md states the rules.
#include "cache/hierarchy.hpp"

#include "classifier.hpp"
#include "level.hpp"

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <stdexcept>

namespace cats::cache {

using detail::kNoLine;
using detail::kNoWay;
using detail::kUnknownWay;

namespace {

/* "config" if validate() accepts it; else throws its problems, one per line. */
HierarchyConfig checked(HierarchyConfig config) {
  std::vector<std::string> problems = validate(config);
  if (problems.empty()) return config;
  std::string text = "invalid cache hierarchy:";
  for (const std::string& p : problems) text += "\n  " + p;
  throw std::invalid_argument(text);
}

const LevelStats kNoStats{};

/* Zero "stats" with a few vector stores; a plain assignment in a loop becomes "rep stos", whose
   start-up costs more than the whole store. */
inline void clear(LevelStats& stats) { std::memcpy(&stats, &kNoStats, sizeof stats); }

/* Zero the counters of "stats" before the miss-class arrays. */
inline void clearCounts(LevelStats& stats) { std::memset(static_cast<void*>(&stats), 0, offsetof(LevelStats, readMissClass)); }

bool stamped(Replacement r) { return r == Replacement::Lru || r == Replacement::Fifo; }

}  // namespace

Hierarchy::Hierarchy(HierarchyConfig config)
    : config_(checked(std::move(config))),
      exclusive_(config_.inclusion == Inclusion::Exclusive),
      inclusive_(config_.inclusion == Inclusion::Inclusive),
      classifying_(config_.classifyMisses),
      levelCount_(static_cast<std::uint32_t>(config_.levels.size())),
      topBits_(static_cast<std::uint32_t>(std::countr_zero(config_.levels[0].lineBytes))),
      topWriteBack_(config_.levels[0].write == WritePolicy::WriteBack) {
  levels_.reserve(config_.levels.size());
  for (std::size_t k = 0; k < config_.levels.size(); ++k) {
    levels_.emplace_back(config_.levels[k], detail::levelSeed(config_.seed, k));
    if (config_.classifyMisses) classifiers_.emplace_back(levels_.back().lineCount());
  }
  stats_.resize(levels_.size());
  bindFastPaths();
}

/* Copies and moves forget the remembered hit: its dirty-flag pointer points into the source. */
Hierarchy::Hierarchy(const Hierarchy& other)
    : config_(other.config_),
      levels_(other.levels_),
      classifiers_(other.classifiers_),
      stats_(other.stats_),
      exclusive_(other.exclusive_),
      inclusive_(other.inclusive_),
      classifying_(other.classifying_),
      levelCount_(other.levelCount_),
      topBits_(other.topBits_),
      topWriteBack_(other.topWriteBack_) {
  bindFastPaths();
}

Hierarchy::Hierarchy(Hierarchy&& other) noexcept
    : config_(std::move(other.config_)),
      levels_(std::move(other.levels_)),
      classifiers_(std::move(other.classifiers_)),
      stats_(std::move(other.stats_)),
      exclusive_(other.exclusive_),
      inclusive_(other.inclusive_),
      classifying_(other.classifying_),
      levelCount_(other.levelCount_),
      topBits_(other.topBits_),
      topWriteBack_(other.topWriteBack_) {
  other.repeatLine_ = kNoLine;
  other.fastHits_ = other.fastMisses_ = false;
  bindFastPaths();
}

Hierarchy& Hierarchy::operator=(const Hierarchy& other) {
  if (this != &other) *this = Hierarchy(other);
  return *this;
}

Hierarchy& Hierarchy::operator=(Hierarchy&& other) noexcept {
  config_ = std::move(other.config_);
  levels_ = std::move(other.levels_);
  classifiers_ = std::move(other.classifiers_);
  stats_ = std::move(other.stats_);
  exclusive_ = other.exclusive_;
  inclusive_ = other.inclusive_;
  classifying_ = other.classifying_;
  levelCount_ = other.levelCount_;
  topBits_ = other.topBits_;
  topWriteBack_ = other.topWriteBack_;
  repeatLine_ = kNoLine;
  other.repeatLine_ = kNoLine;
  other.fastHits_ = other.fastMisses_ = false;
  bindFastPaths();
  return *this;
}

Hierarchy::~Hierarchy() = default;

/* Decide which inline paths access() may take and point them at the first level's arrays. The
   miss path handles hierarchies where every level is LRU or FIFO, write-back, write-allocate, with
   the first level's line size, and inclusion is off: there a miss only evicts (writing back a dirty
   victim, which never allocates) and fetches from the next level, down to the first hit. */
void Hierarchy::bindFastPaths() {
  fastHits_ = fastMisses_ = false;
  if (levels_.empty()) return;
  detail::Level& top = levels_[0];
  fastHits_ = !exclusive_ && !classifying_ && topWriteBack_ && stamped(top.replacement());
  fastMisses_ = fastHits_ && !inclusive_;
  for (const detail::Level& level : levels_)
    if (!stamped(level.replacement()) || !level.writeBack() || !level.writeAllocate() || level.lineBits() != top.lineBits()) fastMisses_ = false;
  topLru_ = top.replacement() == Replacement::Lru;
  topWays_ = top.ways();
  topSetMask_ = top.setMask();
  topLines_ = top.lineArray();
  topDirty_ = top.dirtyArray();
  topStamps_ = top.stampArray();
  topClock_ = top.clock();
  topStats_ = stats_.data();
}

/* Clear what the previous access set in "out". */
void Hierarchy::clearOutcome(Outcome& out) {
  for (std::uint32_t k = 0; k < out.flagged_; ++k) {
    LevelOutcome& o = out.levels_[k];
    o.accessed = o.isWrite = o.missed = false;
    o.missClass = MissClass::None;
  }
  if (out.classAffected_)
    for (std::uint32_t k = 0; k < out.affected_; ++k) clear(out.levels_[k].effects);
  else
    for (std::uint32_t k = 0; k < out.affected_; ++k) clearCounts(out.levels_[k].effects);
  out.flagged_ = out.affected_ = 0;
  out.classAffected_ = false;
}

/* A one-line access whose line the first level lacks, in a hierarchy bindFastPaths() admits: what
   demandRead()/demandWrite(), allocate(), evict() and receiveWriteback() do there, in the same
   order, as one loop. Level k misses: its victim (if any) is evicted, a dirty one written back
   down to the first level holding it (which only marks it dirty) or to memory; the line is
   installed (a level's state is private to it, so installing before the fill below changes
   nothing); level k+1 is read, and the walk stops at its hit or past the last level. */
void Hierarchy::fastMiss(std::uint64_t line, bool isWrite, Outcome& out) {
  if (out.flagged_ != 0 || out.affected_ != 0) clearOutcome(out);
  out.levelCount_ = levelCount_;
  repeatLine_ = kNoLine;
  const std::uint32_t n = levelCount_;
  detail::Level* levels = levels_.data();
  LevelStats* stats = stats_.data();
  const std::uint64_t lineBytes = levels[0].lineBytes();

  LevelOutcome& top = out.levels_[0];
  top.accessed = true;
  top.isWrite = isWrite;
  top.missed = true;
  if (isWrite) {
    ++stats[0].writes;
    ++stats[0].writeMisses;
  } else {
    ++stats[0].reads;
    ++stats[0].readMisses;
  }
  std::uint32_t affected = 0;
  std::uint32_t fillSlot = 0;  // where a level below the first that missed puts the line
  for (std::uint32_t k = 0;;) {
    detail::Level& level = levels[k];
    std::uint64_t set = level.setOf(line);
    std::uint32_t slot = k == 0 ? level.chooseSlot(set) : fillSlot;
    std::uint64_t victim = level.lineAt(set, slot);
    LevelStats& effects = out.levels_[k].effects;
    if (victim != kNoLine) {
      ++effects.evictions;
      ++stats[k].evictions;
      if (level.dirtyAt(set, slot)) {
        ++effects.writebacks;
        ++stats[k].writebacks;
        effects.bytesToBelow += lineBytes;
        stats[k].bytesToBelow += lineBytes;
        std::uint32_t j = k + 1;
        for (; j < n; ++j) {
          detail::Level& lower = levels[j];
          LevelStats& e = out.levels_[j].effects;
          ++e.writes;
          ++stats[j].writes;
          std::uint64_t s = lower.setOf(victim);
          std::uint32_t w = lower.find(s, victim);
          if (w != kNoWay) {
            lower.setDirty(s, w);
            break;
          }
          ++e.writeMisses;
          ++stats[j].writeMisses;
          e.bytesToBelow += lineBytes;
          stats[j].bytesToBelow += lineBytes;
        }
        affected = std::max(affected, std::min(j + 1, n));
      }
    }
    level.replaceStamped(set, slot, line, k == 0 && isWrite);
    effects.bytesFromBelow += lineBytes;
    stats[k].bytesFromBelow += lineBytes;
    affected = std::max(affected, k + 1);
    if (++k == n) break;
    detail::Level& below = levels[k];
    LevelOutcome& o = out.levels_[k];
    o.accessed = true;
    ++stats[k].reads;
    std::uint64_t s = below.setOf(line);
    std::uint32_t w = below.findOrOldest(s, line, fillSlot);
    if (w != kNoWay) {
      below.use(s, w);
      out.flagged_ = k + 1;
      out.affected_ = affected;
      return;
    }
    o.missed = true;
    ++stats[k].readMisses;
  }
  out.flagged_ = n;
  out.affected_ = affected;
}

/* The first level's "line" was hit and is in "way" of "set": remember it for access(). After a
   first-level hit nothing else of a one-line access changes the first level. When classifying, a
   repeat changes nothing there either if the line is the shadow's most recent (it is already
   seen); it is not after a no-write-allocate write hit that found it outside the shadow. */
void Hierarchy::rememberHit(std::uint64_t line, std::uint64_t set, std::uint32_t way) {
  if (classifying_ && !classifiers_[0].mostRecent(line)) return;
  repeatLine_ = line;
  repeatDirty_ = levels_[0].dirtyFlag(set, way);
}

/* Every access but a repeated hit: clear what "out" holds, run each line of the access through the
   hierarchy, count the demand accesses. A hit remembered during a straddling access is forgotten:
   a later line of it may have evicted the earlier one. Kept out of line so that access() stays
   small. */
[[gnu::noinline]] void Hierarchy::accessGeneral(std::uint64_t address, std::uint32_t size, bool isWrite, Outcome& out) {
  clearOutcome(out);
  out.levelCount_ = levelCount_;
  repeatLine_ = kNoLine;
  std::uint64_t end = address + (size == 0 ? 1 : size);
  std::uint64_t first = address >> topBits_;
  std::uint64_t last = (end - 1) >> topBits_;
  if (first == last && !exclusive_) {
    detail::Level& top = levels_[0];
    std::uint64_t set = top.setOf(first);
    std::uint32_t way = top.find(set, first);
    if (way != kNoWay && !classifying_ && (!isWrite || topWriteBack_)) {
      firstLevelHit(set, way, first, isWrite, out);
      return;
    }
    if (isWrite)
      demandWrite(0, address, static_cast<std::uint32_t>(end - address), out, way);
    else
      demandRead(0, address, out, way);
  } else if (first == last) {
    accessLine(address, static_cast<std::uint32_t>(end - address), isWrite, out);
  } else {
    for (std::uint64_t line = first; line <= last; ++line) {
      std::uint64_t from = std::max(address, line << topBits_);
      std::uint64_t to = std::min(end, (line + 1) << topBits_);
      accessLine(from, static_cast<std::uint32_t>(to - from), isWrite, out);
    }
    repeatLine_ = kNoLine;
  }
  for (std::uint32_t k = 0; k < out.flagged_; ++k) addDemand(out.levels_[k], stats_[k]);
}

/* A one-line access that hits the first level, with nothing to send down and no classifier to
   feed: only the policy's recency and the dirty bit change. */
void Hierarchy::firstLevelHit(std::uint64_t set, std::uint32_t way, std::uint64_t line, bool isWrite, Outcome& out) {
  detail::Level& top = levels_[0];
  if (isWrite) top.setDirty(set, way);
  top.use(set, way);
  rememberHit(line, set, way);
  LevelOutcome& o = flag(out, 0);
  o.accessed = true;
  o.isWrite = isWrite;
  ++(isWrite ? stats_[0].writes : stats_[0].reads);
}

void Hierarchy::accessLine(std::uint64_t address, std::uint32_t bytes, bool isWrite, Outcome& out) {
  if (exclusive_)
    exclusiveAccess(address >> topBits_, bytes, isWrite, out);
  else if (isWrite)
    demandWrite(0, address, bytes, out);
  else
    demandRead(0, address, out);
}

/* Level "k"'s outcome, to set its demand flags. */
LevelOutcome& Hierarchy::flag(Outcome& out, std::size_t k) const {
  if (k >= out.flagged_) out.flagged_ = static_cast<std::uint32_t>(k + 1);
  return out.levels_[k];
}

/* Add "n" to "field" of level "k"'s statistics and of this access's effects there. */
void Hierarchy::count(Outcome& out, std::size_t k, std::uint64_t LevelStats::*field, std::uint64_t n) {
  if (k >= out.affected_) out.affected_ = static_cast<std::uint32_t>(k + 1);
  out.levels_[k].effects.*field += n;
  stats_[k].*field += n;
}

/* A read of the line holding "address" at level "k": a core read, or a fill for level k-1.
   "way" is where the line is if the caller looked (kNoWay: absent), else kUnknownWay. */
void Hierarchy::demandRead(std::size_t k, std::uint64_t address, Outcome& out, std::uint32_t way) {
  detail::Level& level = levels_[k];
  LevelOutcome& o = flag(out, k);
  o.accessed = true;
  std::uint64_t line = address >> level.lineBits();
  std::uint64_t set = level.setOf(line);
  if (way == kUnknownWay) way = level.find(set, line);
  if (classifying_) noteDemand(k, line, way != kNoWay, true, o);
  if (way != kNoWay) {
    level.use(set, way);
    if (k == 0) rememberHit(line, set, way);
    return;
  }
  o.missed = true;
  allocate(k, line, out);
}

/* A write of "bytes" bytes at "address" reaching level "k": from the core, written through by
   level k-1, or sent down by its no-write-allocate miss. "way" as for demandRead(). */
void Hierarchy::demandWrite(std::size_t k, std::uint64_t address, std::uint32_t bytes, Outcome& out, std::uint32_t way) {
  detail::Level& level = levels_[k];
  LevelOutcome& o = flag(out, k);
  o.accessed = true;
  o.isWrite = true;
  std::uint64_t line = address >> level.lineBits();
  std::uint64_t set = level.setOf(line);
  if (way == kUnknownWay) way = level.find(set, line);
  if (classifying_) noteDemand(k, line, way != kNoWay, level.writeAllocate(), o);
  if (way != kNoWay) {
    level.use(set, way);
    if (k == 0) rememberHit(line, set, way);
  } else {
    o.missed = true;
    if (!level.writeAllocate()) {
      forwardWrite(k, address, bytes, out);
      return;
    }
    way = allocate(k, line, out);
  }
  if (level.writeBack())
    level.setDirty(set, way);
  else
    forwardWrite(k, address, bytes, out);
}

/* Level "k" sends a write of "bytes" bytes at "address" to the level below (or memory). */
void Hierarchy::forwardWrite(std::size_t k, std::uint64_t address, std::uint32_t bytes, Outcome& out) {
  count(out, k, &LevelStats::bytesToBelow, bytes);
  if (k + 1 < levels_.size()) demandWrite(k + 1, address, bytes, out);
}

/* Make room for "line" in level "k" and fetch it from below; returns the way it is in, clean. */
std::uint32_t Hierarchy::allocate(std::size_t k, std::uint64_t line, Outcome& out) {
  detail::Level& level = levels_[k];
  std::uint64_t set = level.setOf(line);
  std::uint32_t slot = level.chooseSlot(set);
  if (level.lineAt(set, slot) != kNoLine) evict(k, set, slot, out);
  count(out, k, &LevelStats::bytesFromBelow, level.lineBytes());
  if (k + 1 < levels_.size()) demandRead(k + 1, line << level.lineBits(), out);
  level.install(set, slot, line, false);
  return slot;
}

/* Level "k" evicts the line in "way" of "set"; an inclusive hierarchy first takes it out of the
   levels above, whose dirty data lands in it; a dirty victim is written back. */
void Hierarchy::evict(std::size_t k, std::uint64_t set, std::uint32_t way, Outcome& out) {
  detail::Level& level = levels_[k];
  std::uint64_t victim = level.lineAt(set, way);
  count(out, k, &LevelStats::evictions);
  if (inclusive_) backInvalidate(k, victim, out);
  bool dirty = level.dirtyAt(set, way);
  level.remove(set, way);
  if (!dirty) return;
  count(out, k, &LevelStats::writebacks);
  count(out, k, &LevelStats::bytesToBelow, level.lineBytes());
  receiveWriteback(k + 1, victim << level.lineBits(), level.lineBytes(), out);
}

/* Remove every part of level "k"'s "line" from the levels above it, top first, so that dirty data
   travels down through each level to the victim. */
void Hierarchy::backInvalidate(std::size_t k, std::uint64_t line, Outcome& out) {
  std::uint64_t begin = line << levels_[k].lineBits();
  std::uint64_t last = begin + levels_[k].lineBytes() - 1;
  for (std::size_t j = 0; j < k; ++j) {
    detail::Level& upper = levels_[j];
    for (std::uint64_t u = begin >> upper.lineBits(); u <= last >> upper.lineBits(); ++u) {
      std::uint64_t set = upper.setOf(u);
      std::uint32_t way = upper.find(set, u);
      if (way == kNoWay) continue;
      bool dirty = upper.dirtyAt(set, way);
      upper.remove(set, way);
      if (classifying_) classifiers_[j].shadowRemove(u);
      count(out, j, &LevelStats::invalidations);
      if (!dirty) continue;
      count(out, j, &LevelStats::writebacks);
      count(out, j, &LevelStats::bytesToBelow, upper.lineBytes());
      receiveWriteback(j + 1, u << upper.lineBits(), upper.lineBytes(), out);
    }
  }
}

/* Dirty data of "bytes" bytes at "address" written back into level "k" (k == levelCount():
   memory). It counts as a write; it marks the line dirty where present without changing its
   recency, and never allocates: a miss, or a write-through level, passes it on down. */
void Hierarchy::receiveWriteback(std::size_t k, std::uint64_t address, std::uint32_t bytes, Outcome& out) {
  if (k == levels_.size()) return;
  detail::Level& level = levels_[k];
  count(out, k, &LevelStats::writes);
  std::uint64_t line = address >> level.lineBits();
  std::uint64_t set = level.setOf(line);
  std::uint32_t way = level.find(set, line);
  MissClass c = classifying_ ? classifiers_[k].access(line, way != kNoWay) : MissClass::None;
  if (way != kNoWay && level.writeBack()) {
    level.setDirty(set, way);
    return;
  }
  if (way == kNoWay) {
    count(out, k, &LevelStats::writeMisses);
    if (c != MissClass::None) countWriteMissClass(out, k, c);
  }
  count(out, k, &LevelStats::bytesToBelow, bytes);
  receiveWriteback(k + 1, address, bytes, out);
}

/* A write-back of this access missed at level "k" for reason "c". */
void Hierarchy::countWriteMissClass(Outcome& out, std::size_t k, MissClass c) {
  if (k >= out.affected_) out.affected_ = static_cast<std::uint32_t>(k + 1);
  out.classAffected_ = true;
  ++out.levels_[k].effects.writeMissClass[missClassIndex(c)];
  ++stats_[k].writeMissClass[missClassIndex(c)];
}

/* Feed a demand access to level "k"'s classifier; a miss's class joins the level's outcome, where
   the first class in MissClass order wins. A write-back, in receiveWriteback(), counts as an
   access for the cold test but, like in the level itself, changes nothing in the shadow. */
void Hierarchy::noteDemand(std::size_t k, std::uint64_t line, bool hit, bool allocates, LevelOutcome& level) {
  MissClass c = classifiers_[k].access(line, hit);
  if (c != MissClass::None && (level.missClass == MissClass::None || c < level.missClass)) level.missClass = c;
  classifiers_[k].shadowUse(line, allocates);
}

MemoryTraffic Hierarchy::memoryTraffic() const { return {stats_.back().bytesFromBelow, stats_.back().bytesToBelow}; }

void Hierarchy::resetStats() { std::fill(stats_.begin(), stats_.end(), LevelStats{}); }

bool Hierarchy::contains(std::size_t level, std::uint64_t address) const {
  const detail::Level& l = levels_.at(level);
  std::uint64_t line = address >> l.lineBits();
  return l.find(l.setOf(line), line) != kNoWay;
}

std::vector<ResidentLine> Hierarchy::contents(std::size_t level) const { return levels_.at(level).contents(); }

}  // namespace cats::cache
