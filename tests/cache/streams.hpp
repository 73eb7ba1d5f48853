// Address streams for the cache tests: seeded random ones and adversarial shapes (one set
// thrashed, set-sized strides, sweeps larger than the cache, mostly writes).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cats::cache::test {

struct Access {
  std::uint64_t address = 0;
  std::uint32_t size = 8;
  bool isWrite = false;
};

struct Stream {
  std::string name;
  std::vector<Access> accesses;
};

/* SplitMix64, so the streams do not depend on the standard library's distributions. */
class TestRandom {
 public:
  explicit TestRandom(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /* Uniform in [0, n). */
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  bool chance(unsigned percent) { return below(100) < percent; }

 private:
  std::uint64_t state_;
};

/* "count" accesses at random byte addresses in [base, base + range), sizes 1..maxSize (so some
   straddle lines), "writePercent" of them writes. */
inline Stream randomStream(std::string name, std::uint64_t seed, std::size_t count, std::uint64_t range, unsigned writePercent,
                           std::uint32_t maxSize = 16) {
  TestRandom r(seed);
  Stream s{std::move(name), {}};
  for (std::size_t i = 0; i < count; ++i)
    s.accesses.push_back({0x100000 + r.below(range), static_cast<std::uint32_t>(1 + r.below(maxSize)), r.chance(writePercent)});
  return s;
}

/* "lines" addresses "stride" bytes apart (stride = sets * line size maps them to one set), read
   in turn "rounds" times; every "writeEvery"-th access a write (0: none). */
inline Stream cycleStream(std::string name, std::uint64_t lines, std::uint64_t stride, std::size_t rounds, std::size_t writeEvery = 0) {
  Stream s{std::move(name), {}};
  std::size_t n = 0;
  for (std::size_t round = 0; round < rounds; ++round)
    for (std::uint64_t i = 0; i < lines; ++i, ++n) s.accesses.push_back({0x200000 + i * stride, 8, writeEvery != 0 && n % writeEvery == 0});
  return s;
}

/* "passes" sequential sweeps of "bytes" bytes in "step"-byte accesses; every "writeEvery"-th a
   write (0: none). */
inline Stream sweepStream(std::string name, std::uint64_t bytes, std::size_t passes, std::uint32_t step, std::size_t writeEvery = 0) {
  Stream s{std::move(name), {}};
  std::size_t n = 0;
  for (std::size_t pass = 0; pass < passes; ++pass)
    for (std::uint64_t offset = 0; offset < bytes; offset += step, ++n)
      s.accesses.push_back({0x400000 + offset, step, writeEvery != 0 && n % writeEvery == 0});
  return s;
}

/* A stencil's vector taps over "rows" rows "rowBytes" apart, "passes" times: per 16-byte step at
   p, reads at p - 8, p and p + 8 in the rows above, at and below, and every "writeEvery"-th step
   a 16-byte store at p + 8 into a second array. The taps at 8 mod 16 cross a line every fourth
   step, right after the step before used its first line (a misaligned row's vector loop). */
inline Stream tapStream(std::string name, std::uint64_t rows, std::uint64_t rowBytes, std::size_t passes, std::size_t writeEvery) {
  Stream s{std::move(name), {}};
  const std::uint64_t in = 0x600000, out = in + (rows + 2) * rowBytes;
  std::size_t n = 0;
  for (std::size_t pass = 0; pass < passes; ++pass)
    for (std::uint64_t row = 1; row <= rows; ++row)
      for (std::uint64_t p = 16; p + 24 <= rowBytes; p += 16, ++n) {
        for (std::uint64_t r : {row - 1, row, row + 1})
          for (std::uint64_t at : {p - 8, p, p + 8}) s.accesses.push_back({in + r * rowBytes + at, 16, false});
        if (writeEvery != 0 && n % writeEvery == 0) s.accesses.push_back({out + row * rowBytes + p + 8, 16, true});
      }
  return s;
}

}  // namespace cats::cache::test
