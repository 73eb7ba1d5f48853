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
  /// True if the lines of "addresses" (one per class) lie in distinct first-level sets.
  bool distinctSets(const std::uint64_t* addresses) {
    if (++check_ == 0) {  // wrapped: older stamps could match again
      std::fill(stamps_.begin(), stamps_.end(), 0);
      check_ = 1;
    }
    bool distinct = true;
    for (std::size_t c = 0; c < leaders_.size(); ++c) {
      std::uint32_t& stamp = stamps_[(addresses[c] >> lineBits_) & setMask_];
      distinct = distinct && stamp != check_;
      stamp = check_;
    }
    return distinct;
  }

 private:
  std::uint32_t lineBits_ = 6;
  std::uint64_t setMask_ = 0;
  std::vector<std::uint32_t> leaders_, followers_, classOf_;
  std::vector<std::uint8_t> writesAfter_;  // bytes, not vector<bool>: read per class and iteration
  std::vector<std::uint64_t> firstAddress_;  // per class: its leader's address in the span's first iteration
  std::vector<std::uint32_t> stamps_;  // per first-level set: the last check that found a class in it
  std::uint32_t check_ = 0;
};

}  // namespace cats::sim
