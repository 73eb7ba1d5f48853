#include "sim/line_classes.hpp"

#include <algorithm>

namespace cats::sim {

namespace {

// Classes at most this share of the accesses (in thirds): fewer saved accesses do not pay for
// the set check per class and iteration.
constexpr std::size_t kMostClassThirds = 2;

}  // namespace

/* Two accesses share a line in every iteration when they move alike (the same stride and the
   same drawn offsets: the same key) and either are at the same address or, moving by whole
   lines only, start in the same line. */
bool LineClasses::build(const LeafSpan& span, std::uint32_t lineBits, std::uint64_t setMask) {
  const std::uint64_t line = std::uint64_t{1} << lineBits, low = line - 1;
  lineBits_ = lineBits;
  setMask_ = setMask;
  if (stamps_.size() != setMask + 1) {
    stamps_.assign(setMask + 1, 0);
    counts_.assign(setMask + 1, 0);
    check_ = 0;
  }
  leaders_.clear();
  followers_.clear();
  writesAfter_.clear();
  firstAddress_.clear();
  classOf_.assign(span.count, 0);
  for (std::size_t k = 0; k < span.count; ++k) {
    const LeafAccess& a = span.accesses[k];
    const std::uint32_t key = span.drawnSlots ? span.drawnSlots[k] : 0;
    const std::uint64_t bits = span.drawnBits ? span.drawnBits[key] : 0;  // slot 0 (linear) has none
    const std::uint64_t size = std::max<std::uint32_t>(a.bytes, 1);
    if (!a.staysInBlocks(span.current, span.step, line) || (bits & (size - 1)) != 0) return false;
    const std::uint64_t address = a.addressAt(span.current) + span.drawnOffset(0, k);
    const bool wholeLines = (static_cast<std::uint64_t>(a.stride * span.step) & low) == 0 && (bits & low) == 0;
    std::size_t c = 0;
    for (; c < leaders_.size(); ++c) {
      const LeafAccess& l = span.accesses[leaders_[c]];
      const std::uint32_t leaderKey = span.drawnSlots ? span.drawnSlots[leaders_[c]] : 0;
      if (l.stride == a.stride && leaderKey == key &&
          (address == firstAddress_[c] || (wholeLines && (address >> lineBits) == (firstAddress_[c] >> lineBits))))
        break;
    }
    classOf_[k] = static_cast<std::uint32_t>(c);
    if (c < leaders_.size()) {
      followers_.push_back(static_cast<std::uint32_t>(k));
      writesAfter_[c] = writesAfter_[c] != 0 || a.write ? 1 : 0;
      continue;
    }
    leaders_.push_back(static_cast<std::uint32_t>(k));
    writesAfter_.push_back(0);
    firstAddress_.push_back(address);
  }
  byLast_.clear();  // each class where its last access is, walking back
  std::vector<bool>& listed = listed_;
  listed.assign(leaders_.size(), false);
  for (std::size_t k = span.count; k-- > 0;)
    if (!listed[classOf_[k]]) {
      listed[classOf_[k]] = true;
      byLast_.push_back(classOf_[k]);
    }
  std::reverse(byLast_.begin(), byLast_.end());
  return leaders_.size() * 3 <= span.count * kMostClassThirds;
}

}  // namespace cats::sim
