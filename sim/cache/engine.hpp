// The engine's compile-time axes and its entry point: one access split into first-level lines,
// each run through the request handling of its inclusion mode (requests.hpp, exclusive.hpp), the
// demand accesses counted at the end. Included by dispatch.cpp only, which instantiates it.
#pragma once

#include "cache/hierarchy.hpp"
#include "classifier.hpp"
#include "level.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace cats::cache {

namespace detail {

/* The policies the engine is compiled for: the replacement of every level ("Mixed" when they
   differ), the inclusion mode, whether the engine observes more than the counters (miss
   classes, per-set misses, line fillers: run-time flags say which) and whether the Outcome records
   each level's effects (OutcomeDetail::Full) or only the demand flags. Write and allocation
   policies and line sizes stay run-time values: they cost one predictable branch per request. */
template <Policy R, Inclusion I, bool C, bool E>
struct Axes {
  static constexpr Policy replacement = R;
  static constexpr bool inclusive = I == Inclusion::Inclusive;
  static constexpr bool exclusive = I == Inclusion::Exclusive;
  static constexpr bool observe = C;
  static constexpr bool effects = E;
};

inline const LevelStats kNoStats{};

/* Zero "stats" with a few vector stores; a plain assignment in a loop becomes "rep stos", whose
   start-up costs more than the whole store. */
inline void clear(LevelStats& stats) { std::memcpy(&stats, &kNoStats, sizeof stats); }

/* Zero the counters of "stats" before the miss-class arrays. */
inline void clearCounts(LevelStats& stats) { std::memset(static_cast<void*>(&stats), 0, offsetof(LevelStats, readMissClass)); }

}  // namespace detail

/* Clear what the previous access set in "out" (demand-only outcomes hold no effects). */
template <class A>
inline void Hierarchy::clearOutcome(Outcome& out) {
  for (std::uint32_t k = 0; k < out.flagged_; ++k) {
    LevelOutcome& o = out.levels_[k];
    o.accessed = o.isWrite = o.missed = false;
    o.missClass = MissClass::None;
  }
  if constexpr (A::effects) {
    if (out.classAffected_)
      for (std::uint32_t k = 0; k < out.affected_; ++k) detail::clear(out.levels_[k].effects);
    else
      for (std::uint32_t k = 0; k < out.affected_; ++k) detail::clearCounts(out.levels_[k].effects);
  }
  out.flagged_ = out.affected_ = 0;
  out.classAffected_ = false;
}

/* Level "k"'s outcome, to set its demand flags. */
[[gnu::always_inline]] inline LevelOutcome& Hierarchy::flag(Outcome& out, std::size_t k) const {
  if (k >= out.flagged_) out.flagged_ = static_cast<std::uint32_t>(k + 1);
  return out.levels_[k];
}

/* Add "n" to "field" of level "k"'s statistics and (full outcomes) of this access's effects there;
   either way the outcome notes that level "k" was affected. */
template <class A>
[[gnu::always_inline]] inline void Hierarchy::count(Outcome& out, std::size_t k, std::uint64_t LevelStats::*field, std::uint64_t n) {
  if (k >= out.affected_) out.affected_ = static_cast<std::uint32_t>(k + 1);
  if constexpr (A::effects) out.levels_[k].effects.*field += n;
  stats_[k].*field += n;
}

/* A write-back of this access missed at level "k" for reason "c". */
template <class A>
inline void Hierarchy::countWriteMissClass(Outcome& out, std::size_t k, MissClass c) {
  if (k >= out.affected_) out.affected_ = static_cast<std::uint32_t>(k + 1);
  if constexpr (A::effects) {
    out.classAffected_ = true;
    ++out.levels_[k].effects.writeMissClass[missClassIndex(c)];
  }
  ++stats_[k].writeMissClass[missClassIndex(c)];
}

/* Feed a demand access to level "k"'s classifier; a miss's class joins the level's outcome, where
   the first class in MissClass order wins. A write-back, in receiveWriteback(), counts as an
   access for the cold test but, like in the level itself, changes nothing in the shadow. */
inline void Hierarchy::noteDemand(std::size_t k, std::uint64_t line, bool hit, bool allocates, LevelOutcome& level) {
  MissClass c = classifiers_[k].access(line, hit);
  if (c != MissClass::None && (level.missClass == MissClass::None || c < level.missClass)) level.missClass = c;
  classifiers_[k].shadowUse(line, allocates);
}

/* Observing: a demand access of "line" in "set" of level "k" found it in "way" (kNoWay: missed),
   before the flags of "level" record a miss. Only an access's first missing line counts in its
   set, so that the sets sum to the level's misses; a hit remembers its line's filler (the last hit line of a straddling access names it). */
inline void Hierarchy::observeDemand(std::size_t k, std::uint64_t set, std::uint64_t line, std::uint32_t way, bool allocates,
                                     LevelOutcome& level) {
  if (!classifiers_.empty()) noteDemand(k, line, way != detail::kNoWay, allocates, level);
  if (way == detail::kNoWay) {
    if (!level.missed) countSetMiss(k, set);
  } else if (observed_.tracking) {
    observed_.hitFiller[k] = levels_[k].fillerAt(set, way);
  }
}

/* Observing: one more miss in "set" of level "k", if counting them. */
inline void Hierarchy::countSetMiss(std::size_t k, std::uint64_t set) {
  if (!observed_.setMisses.empty()) ++observed_.setMisses[k][set];
}

/* Tracking fillers, at the end of an access: every level it hit counts the hit by the line's
   filler and this access's requester. */
inline void Hierarchy::countReuse(const Outcome& out) {
  for (std::uint32_t k = 0; k < out.flagged_; ++k) {
    const LevelOutcome& level = out.levels_[k];
    if (level.accessed && !level.missed) ++observed_.reuse[k][observed_.hitFiller[k] | observed_.requester];
  }
}

/* The filler word a line brought in now carries: the requester's tag + 1 when tracking, else 0. */
template <class A>
[[gnu::always_inline]] inline std::uint64_t Hierarchy::fillerWord() const {
  if constexpr (A::observe)
    if (observed_.tracking) return (observed_.requester + 1) << detail::kFillerShift;
  return 0;
}

/* The first level's "line" was hit. When classifying, access() may settle a repeat inline only if
   the line is the shadow's most recent (it is not after a no-write-allocate write hit that found
   it outside the shadow); without classification the set's most recent slot says enough. */
template <class A>
void Hierarchy::rememberHit(std::uint64_t line) {
  if constexpr (A::observe)
    if (!observed_.tracking && !classifiers_.empty() && classifiers_[0].mostRecent(line)) repeatLine_ = line;
}

/* Every access access() does not settle inline: clear what "out" holds, run each first-level line
   of the access through the hierarchy (most accesses lie in one line), count the demand accesses.
   A hit remembered during a straddling access is forgotten: a later line of it may have evicted
   the earlier one. */
template <class A>
void Hierarchy::accessPath(std::uint64_t address, std::uint32_t size, bool isWrite, Outcome& out) {
  if (out.flagged_ != 0 || out.affected_ != 0) clearOutcome<A>(out);
  out.levelCount_ = levelCount_;
  if constexpr (A::observe) repeatLine_ = detail::kNoLine;
  std::uint32_t bytes = size == 0 ? 1 : size;
  if (((address + bytes - 1) >> topBits_) == address >> topBits_)
    accessLine<A>(address, bytes, isWrite, out);
  else
    accessLines<A>(address, bytes, isWrite, out);
  for (std::uint32_t k = 0; k < out.flagged_; ++k) addDemand(out.levels_[k], stats_[k]);
  if constexpr (A::observe)
    if (observed_.tracking) countReuse(out);
}

/* The "bytes" bytes at "address", within one first-level line, through the hierarchy. */
template <class A>
[[gnu::always_inline]] inline void Hierarchy::accessLine(std::uint64_t address, std::uint32_t bytes, bool isWrite, Outcome& out) {
  if constexpr (A::exclusive)
    exclusiveAccess<A>(address >> topBits_, bytes, isWrite, out);
  else if (isWrite)
    demandWrite<A>(0, address, bytes, out);
  else
    demandRead<A>(0, address, out);
}

/* An access of "bytes" bytes at "address" straddling first-level lines, one line at a time. */
template <class A>
void Hierarchy::accessLines(std::uint64_t address, std::uint32_t bytes, bool isWrite, Outcome& out) {
  std::uint64_t end = address + bytes;
  std::uint64_t last = (end - 1) >> topBits_;
  for (std::uint64_t line = address >> topBits_;; ++line) {
    std::uint64_t from = std::max(address, line << topBits_);
    std::uint64_t to = line == last ? end : (line + 1) << topBits_;
    accessLine<A>(from, static_cast<std::uint32_t>(to - from), isWrite, out);
    if (line == last) break;
  }
  if constexpr (A::observe) repeatLine_ = detail::kNoLine;
}

}  // namespace cats::cache
