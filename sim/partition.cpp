#include "sim/partition.hpp"

#include <algorithm>
#include <bit>
#include <map>
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

std::optional<unsigned> highPartitionBit(const cache::HierarchyConfig& config, unsigned parts) {
  const std::optional<unsigned> low = partitionBit(config, parts);
  if (!low) return std::nullopt;
  unsigned top = 64;  // the lowest of the levels' highest set-index bits, plus one
  for (const cache::LevelConfig& level : config.levels)
    top = std::min(top, static_cast<unsigned>(std::countr_zero(level.lineBytes)) + static_cast<unsigned>(std::countr_zero(cache::geometryOf(level).sets)));
  return top - static_cast<unsigned>(std::countr_zero(parts));  // partitionBit checked that *low fits, so this one does
}

namespace {

/* Waits a little: a pause first, a yield to the scheduler after a while. */
void backOff(unsigned& rounds) {
  if (++rounds < 64) return;
  std::this_thread::yield();
}

}  // namespace

std::optional<std::uint32_t> WarpRendezvous::exchange(unsigned part, std::uint32_t matched, std::uint64_t where, const std::atomic<bool>& stop) {
  const std::uint64_t look = ++looks_[part];
  Slot& mine = slots_[part][look & 1];
  mine.where.store(where, std::memory_order_relaxed);
  mine.posted.store((look << 32) | matched, std::memory_order_release);
  const unsigned other = 1 - part;
  const Slot& theirs = slots_[other][look & 1];
  for (unsigned rounds = 0;;) {
    const std::uint64_t posted = theirs.posted.load(std::memory_order_acquire);
    if (posted >> 32 == look) {
      // The slot is not written again before this part posts its next look (the other waits for it).
      if (theirs.where.load(std::memory_order_relaxed) != where)
        throw std::logic_error("the threads of a split simulation looked for repeating states at different points");
      return matched & static_cast<std::uint32_t>(posted);
    }
    if (slots_[other][0].ended.load(std::memory_order_acquire)) {  // it may have posted just before it ended
      if (theirs.posted.load(std::memory_order_acquire) >> 32 == look) continue;
      return std::nullopt;
    }
    if (stop.load(std::memory_order_relaxed)) return std::nullopt;
    backOff(rounds);
  }
}

namespace {

/* Walks a program for accessesMayCrossLines: "moves" holds, per slot, how the innermost loop
   binding it moves it (start, step; nullopt: not constant), so a vector loop's 16-byte access
   at 8 bytes per source step, stepping by two, is seen aligned. */
class LineCrossing {
 public:
  LineCrossing(const Program& program, std::uint32_t lineBytes) : lineBytes_(lineBytes), alignment_(program.containers.size(), 0) {
    for (std::size_t c = 0; c < program.containers.size(); ++c) {
      const ContainerPlan& plan = program.containers[c];
      const std::uint64_t fixed = plan.fixedAddress.value_or(0);
      align(c, plan.fixedAddress ? static_cast<std::int64_t>(fixed & (~fixed + 1)) : plan.alignment);
    }
    program.forEachOp([&](const Op& op) {
      if (const auto* alloc = std::get_if<AllocOp>(&op.value)) align(alloc->container, alloc->alignment);
    });
  }

  /* Looks at every access of "block": whether one may cross lines, and the widest leaf. */
  void walk(const Block& block) {
    for (const Op& op : block) {
      if (const auto* a = std::get_if<AccessOp>(&op.value)) {
        found_.may = found_.may || !inBlock(*a);
      } else if (const auto* loop = op.loop()) {
        const auto start = loop->start.constantValue(), step = loop->step.constantValue();
        const std::optional<std::pair<std::int64_t, std::int64_t>> outer = bound(loop->slot);
        moves_[loop->slot] = std::nullopt;  // pre and post blocks: the slot at its first and last values
        walk(loop->pre);
        walk(loop->post);
        if (start && step) moves_[loop->slot] = std::pair{*start, *step};
        walk(loop->header);
        walk(loop->body);
        moves_[loop->slot] = outer;
        if (const std::optional<std::size_t> width = leafWidth(loop->body)) found_.widestLeaf = std::max(found_.widestLeaf, *width);
      } else if (const auto* branch = std::get_if<BranchOp>(&op.value)) {
        for (const Arm& arm : branch->arms) walk(arm.body);
      } else if (const auto* frame = std::get_if<FrameOp>(&op.value)) {
        walk(frame->body);
      }
    }
  }
  const LineCrossings& found() const { return found_; }

 private:
  /* The accesses of a loop body that holds no loop or call frame (in its arms too), or nullopt. */
  static std::optional<std::size_t> leafWidth(const Block& body) {
    std::size_t accesses = 0;
    for (const Op& op : body) {
      if (std::holds_alternative<AccessOp>(op.value)) {
        ++accesses;
      } else if (const auto* branch = std::get_if<BranchOp>(&op.value)) {
        for (const Arm& arm : branch->arms) {
          const std::optional<std::size_t> inside = leafWidth(arm.body);
          if (!inside) return std::nullopt;
          accesses += *inside;
        }
      } else if (op.loop() != nullptr || std::holds_alternative<FrameOp>(op.value)) {
        return std::nullopt;
      }
    }
    return accesses;
  }

  void align(std::size_t c, std::int64_t a) {
    a = std::max<std::int64_t>(a, 1);
    if (c < alignment_.size()) alignment_[c] = alignment_[c] == 0 ? a : std::min(alignment_[c], a);
  }
  std::optional<std::pair<std::int64_t, std::int64_t>> bound(int slot) const {
    const auto found = moves_.find(slot);
    return found == moves_.end() ? std::nullopt : found->second;
  }
  /* The access stays in one aligned block of its size rounded up, which lies in one line. */
  bool inBlock(const AccessOp& a) const {
    if (a.bytes <= 1) return true;
    const auto block = static_cast<std::int64_t>(std::bit_ceil(a.bytes));
    const auto divides = [block](std::int64_t v) { return v % block == 0; };
    if (block > static_cast<std::int64_t>(lineBytes_) || !a.offset.isLinear() || !divides(a.offset.constantTerm())) return false;
    if (a.container >= alignment_.size() || !divides(alignment_[a.container])) return false;
    if (a.randomOffset && !divides(a.drawStride)) return false;
    for (const auto& [slot, coefficient] : a.offset.terms()) {
      if (divides(coefficient)) continue;
      const auto move = bound(slot);
      if (!move || !divides(coefficient * move->first) || !divides(coefficient * move->second)) return false;
    }
    return true;
  }

  std::uint32_t lineBytes_;
  LineCrossings found_;
  std::vector<std::int64_t> alignment_;  // the least any placement of each container gives
  std::map<int, std::optional<std::pair<std::int64_t, std::int64_t>>> moves_;
};

}  // namespace

LineCrossings lineCrossings(const Program& program, std::uint32_t lineBytes) {
  LineCrossing crossing(program, lineBytes);
  crossing.walk(program.statics);
  crossing.walk(program.body);
  return crossing.found();
}

bool accessesMayCrossLines(const Program& program, std::uint32_t lineBytes) { return lineCrossings(program, lineBytes).may; }

bool SpanChannel::push(const cache::MruOutcome& outcome, const std::atomic<bool>& stop) {
  if (writing_ == roomUntil_) {
    flush();  // the consumer may be waiting for what is here
    unsigned rounds = 0;
    while ((roomUntil_ = read_.load(std::memory_order_acquire) + kSlots) == writing_) {
      if (stop.load(std::memory_order_relaxed) || finished_.load(std::memory_order_acquire)) return false;
      backOff(rounds);
    }
  }
  ring_[writing_ % kSlots] = Slot{outcome.accessed, outcome.missed};
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
  const Slot& slot = ring_[reading_ % kSlots];
  outcome = cache::MruOutcome{slot.accessed, slot.missed};
  if (++reading_ % kStep == 0) read_.store(reading_, std::memory_order_release);
  return true;
}

}  // namespace cats::sim
