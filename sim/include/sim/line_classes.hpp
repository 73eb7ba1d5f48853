// Accesses of a leaf span that share one line in every iteration: kmeans's distance loop reads
// one point's row 32 times and eight centroid rows 4 times each per iteration (65 accesses, 10
// lines). In an iteration whose lines lie in distinct first-level sets, only each line's first
// access needs the cache: the others hit the newest line of its set, which changes nothing but
// its dirty bit (docs/performance.md, "Line classes").
#pragma once

#include "sim/stream.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cats::sim {

class LineClasses {
 public:
  /// Groups the accesses of "span" by the line of 2^lineBits bytes they share in all its
  /// iterations, for a first level of setMask + 1 sets. False (the span is walked access by
  /// access) if some access may cross a line, or if too few share one to pay for the check.
  bool build(const LeafSpan& span, std::uint32_t lineBits, std::uint64_t setMask);
  std::size_t size() const { return leaders_.size(); }
  /// Class c's first access of the iteration, and whether another of its accesses writes.
  std::uint32_t leader(std::size_t c) const { return leaders_[c]; }
  bool writesAfter(std::size_t c) const { return writesAfter_[c] != 0; }
  /// The accesses that do not lead their class, and the class of each access.
  const std::vector<std::uint32_t>& followers() const { return followers_; }
  std::uint32_t classOf(std::size_t access) const { return classOf_[access]; }
  /// The classes in the order of their last accesses in the iteration.
  const std::vector<std::uint32_t>& byLastAccess() const { return byLast_; }
  /// How the lines of "addresses" (one per class) share first-level sets: 0 each in a set of its
  /// own, 1 some share a set but none holds more than "ways" of them, 2 more.
  int sharedSets(const std::uint64_t* addresses, std::uint32_t ways) {
    if (++check_ == 0) {  // wrapped: older stamps could match again
      std::fill(stamps_.begin(), stamps_.end(), 0);
      check_ = 1;
    }
    std::uint32_t most = 1;
    for (std::size_t c = 0; c < leaders_.size(); ++c) {
      const std::uint64_t set = (addresses[c] >> lineBits_) & setMask_;
      const std::uint32_t here = stamps_[set] == check_ ? counts_[set] + 1 : 1;
      stamps_[set] = check_;
      counts_[set] = here;
      most = std::max(most, here);
    }
    return most == 1 ? 0 : most <= ways ? 1 : 2;
  }

 private:
  std::uint32_t lineBits_ = 6;
  std::uint64_t setMask_ = 0;
  std::vector<std::uint32_t> leaders_, followers_, classOf_;
  std::vector<std::uint8_t> writesAfter_;  // bytes, not vector<bool>: read per class and iteration
  std::vector<std::uint64_t> firstAddress_;  // per class: its leader's address in the span's first iteration
  std::vector<std::uint32_t> byLast_;  // classes by their last access
  std::vector<bool> listed_;           // build()'s scratch
  std::vector<std::uint32_t> stamps_;  // per first-level set: the last check that found a class in it
  std::vector<std::uint32_t> counts_;  // per first-level set: the classes that check found in it
  std::uint32_t check_ = 0;
};

}  // namespace cats::sim
