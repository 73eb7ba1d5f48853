// LRU and FIFO: every way has a stamp from the level's clock, set when a line arrives (both) and
// when it is used (LRU only); the victim is the way with the smallest stamp. Empty ways have stamp
// 0, so the first empty way comes before any line. No policy moves lines between ways, so a hit
// costs one store and a miss one pass over the stamps.
#pragma once

#include <cstdint>

namespace cats::cache::detail::lru {

/* The way of the smallest of the "ways" stamps (the first of equal ones). */
inline std::uint32_t oldest(const std::uint64_t* stamps, std::uint32_t ways) {
  std::uint32_t best = 0;
  std::uint64_t bestStamp = stamps[0];
  for (std::uint32_t way = 1; way < ways; ++way) {
    std::uint64_t stamp = stamps[way];
    best = stamp < bestStamp ? way : best;
    bestStamp = stamp < bestStamp ? stamp : bestStamp;
  }
  return best;
}

}  // namespace cats::cache::detail::lru
