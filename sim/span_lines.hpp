// Where each access of a leaf span leaves its line (sim/simulate.cpp's runs of same-line
// iterations found in place, docs/performance.md, "Bulk hits").
#pragma once

#include "sim/stream.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

namespace cats::sim {

/* Where each access of a leaf span leaves its line, for finding runs of same-line iterations in
   place. With strides that divide the line, one period of iterations is worked out at the start
   and looked up after (tabulatePeriod; docs/performance.md, stop 37). Otherwise each access's
   last iteration in its current line is recomputed when it has entered a new one. The arithmetic
   is movesWithinBlock's with each stride's shift worked out once per span: calling it cost
   matmul_ikj 5 % more instructions. */
class SpanLines {
 public:
  void start(const LeafSpan& span) {
    tracks_.clear();
    spans_ = false;
    const std::uint64_t mask = span.runLineBytes - 1;
    for (std::size_t k = 0; k < span.count; ++k) {
      const LeafAccess& a = span.accesses[k];
      const std::int64_t moves = a.stride * span.step;  // bytes per iteration; smaller than a line (AddressStream::findRuns)
      const std::uint64_t first = a.addressAt(span.current), last = first + std::max<std::uint32_t>(a.bytes, 1) - 1;
      if (moves == 0) {  // never leaves its line, or always spans two
        spans_ = spans_ || ((first ^ last) & ~mask) != 0;
        continue;
      }
      const auto size = static_cast<std::uint64_t>(moves > 0 ? moves : -moves);
      tracks_.push_back(Track{first, last, moves, size, (size & (size - 1)) == 0 ? std::countr_zero(size) : -1, -1});  // no popcount call
    }
    mask_ = mask;
    iterations_ = span.iterations;
    minLast_ = -1;
    periodic_ = !spans_ && tabulatePeriod();
  }
  /// True if sameAfter() is 0 after every iteration of the span: some access leaves its line (or
  /// spans two) in every iteration, as in a stencil whose rows lie at different offsets in their
  /// lines. The caller then need not ask.
  bool never() const {
    return spans_ || (periodic_ && std::all_of(same_.begin(), same_.begin() + static_cast<std::ptrdiff_t>(periodMask_ + 1),
                                               [](std::uint8_t s) { return s == 0; }));
  }
  /// After iteration "t" of the span: how many iterations after it keep every access in its line.
  std::int64_t sameAfter(std::int64_t t) {
    if (periodic_) return same_[static_cast<std::uint64_t>(t) & periodMask_];
    if (t <= minLast_) return minLast_ - t;  // no access has left its line since the last look
    if (spans_) return 0;
    std::int64_t best = iterations_;
    for (Track& track : tracks_) {
      if (track.lastSame < t) {
        const auto shift = static_cast<std::uint64_t>(track.moves * t);
        const std::uint64_t first = track.first + shift, last = track.last + shift;
        if (((first ^ last) & ~mask_) != 0) {
          track.lastSame = t;  // it spans two lines now: no run after this iteration
        } else {
          const std::uint64_t left = track.moves > 0 ? mask_ - (last & mask_) : first & mask_;  // bytes it may still move
          const std::uint64_t room = track.shift >= 0 ? left >> track.shift : left / track.size;
          track.lastSame = t + static_cast<std::int64_t>(std::min<std::uint64_t>(room, static_cast<std::uint64_t>(iterations_)));
        }
      }
      best = std::min(best, track.lastSame);
    }
    minLast_ = best;
    return best - t;
  }

 private:
  /* With strides that divide the line, where the accesses stand in their lines repeats every
     "period" iterations (line / smallest move): sameAfter() of one period, worked out once, is
     then sameAfter() of every iteration (capped by the caller at the span's end). False, with
     nothing kept, for other strides, periods longer than kLongestPeriod, or a period longer
     than the span (working it out would cost more than tracking). */
  bool tabulatePeriod() {
    std::uint64_t period = 1;
    for (const Track& track : tracks_) {
      if (track.shift < 0 || (track.size & mask_) == 0) return false;
      period = std::max(period, (mask_ + 1) >> track.shift);
    }
    if (tracks_.empty() || period > kLongestPeriod || static_cast<std::int64_t>(period) > iterations_) return false;
    // The table depends only on where each access stands in its line and how it moves: the
    // leaf's next entry (the next row) usually has the last one's (floyd_warshall: 9 % of its time was here).
    if (tabulatedFor(mask_)) return true;
    periodMask_ = period - 1;
    for (std::uint64_t t = 0; t < period; ++t) {
      std::uint64_t same = period;  // more than any track's room
      for (const Track& track : tracks_) {
        const auto shift = static_cast<std::uint64_t>(track.moves * static_cast<std::int64_t>(t));
        const std::uint64_t first = track.first + shift, last = track.last + shift;
        if (((first ^ last) & ~mask_) != 0) {
          same = 0;  // it spans two lines: no run after this iteration
          break;
        }
        const std::uint64_t left = track.moves > 0 ? mask_ - (last & mask_) : first & mask_;  // bytes it may still move
        same = std::min(same, left >> track.shift);
      }
      same_[t] = static_cast<std::uint8_t>(same);
    }
    return true;
  }

  /* True if same_ was tabulated for tracks standing where tracks_ stand in their lines of
     "mask" + 1 bytes, and moving as they do; else notes tracks_ as the ones it will be tabulated for. */
  bool tabulatedFor(std::uint64_t mask) {
    const auto matches = [mask](const Track& now, const Standing& then) {
      return (now.first & mask) == then.first && (now.last & mask) == then.last && now.moves == then.moves;
    };
    if (tabulatedMask_ == mask && tabulated_.size() == tracks_.size() && std::equal(tracks_.begin(), tracks_.end(), tabulated_.begin(), matches))
      return true;
    tabulatedMask_ = mask;
    tabulated_.clear();
    for (const Track& track : tracks_) tabulated_.push_back(Standing{track.first & mask, track.last & mask, track.moves});
    return false;
  }

  static constexpr std::uint64_t kLongestPeriod = 64;  // a byte stride on 64-byte lines
  struct Standing {  // a track's first and last byte within its line, and its move per iteration
    std::uint64_t first, last;
    std::int64_t moves;
  };
  std::vector<Standing> tabulated_;  // what same_ was tabulated for
  std::uint64_t tabulatedMask_ = 0;
  struct Track {
    std::uint64_t first, last;  // its first and last byte at iteration 0
    std::int64_t moves;         // bytes per iteration (not 0)
    std::uint64_t size;         // their magnitude,
    int shift;                  // its log2 if a power of two, else -1
    std::int64_t lastSame;      // the last iteration in its current line (-1: not known yet)
  };
  std::vector<Track> tracks_;
  std::uint64_t mask_ = 0;
  std::int64_t iterations_ = 0;
  std::int64_t minLast_ = -1;  // the smallest lastSame of the tracks
  bool spans_ = false;         // an access that does not move spans two lines: no runs
  bool periodic_ = false;      // sameAfter() is same_[t mod period] (tabulatePeriod)
  std::uint64_t periodMask_ = 0;
  std::array<std::uint8_t, kLongestPeriod> same_{};
};

}  // namespace cats::sim
