// Keyed permutations of [0, n): a balanced Feistel network, which is a bijection whatever its
// round function, on 2h bits with 4^h >= n; values at or above n walk the cycle until below.
#include "sim/permutation.hpp"

namespace cats::sim {

namespace {

/* splitmix64's finaliser: the round function, mixing the half block with the round key. */
std::uint64_t mix(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::uint64_t feistel(std::uint64_t value, unsigned halfBits, std::uint64_t key) {
  const std::uint64_t mask = (std::uint64_t{1} << halfBits) - 1;
  std::uint64_t left = value >> halfBits, right = value & mask;
  for (std::uint64_t round = 0; round < 4; ++round) {
    std::uint64_t next = left ^ (mix(right + key + round * 0x9E3779B97F4A7C15ull) & mask);
    left = right;
    right = next;
  }
  return (left << halfBits) | right;
}

}  // namespace

std::uint64_t permute(std::uint64_t position, std::uint64_t n, std::uint64_t key) {
  if (n <= 1) return 0;
  unsigned halfBits = 1;
  while (halfBits < 32 && (std::uint64_t{1} << (2 * halfBits)) < n) ++halfBits;
  std::uint64_t value = position % n;
  do value = feistel(value, halfBits, key);
  while (value >= n);
  return value;
}

}  // namespace cats::sim
