// Division by values known only at run time, on the stream's per-entry and per-access paths: a
// 64-bit division costs tens of cycles (floyd_warshall spent 6 % of its time in one per loop
// entry), and the divisors there are nearly always powers of two (unit steps, vector widths,
// line sizes, element sizes).
#pragma once

#include <bit>
#include <cstdint>

namespace cats::sim {

/// x / d for d > 0: a shift when d is a power of two.
inline std::uint64_t quotient(std::uint64_t x, std::uint64_t d) {
  return (d & (d - 1)) == 0 ? x >> std::countr_zero(d) : x / d;  // not has_single_bit: a popcount call without -mpopcnt
}

/// x % d for d > 0: a mask when d is a power of two.
inline std::uint64_t remainder(std::uint64_t x, std::uint64_t d) { return (d & (d - 1)) == 0 ? x & (d - 1) : x % d; }

}  // namespace cats::sim
