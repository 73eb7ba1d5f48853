// Splitting a hierarchy's sets among threads (docs/performance.md, "Threads"): lines whose
// address agrees in a few bits above every level's line offset land in the same sets at every
// level, and nothing an engine does to one line touches a line of another part (fills, evictions,
// write-backs, inclusive purges and exclusive moves all act on the same line). So each thread can
// run the whole stream, simulate only its part's lines, and the parts' counters add up exactly.
#pragma once

#include "cache/config.hpp"
#include "cache/mru_hierarchy.hpp"
#include "sim/program.hpp"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

namespace cats::sim {

/// What the second part's lines of each access spanning both parts did, passed in stream order
/// to the first part's thread, which counts the access once (both parts meet the same spanning
/// accesses in the same order: runs never hold one, and a part warps over one only together with
/// the other, WarpRendezvous). Spans' walks hand theirs over after the walk. Bounded: the
/// thread that is ahead waits. Each side publishes its position in steps, not per outcome: the
/// two positions are the only memory the threads share, and a shared line costs a transfer.
class SpanChannel {
 public:
  /// False if "stop" was set, or the consumer finished, while waiting for room.
  bool push(const cache::MruOutcome& outcome, const std::atomic<bool>& stop);
  /// Makes every pushed outcome visible to pop() (at the end of each batch, and when closing).
  void flush() { written_.store(writing_, std::memory_order_release); }
  /// False if "stop" was set, or the producer closed the channel, while waiting for an outcome.
  bool pop(cache::MruOutcome& outcome, const std::atomic<bool>& stop);
  /// The producer has no more outcomes.
  void close() {
    flush();
    closed_.store(true, std::memory_order_release);
  }
  /// The consumer takes no more outcomes.
  void finishReading() { finished_.store(true, std::memory_order_release); }
  /// Outcomes pushed and never popped (once both sides are done).
  std::uint64_t left() const { return written_.load(std::memory_order_acquire) - reading_; }

 private:
  static constexpr std::uint64_t kSlots = std::uint64_t{1} << 16;
  static constexpr std::uint64_t kStep = 1024;  // outcomes between publications
  // Left uninitialised: a run touches only the slots it uses, where zeroing all 512 KiB cost
  // every split run 128 page faults (about 0.3 ms).
  struct Slot {
    std::uint32_t accessed, missed;
  };
  std::unique_ptr<Slot[]> ring_ = std::make_unique_for_overwrite<Slot[]>(kSlots);
  alignas(64) std::atomic<std::uint64_t> written_{0};
  std::atomic<bool> closed_{false};
  alignas(64) std::atomic<std::uint64_t> read_{0};
  std::atomic<bool> finished_{false};
  alignas(64) std::uint64_t writing_ = 0;  // the producer's own position
  std::uint64_t roomUntil_ = 0;            // the producer may write up to here without looking
  alignas(64) std::uint64_t reading_ = 0;  // the consumer's own position
  std::uint64_t readableUntil_ = 0;        // the consumer may read up to here without looking
};

/// Two parts whose accesses may span them warp only together (docs/performance.md, "Threads"):
/// at each look, each part posts which of its kept states the state now equals (a bit per
/// state), and both take the states both parts matched. Both parts look at the same points of
/// the stream, in the same order, so the n-th look of one is the n-th of the other.
class WarpRendezvous {
 public:
  /// Part "part"'s answer "matched" to its next look, made at point "where" of the stream; the
  /// other part's answer to the same look ANDed with it, or nullopt if "stop" was set or the
  /// other part ended while this one waited. Throws std::logic_error if the other part made its
  /// look at another point.
  std::optional<std::uint32_t> exchange(unsigned part, std::uint32_t matched, std::uint64_t where, const std::atomic<bool>& stop);
  /// Part "part" makes no more looks.
  void finish(unsigned part) { slots_[part][0].ended.store(true, std::memory_order_release); }

 private:
  struct alignas(64) Slot {
    std::atomic<std::uint64_t> posted{0};  // (look << 32) | matched; look 0: none yet
    std::atomic<std::uint64_t> where{0};   // the look's point, stored before "posted"
    std::atomic<bool> ended{false};        // used in slot 0 only
  };
  // Per part, two slots used by turns: a part can be at most one look ahead of the other, as it
  // waits at each look for the other's answer, so a slot is read before it is written again.
  std::array<std::array<Slot, 2>, 2> slots_;
  std::array<std::uint64_t, 2> looks_{0, 0};  // each part's own count, touched by it alone
};

/// The lines one thread simulates: those whose address has "part" in bits bit .. bit+log2(parts)-1.
struct Partition {
  unsigned bit = 0;
  std::uint64_t mask = 0;  // parts - 1
  std::uint64_t part = 0;
  std::atomic<bool>* stop = nullptr;           // set by a thread that failed: every thread stops
  std::atomic<std::uint64_t>* done = nullptr;  // this thread's accesses so far, for the progress line
  SpanChannel* channel = nullptr;              // outcomes of accesses spanning both parts, from part 1 to part 0
  WarpRendezvous* rendezvous = nullptr;        // set: the parts warp together, spanning accesses or not

  /// Bytes address .. address+bytes-1 (one byte for a size 0) do not all lie in one part's blocks.
  bool spans(std::uint64_t address, std::uint32_t bytes) const {
    const std::uint64_t last = address + bytes - (bytes != 0 ? 1 : 0);
    return ((address ^ last) >> bit) != 0;
  }
  bool owns(std::uint64_t address) const { return ((address >> bit) & mask) == part; }
};

/// The lowest bit that splits every level of "config" into "parts" (a power of two) groups of
/// whole sets, or nullopt: a level with fewer than "parts" sets, or state shared by all sets
/// (Random replacement's generator, the miss classifier's shadow caches, per-set or filler
/// observations, which are reported per set and line as one hierarchy).
std::optional<unsigned> partitionBit(const cache::HierarchyConfig& config, unsigned parts);

/// The highest such bit: parts of blocks as large as every level's sets allow, so that an access
/// spans two parts only where it straddles such a block (bit 11 for Cachegrind's 32 KiB
/// eight-way first level, where partitionBit gives 6). Nullopt where partitionBit gives none.
std::optional<unsigned> highPartitionBit(const cache::HierarchyConfig& config, unsigned parts);

/// Whether some access of "program" may span two lines of "lineBytes": its size rounded up to a
/// power of two does not divide its offset's every term, its draw stride or its container's
/// alignment. A program that has them splits by the highest part bit (highPartitionBit), its
/// parts warping together, or runs on one thread; a proof, not a guess, when false.
bool accessesMayCrossLines(const Program& program, std::uint32_t lineBytes);

/// accessesMayCrossLines, and the most accesses in the body of one innermost loop (arms
/// included: a leaf's walk per iteration).
struct LineCrossings {
  bool may = false;
  std::size_t widestLeaf = 0;
};
LineCrossings lineCrossings(const Program& program, std::uint32_t lineBytes);

}  // namespace cats::sim
