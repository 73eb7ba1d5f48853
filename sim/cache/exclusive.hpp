// Exclusive (victim-cache) hierarchies: a line lives in at most one level. A first-level miss looks
// the line up level by level; where it is found it moves up to the first level (from memory if
// nowhere); the first level's victim moves down one level, whose own victim moves down in turn,
// and the last level's victims leave (written back when dirty). All levels have one line size.
// Part of the engine (engine.hpp); instantiated in dispatch.cpp.
#pragma once

#include "engine.hpp"

namespace cats::cache {

/* One line of a core access in an exclusive hierarchy; "bytes" of it are written if "isWrite". */
template <class A>
void Hierarchy::exclusiveAccess(std::uint64_t line, std::uint32_t bytes, bool isWrite, Outcome& out) {
  detail::Level& top = levels_[0];
  LevelOutcome& o = flag(out, 0);
  o.accessed = true;
  o.isWrite = o.isWrite || isWrite;
  std::uint64_t set = top.setOf(line);
  std::uint32_t way = top.find(set, line);
  bool allocates = !isWrite || top.writeAllocate();
  if constexpr (A::observe) observeDemand(0, set, line, way, allocates, o);
  if (way != detail::kNoWay) {
    if (isWrite) writeInPlace<A>(0, set, way, bytes, out);
    top.use<A::replacement>(set, way);
    rememberHit<A>(line);
    return;
  }
  o.missed = true;
  if (!allocates) {
    exclusiveWriteAround<A>(line, bytes, out);
    return;
  }
  bool dirty = false;
  std::size_t source = levelCount_;
  for (std::size_t k = 1; k < levelCount_; ++k) {
    detail::Level& level = levels_[k];
    LevelOutcome& lo = flag(out, k);
    lo.accessed = true;
    std::uint64_t s = level.setOf(line);
    std::uint32_t w = level.find(s, line);
    if constexpr (A::observe) observeDemand(k, s, line, w, false, lo);
    if (w == detail::kNoWay) {
      lo.missed = true;
      continue;
    }
    dirty = level.dirtyAt(s, w);
    level.remove<A::replacement>(s, w);
    if constexpr (A::observe)
      if (!classifiers_.empty()) classifiers_[k].shadowRemove(line);
    source = k;
    break;
  }
  for (std::size_t k = 0; k < source; ++k) count<A>(out, k, &LevelStats::bytesFromBelow, top.lineBytes());
  std::uint32_t slot = top.chooseSlot<A::replacement>(set);
  if (top.lineAt(set, slot) != detail::kNoLine) moveDown<A>(0, set, slot, out);
  slot = top.install<A::replacement>(set, slot, line, dirty, fillerWord<A>());
  if (isWrite) writeInPlace<A>(0, set, slot, bytes, out);
}

/* A write that the first level does not allocate: it is done where the line lives, or in memory. */
template <class A>
void Hierarchy::exclusiveWriteAround(std::uint64_t line, std::uint32_t bytes, Outcome& out) {
  count<A>(out, 0, &LevelStats::bytesToBelow, bytes);
  for (std::size_t k = 1; k < levelCount_; ++k) {
    detail::Level& level = levels_[k];
    LevelOutcome& lo = flag(out, k);
    lo.accessed = true;
    lo.isWrite = true;
    std::uint64_t set = level.setOf(line);
    std::uint32_t way = level.find(set, line);
    if constexpr (A::observe) observeDemand(k, set, line, way, false, lo);
    if (way != detail::kNoWay) {
      writeInPlace<A>(k, set, way, bytes, out);
      level.use<A::replacement>(set, way);
      return;
    }
    lo.missed = true;
    count<A>(out, k, &LevelStats::bytesToBelow, bytes);
  }
}

/* Write "bytes" bytes into the line in "way" of "set" of level "k". A write-through level sends
   them to memory: no level below can hold the line, so the data crosses every boundary below. */
template <class A>
void Hierarchy::writeInPlace(std::size_t k, std::uint64_t set, std::uint32_t way, std::uint32_t bytes, Outcome& out) {
  if (levels_[k].writeBack()) {
    levels_[k].setDirty(set, way);
    return;
  }
  for (std::size_t j = k; j < levelCount_; ++j) count<A>(out, j, &LevelStats::bytesToBelow, bytes);
}

/* Level "k"'s victim in "way" of "set" moves one level down; the last level drops clean victims
   and writes dirty ones back to memory. */
template <class A>
void Hierarchy::moveDown(std::size_t k, std::uint64_t set, std::uint32_t way, Outcome& out) {
  detail::Level& level = levels_[k];
  std::uint64_t line = level.lineAt(set, way);
  bool dirty = level.dirtyAt(set, way);
  std::uint64_t filler = level.fillerAt(set, way);
  level.remove<A::replacement>(set, way);
  count<A>(out, k, &LevelStats::evictions);
  if (dirty) count<A>(out, k, &LevelStats::writebacks);
  if (dirty || k + 1 < levelCount_) count<A>(out, k, &LevelStats::bytesToBelow, level.lineBytes());
  if (k + 1 < levelCount_) insertVictim<A>(k + 1, line, dirty, filler, out);
}

/* A victim of the level above arrives at level "k": not an access, it takes a slot (moving this
   level's own victim down first) and counts as recent use. It keeps its filler word: the
   requester that brought the data in from memory. */
template <class A>
void Hierarchy::insertVictim(std::size_t k, std::uint64_t line, bool dirty, std::uint64_t filler, Outcome& out) {
  detail::Level& level = levels_[k];
  std::uint64_t set = level.setOf(line);
  std::uint32_t slot = level.chooseSlot<A::replacement>(set);
  if (level.lineAt(set, slot) != detail::kNoLine) moveDown<A>(k, set, slot, out);
  level.install<A::replacement>(set, slot, line, dirty, filler);
  if constexpr (A::observe)
    if (!classifiers_.empty()) classifiers_[k].shadowUse(line, true);
}

}  // namespace cats::cache
