// The request handling of non-inclusive and inclusive hierarchies, for every policy combination:
// demand reads and writes go down level by level as far as they miss or are written through; a
// level that allocates evicts its victim first (writing it back, and in an inclusive hierarchy
// purging it from the levels above), then fetches the line from below. docs/cache-core.md states
// the rules. Part of the engine (engine.hpp); instantiated in dispatch.cpp.
#pragma once

#include "engine.hpp"

namespace cats::cache {

/* A read of the line holding "address" at level "k": a core read, or a fill for level k-1. */
template <class A>
void Hierarchy::demandRead(std::size_t k, std::uint64_t address, Outcome& out) {
  detail::Level& level = levels_[k];
  LevelOutcome& o = flag(out, k);
  o.accessed = true;
  std::uint64_t line = address >> level.lineBits();
  std::uint64_t set = level.setOf(line);
  std::uint32_t victim = detail::kUnknownWay;
  std::uint32_t way = level.find<A::replacement>(set, line, victim);
  if constexpr (A::observe) observeDemand(k, set, line, way, true, o);
  if (way != detail::kNoWay) {
    level.use<A::replacement>(set, way);
    if (k == 0) rememberHit<A>(line);
    return;
  }
  o.missed = true;
  allocate<A>(k, line, victim, false, out);
}

/* A write of "bytes" bytes at "address" reaching level "k": from the core, written through by
   level k-1, or sent down by its no-write-allocate miss. */
template <class A>
void Hierarchy::demandWrite(std::size_t k, std::uint64_t address, std::uint32_t bytes, Outcome& out) {
  detail::Level& level = levels_[k];
  LevelOutcome& o = flag(out, k);
  o.accessed = true;
  o.isWrite = true;
  std::uint64_t line = address >> level.lineBits();
  std::uint64_t set = level.setOf(line);
  std::uint32_t victim = detail::kUnknownWay;
  std::uint32_t way = level.find<A::replacement>(set, line, victim);
  if constexpr (A::observe) observeDemand(k, set, line, way, level.writeAllocate(), o);
  if (way != detail::kNoWay) {
    way = level.use<A::replacement>(set, way);
    if (k == 0) rememberHit<A>(line);
    if (level.writeBack()) {
      level.setDirty(set, way);
      return;
    }
  } else {
    o.missed = true;
    if (level.writeAllocate()) allocate<A>(k, line, victim, level.writeBack(), out);
    if (level.writeAllocate() && level.writeBack()) return;
  }
  forwardWrite<A>(k, address, bytes, out);
}

/* Level "k" sends a write of "bytes" bytes at "address" to the level below (or memory). */
template <class A>
void Hierarchy::forwardWrite(std::size_t k, std::uint64_t address, std::uint32_t bytes, Outcome& out) {
  count<A>(out, k, &LevelStats::bytesToBelow, bytes);
  if (k + 1 < levelCount_) demandWrite<A>(k + 1, address, bytes, out);
}

/* Make room for "line" in level "k", put it there ("dirty": a write-back level's write miss) and
   fetch it from below. "victim" is the slot find() chose (LRU, FIFO: the last way), else
   kUnknownWay. Placing the line before the fetch changes nothing the fetch can see (it misses
   below, so no victim below holds it) and leaves nothing to do after it. */
template <class A>
[[gnu::always_inline]] inline void Hierarchy::allocate(std::size_t k, std::uint64_t line, std::uint32_t victim, bool dirty, Outcome& out) {
  detail::Level& level = levels_[k];
  std::uint64_t set = level.setOf(line);
  std::uint32_t slot = victim != detail::kUnknownWay ? victim : level.chooseSlot<A::replacement>(set);
  if (level.lineAt(set, slot) != detail::kNoLine) evict<A>(k, set, slot, out);
  level.install<A::replacement>(set, slot, line, dirty, fillerWord<A>());
  count<A>(out, k, &LevelStats::bytesFromBelow, level.lineBytes());
  if (k + 1 < levelCount_) demandRead<A>(k + 1, line << level.lineBits(), out);
}

/* Level "k" evicts the line in "way" of "set"; an inclusive hierarchy first takes it out of the
   levels above, whose dirty data lands in it; a dirty victim is written back. */
template <class A>
[[gnu::always_inline]] inline void Hierarchy::evict(std::size_t k, std::uint64_t set, std::uint32_t way, Outcome& out) {
  detail::Level& level = levels_[k];
  std::uint64_t victim = level.lineAt(set, way);
  count<A>(out, k, &LevelStats::evictions);
  if constexpr (A::inclusive) backInvalidate<A>(k, victim, out);
  bool dirty = level.dirtyAt(set, way);
  level.remove<A::replacement>(set, way);
  if (!dirty) return;
  count<A>(out, k, &LevelStats::writebacks);
  count<A>(out, k, &LevelStats::bytesToBelow, level.lineBytes());
  receiveWriteback<A>(k + 1, victim << level.lineBits(), level.lineBytes(), out);
}

/* Remove every part of level "k"'s "line" from the levels above it, top first, so that dirty data
   travels down through each level to the victim. */
template <class A>
void Hierarchy::backInvalidate(std::size_t k, std::uint64_t line, Outcome& out) {
  std::uint64_t begin = line << levels_[k].lineBits();
  std::uint64_t last = begin + levels_[k].lineBytes() - 1;
  for (std::size_t j = 0; j < k; ++j) {
    detail::Level& upper = levels_[j];
    for (std::uint64_t u = begin >> upper.lineBits(); u <= last >> upper.lineBits(); ++u) {
      std::uint64_t set = upper.setOf(u);
      std::uint32_t way = upper.find(set, u);
      if (way == detail::kNoWay) continue;
      bool dirty = upper.dirtyAt(set, way);
      upper.remove<A::replacement>(set, way);
      if constexpr (A::observe)
        if (!classifiers_.empty()) classifiers_[j].shadowRemove(u);
      count<A>(out, j, &LevelStats::invalidations);
      if (!dirty) continue;
      count<A>(out, j, &LevelStats::writebacks);
      count<A>(out, j, &LevelStats::bytesToBelow, upper.lineBytes());
      receiveWriteback<A>(j + 1, u << upper.lineBits(), upper.lineBytes(), out);
    }
  }
}

/* Dirty data of "bytes" bytes at "address" written back into level "k" (k == levelCount():
   memory). It counts as a write; it marks the line dirty where present without changing its
   recency, and never allocates: a miss, or a write-through level, passes it on down. */
template <class A>
void Hierarchy::receiveWriteback(std::size_t k, std::uint64_t address, std::uint32_t bytes, Outcome& out) {
  for (; k < levelCount_; ++k) {
    detail::Level& level = levels_[k];
    count<A>(out, k, &LevelStats::writes);
    std::uint64_t line = address >> level.lineBits();
    std::uint64_t set = level.setOf(line);
    std::uint32_t way = level.find(set, line);
    MissClass c = MissClass::None;
    if constexpr (A::observe)
      if (!classifiers_.empty()) c = classifiers_[k].access(line, way != detail::kNoWay);
    if (way != detail::kNoWay && level.writeBack()) {
      level.setDirty(set, way);
      return;
    }
    if (way == detail::kNoWay) {
      count<A>(out, k, &LevelStats::writeMisses);
      if constexpr (A::observe) countSetMiss(k, set);
      if (c != MissClass::None) countWriteMissClass<A>(out, k, c);
    }
    count<A>(out, k, &LevelStats::bytesToBelow, bytes);
  }
}

}  // namespace cats::cache
