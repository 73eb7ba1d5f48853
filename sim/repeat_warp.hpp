// Warping over iterations that repeat (docs/performance.md, "Warping"). At the start of an
// iteration of a loop whose every iteration makes the same accesses, the cache state is compared
// with the states at earlier starts of the same run of the loop: when it equals the one q
// iterations back, the next q iterations do exactly what the last q did and end in the same
// state again, so every whole period left is counted at once and skipped.
#pragma once

#include "sim/partition.hpp"
#include "sim/simulate.hpp"
#include "sim/stream.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace cats::sim {

/// "now" plus "times" more of what it gained since "before".
inline LevelCounts repeated(const LevelCounts& now, const LevelCounts& before, std::uint64_t times) {
  const auto more = [times](std::uint64_t a, std::uint64_t b) { return a + times * (a - b); };
  LevelCounts out;
  out.reads = more(now.reads, before.reads);
  out.writes = more(now.writes, before.writes);
  out.readMisses = more(now.readMisses, before.readMisses);
  out.writeMisses = more(now.writeMisses, before.writeMisses);
  for (std::size_t i = 0; i < out.missClass.size(); ++i) out.missClass[i] = more(now.missClass[i], before.missClass[i]);
  return out;
}

/// Engines whose whole state can be compared: warping applies to them.
template <class Engine>
concept CapturesState = requires(const Engine& engine, std::vector<std::uint64_t>& image) { engine.captureState(image); };

/// "Engine" is a cache hierarchy with captureState(), stats() and repeatStats().
template <class Engine>
class RepeatWarp {
 public:
  /// "spanning" (may be null) counts the accesses that spanned a split simulation's parts so far:
  /// no warp skips a period that had one (sim/partition.hpp). Unless "joint" has a rendezvous:
  /// then the two parts warp together, over the same periods, spanning accesses or not.
  RepeatWarp(Engine& engine, std::vector<LevelCounts>& counts, const std::uint64_t* spanning = nullptr, const Partition* joint = nullptr)
      : engine_(engine), counts_(counts), spanning_(spanning), joint_(joint && joint->rendezvous ? joint : nullptr) {}

  /// At the stream's repeat point, after "accesses" accesses of this part's and "streamed" of the
  /// stream's (every part's, which decides when to look: the same in each part): remember the
  /// state, or warp. Returns the accesses the warp counted without simulating them; adds the
  /// stream's accesses it skipped to "streamed".
  std::uint64_t at(AddressStream& stream, std::uint64_t accesses, std::uint64_t& streamed) {
    const RepeatPoint point = stream.repeatPoint();
    loops_.resize(point.depth + 1);  // deeper loops have ended
    Loop& loop = loops_[point.depth];
    if (loop.entry != point.entry) {
      loop = Loop{};
      loop.entry = point.entry;
    }
    if (point.sameAfter >= 0) return atLineRun(stream, accesses, streamed, point, loop);
    if (loop.done || streamed < loop.nextAt) return 0;
    image_.clear();
    engine_.captureState(image_);
    // A look costs about the image and the counters: looks are at least twice that many accesses apart.
    if (loop.gap == 0) loop.gap = 2 * (image_.size() + 8 * counts_.size());
    const std::uint32_t matched = matches(loop.seen, streamed);
    for (auto it = loop.seen.rbegin(); it != loop.seen.rend(); ++it) {
      if (!matchedAt(matched, loop.seen, it)) continue;
      const std::int64_t period = it->remaining - point.remaining;
      const std::int64_t periods = point.remaining / period;
      loop.done = true;  // fewer than a period is left after a warp, and nothing before one
      if (periods == 0) return 0;
      const auto times = static_cast<std::uint64_t>(periods);
      for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] = repeated(counts_[i], it->counts[i], times);
      engine_.repeatStats(it->stats, times);
      stream.skipIterations(periods * period);
      streamed += times * (streamed - it->streamed);
      return times * (accesses - it->accesses);
    }
    if (loop.seen.size() == kKept) loop.seen.erase(loop.seen.begin());
    loop.seen.push_back(Snapshot{point.remaining, accesses, streamed, image_, engine_.stats(), counts_, 0, spanning()});
    // States that do not repeat soon may still repeat later (FIFO cycles): look less often, then stop.
    ++loop.looks;
    if (loop.looks % kKept == 0) loop.gap *= 2;
    loop.done = loop.looks >= kMaxLooks;
    loop.nextAt = streamed + loop.gap;
    return 0;
  }

 private:
  static constexpr std::size_t kKept = 4;  // periods of up to four looks are found
  static_assert(kKept <= 32, "matches() answers in a 32-bit mask");
  static constexpr int kMaxLooks = 40;
  struct Snapshot {
    std::int64_t remaining = 0;
    std::uint64_t accesses = 0;
    std::uint64_t streamed = 0;
    std::vector<std::uint64_t> image;
    std::vector<cache::LevelStats> stats;
    std::vector<LevelCounts> counts;
    std::int64_t sameAfter = 0;  // line runs: iterations after this one that use its lines
    std::uint64_t spanning = 0;  // accesses that had spanned a split simulation's parts
  };
  struct Loop {
    std::uint64_t entry = 0;
    std::vector<Snapshot> seen;
    std::uint64_t nextAt = 0;
    std::uint64_t gap = 0;
    int looks = 0;
    bool done = false;
  };
  /// Line-run looks of one loop over all its runs: a loop whose state never repeats is left alone.
  struct LineRunRecord {
    std::uint64_t looks = 0;
    std::uint64_t warps = 0;
  };
  static constexpr std::uint64_t kLineRunTrial = 64;  // looks before a loop that never warped is left alone

  /* A line run (docs/performance.md, "Line runs of outer iterations"): the iteration starting now
     and the ones after it use the lines of the last few, in the same order. If the state equals
     the one q iterations back, the next q do what the last q did and end in the same state
     again: every whole period left in the run is counted at once. */
  std::uint64_t atLineRun(AddressStream& stream, std::uint64_t accesses, std::uint64_t& streamed, const RepeatPoint& point, Loop& loop) {
    LineRunRecord& record = lineRuns_[point.loop];
    // "seen" holds consecutive iterations' starts whose lines the one starting now uses too.
    const bool follows = !loop.seen.empty() && loop.seen.back().remaining == point.remaining + 1 && loop.seen.back().sameAfter > 0;
    const bool hopeless = record.looks >= kLineRunTrial && record.warps * 16 < record.looks;
    if (!follows) loop.seen.clear();
    if (hopeless || (!follows && point.sameAfter == 0)) return 0;
    // An iteration costs about its accesses; a look about the image and the counters.
    if (follows && (streamed - loop.seen.back().streamed) * 8 < image_.size() + 8 * counts_.size()) {
      loop.seen.clear();
      return 0;
    }
    image_.clear();
    engine_.captureState(image_);
    ++record.looks;
    const std::uint32_t matched = matches(loop.seen, streamed);
    for (auto it = loop.seen.rbegin(); it != loop.seen.rend(); ++it) {
      if (!matchedAt(matched, loop.seen, it)) continue;
      const std::int64_t period = it->remaining - point.remaining;
      const std::int64_t periods = loop.seen.back().sameAfter / period;  // the run's iterations from this one on
      if (periods == 0) break;
      const auto times = static_cast<std::uint64_t>(periods);
      for (std::size_t i = 0; i < counts_.size(); ++i) counts_[i] = repeated(counts_[i], it->counts[i], times);
      engine_.repeatStats(it->stats, times);
      stream.skipIterations(periods * period);
      ++record.warps;
      streamed += times * (streamed - it->streamed);
      const std::uint64_t skipped = times * (accesses - it->accesses);
      loop.seen.clear();
      return skipped;
    }
    if (point.sameAfter == 0) {
      loop.seen.clear();
      return 0;
    }
    if (loop.seen.size() == kKept) loop.seen.erase(loop.seen.begin());
    loop.seen.push_back(Snapshot{point.remaining, accesses, streamed, image_, engine_.stats(), counts_, point.sameAfter, spanning()});
    return 0;
  }

  std::uint64_t spanning() const { return spanning_ ? *spanning_ : 0; }

  /* Which kept states the state now equals (bit i: seen[i]), without an access spanning the
     parts since, or, where the parts warp together, which both parts' states equal (both look
     after "streamed" accesses of the stream). */
  std::uint32_t matches(const std::vector<Snapshot>& seen, std::uint64_t streamed) {
    std::uint32_t matched = 0;
    for (std::size_t i = 0; i < seen.size(); ++i)
      if (seen[i].image == image_ && (joint_ || seen[i].spanning == spanning())) matched |= 1u << i;
    if (!joint_) return matched;
    const std::optional<std::uint32_t> both = joint_->rendezvous->exchange(static_cast<unsigned>(joint_->part), matched, streamed, *joint_->stop);
    if (both) return *both;
    if (joint_->stop->load()) return 0;  // another thread failed: its error is reported
    throw std::logic_error("the threads of a split simulation looked for repeating states a different number of times");
  }
  template <typename It>
  static bool matchedAt(std::uint32_t matched, const std::vector<Snapshot>& seen, It it) {
    return (matched >> static_cast<std::size_t>(seen.rend() - it - 1) & 1u) != 0;
  }

  Engine& engine_;
  std::vector<LevelCounts>& counts_;
  const std::uint64_t* spanning_;
  const Partition* joint_;
  std::vector<Loop> loops_;  // by the loop's depth in the stream's frame stack
  std::unordered_map<const LoopOp*, LineRunRecord> lineRuns_;
  std::vector<std::uint64_t> image_;
};

}  // namespace cats::sim
