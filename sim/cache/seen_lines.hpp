// The set of lines a level has ever accessed, for cold misses: one bit per line, in 64-byte
// bitmaps of 512 consecutive lines found through a LineTable. Footprints are mostly arrays, so
// lines come in dense runs and the set stays a few bits per line and cache-resident.
#pragma once

#include "line_table.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace cats::cache::detail {

class SeenLines {
 public:
  /* Record "line"; true if it was not there yet. */
  bool insert(std::uint64_t line) {
    std::uint64_t block = line / kBlockLines;
    std::uint32_t* index = blocks_.find(block);
    if (!index) {
      blocks_.insert(block, static_cast<std::uint32_t>(bits_.size()));
      bits_.emplace_back();
      index = blocks_.find(block);
    }
    std::uint64_t& word = bits_[*index][(line % kBlockLines) / 64];
    std::uint64_t bit = std::uint64_t{1} << (line % 64);
    bool fresh = (word & bit) == 0;
    word |= bit;
    return fresh;
  }

 private:
  static constexpr std::uint64_t kBlockLines = 512;

  LineTable blocks_;                                // line / 512 -> index into bits_
  std::vector<std::array<std::uint64_t, 8>> bits_;  // 512 bits each
};

}  // namespace cats::cache::detail
