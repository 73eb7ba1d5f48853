#include "sim/partition.hpp"

#include <algorithm>
#include <bit>
#include <thread>

namespace cats::sim {

std::optional<unsigned> partitionBit(const cache::HierarchyConfig& config, unsigned parts) {
  if (parts < 2 || !std::has_single_bit(parts) || config.levels.empty() || config.observes()) return std::nullopt;
  unsigned bit = 0;  // above the largest line offset: a line of any level lies in one part
  for (const cache::LevelConfig& level : config.levels) {
    if (level.replacement == cache::Replacement::Random || level.lineBytes == 0) return std::nullopt;
    bit = std::max(bit, static_cast<unsigned>(std::countr_zero(level.lineBytes)));
  }
  const auto partBits = static_cast<unsigned>(std::countr_zero(parts));
  for (const cache::LevelConfig& level : config.levels) {
    const cache::Geometry g = cache::geometryOf(level);
    if (g.sets == 0 || !std::has_single_bit(g.sets)) return std::nullopt;
    // The part bits must be set-index bits of this level: below its line offset plus set bits.
    const auto top = static_cast<unsigned>(std::countr_zero(level.lineBytes)) + static_cast<unsigned>(std::countr_zero(g.sets));
    if (bit + partBits > top) return std::nullopt;
  }
  return bit;
}

namespace {

/* Waits a little: a pause first, a yield to the scheduler after a while. */
void backOff(unsigned& rounds) {
  if (++rounds < 64) return;
  std::this_thread::yield();
}

}  // namespace

bool SpanChannel::push(const cache::MruOutcome& outcome, const std::atomic<bool>& stop) {
  if (writing_ == roomUntil_) {
    flush();  // the consumer may be waiting for what is here
    unsigned rounds = 0;
    while ((roomUntil_ = read_.load(std::memory_order_acquire) + kSlots) == writing_) {
      if (stop.load(std::memory_order_relaxed) || finished_.load(std::memory_order_acquire)) return false;
      backOff(rounds);
    }
  }
  ring_[writing_ % kSlots] = outcome;
  if (++writing_ % kStep == 0) flush();
  return true;
}

bool SpanChannel::pop(cache::MruOutcome& outcome, const std::atomic<bool>& stop) {
  if (reading_ == readableUntil_) {
    read_.store(reading_, std::memory_order_release);  // room for the producer
    unsigned rounds = 0;
    while ((readableUntil_ = written_.load(std::memory_order_acquire)) == reading_) {
      if (stop.load(std::memory_order_relaxed)) return false;
      if (closed_.load(std::memory_order_acquire) && written_.load(std::memory_order_acquire) == reading_) return false;
      backOff(rounds);
    }
  }
  outcome = ring_[reading_ % kSlots];
  if (++reading_ % kStep == 0) read_.store(reading_, std::memory_order_release);
  return true;
}

}  // namespace cats::sim
