// LRU and FIFO: every way has a stamp from the level's clock, set when a line arrives (both) and
// when it is used (LRU only); the victim is the way with the smallest stamp. Empty ways have stamp
// 0, so the first empty way comes before any line. No policy moves lines between ways, so a hit
// costs one store and a miss one pass over the stamps.
#pragma once

#include <algorithm>
#include <cstdint>

namespace cats::cache::detail::lru {

/* The way of the smallest of the "ways" stamps (the first of equal ones). Up to 256 ways, the
   minimum of (stamp << 8 | way) gives both at once in two independent chains, instead of one
   chain of two conditional moves per way (stamps stay below 2^56: one per access). */
[[gnu::always_inline]] inline std::uint32_t oldest(const std::uint64_t* stamps, std::uint32_t ways) {
  if (ways <= 256) {
    std::uint64_t even = ~std::uint64_t{0}, odd = ~std::uint64_t{0};
    std::uint32_t way = 0;
    for (; way + 1 < ways; way += 2) {
      even = std::min(even, stamps[way] << 8 | way);
      odd = std::min(odd, stamps[way + 1] << 8 | (way + 1));
    }
    if (way < ways) even = std::min(even, stamps[way] << 8 | way);
    return static_cast<std::uint32_t>(std::min(even, odd) & 0xff);
  }
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
