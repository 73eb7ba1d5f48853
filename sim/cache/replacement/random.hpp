// Random replacement draws from SplitMix64: deterministic for a seed, so a run can be repeated and
// compared; no std::random_device.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cats::cache::detail {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  std::uint64_t state_;
};

/* The seed of level "level"'s generator: levels draw independently, so one level's misses do not
   shift another level's choices. */
inline std::uint64_t levelSeed(std::uint64_t seed, std::size_t level) { return seed ^ (0xD1B54A32D192ED03ull * (level + 1)); }

}  // namespace cats::cache::detail
